//! The outputs of a request's round trip as parts ([`ServerAdapter::drain_raw`]): its
//! `readResource` event and its answer's transmit, whose objects an engine builds faster
//! than from an `Obj` (the addon's object literals), every other output as [`Polled`].

use mcp_context::server::{Event, Output, ReadTarget, Transmit};

use super::{Polled, ServerAdapter};

/// An output of [`ServerAdapter::drain_raw`].
#[derive(Debug)]
pub enum Raw {
    /// A transmit, as the core made it.
    Transmit(Transmit),
    /// A `readResource` event's values, in its object's order (`retry: null`: a retry's
    /// event is [`Raw::Other`]).
    Read(ReadParts),
    /// Any other output.
    Other(Polled),
}

/// A `readResource` event's values (the keys of [`ServerAdapter::poll`]'s object).
#[derive(Debug)]
pub struct ReadParts {
    /// `handle`.
    pub handle: u64,
    /// `uri`.
    pub uri: String,
    /// `target`: `'template'`, `'resource'` or `'unlisted'`.
    pub target: &'static str,
    /// `template`, for a template's read (`target` `'template'`; `None`: not found).
    pub template: Option<String>,
    /// `variables` (in order), for a template's read.
    pub variables: Vec<(String, String)>,
    /// `auth`.
    pub auth: u64,
    /// `capabilities`: `elicitationForm`, `elicitationUrl`, `sampling`, `roots`.
    pub capabilities: [bool; 4],
}

impl ServerAdapter {
    /// Every queued output, in order, with the two a request's round trip makes (its
    /// `readResource` event, its answer's transmit) kept as parts: an engine builds their
    /// objects faster than from an [`Obj`] (the addon's object literals).
    pub fn drain_raw(&mut self) -> Vec<Raw> {
        let mut out = Vec::new();
        self.inner.drain(&mut out);
        out.into_iter()
            .map(|o| match o {
                Output::Transmit(t) => Raw::Transmit(t),
                Output::Event(Event::ReadResource(e)) if e.retry.is_none() => {
                    let (target, template, variables) = match &e.target {
                        ReadTarget::Template { id, variables } => (
                            "template",
                            self.inner.template(*id).map(str::to_owned),
                            variables.clone(),
                        ),
                        ReadTarget::Resource => ("resource", None, Vec::new()),
                        _ => ("unlisted", None, Vec::new()),
                    };
                    let c = e.capabilities;
                    Raw::Read(ReadParts {
                        handle: self.keep(e.handle),
                        uri: e.uri,
                        target,
                        template,
                        variables,
                        auth: e.auth,
                        capabilities: [c.elicitation_form, c.elicitation_url, c.sampling, c.roots],
                    })
                }
                other => Raw::Other(self.polled(other)),
            })
            .collect()
    }
}
