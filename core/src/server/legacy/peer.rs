//! What a 2025-11-25 client declared once and the server keeps for its whole connection or
//! session (spec 2025-11-25, basic/lifecycle "Initialization"; server/utilities/logging): the
//! client capabilities from `initialize`, the level from `logging/setLevel`, the host's
//! [`Ctx`] of the connection, and how many server-to-client requests wait for it.
//!
//! A peer is a stdio connection (its [`StreamId`]) or an HTTP session (its id). Each POST of
//! a session is mapped to the session while its answer is outstanding, so an answer given
//! later (an `input_required`, a log line) finds the session's state.

use alloc::string::String;

use super::super::io::{Ctx, StreamId};
use super::super::vecmap::VecMap;
use crate::json::RawJson;
use crate::messages::LoggingLevel;

/// A legacy client: a stdio connection or an HTTP session.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Peer {
    /// A stdio connection after `initialize`.
    Stdio(StreamId),
    /// An HTTP session, by its `Mcp-Session-Id`.
    Session(String),
}

/// The state of one [`Peer`].
#[derive(Debug)]
pub(crate) struct PeerState {
    /// The host's context of the connection (stdio) or of the `initialize` POST.
    pub(crate) ctx: Ctx,
    /// The modern `clientCapabilities` object equivalent to what `initialize` declared
    /// (`elicitation` with its modes, `sampling`, `roots`: the capabilities input requests
    /// need), as compact JSON text.
    pub(crate) caps: String,
    /// The level set by `logging/setLevel`; `None` before any (every level is sent: the
    /// 2025-11-25 schema lets the server decide until the client sets one).
    pub(crate) level: Option<LoggingLevel>,
    /// Server-to-client requests sent and not answered yet.
    pub(crate) outstanding: usize,
}

/// The peer table, and the HTTP POST streams whose answers are outstanding, by session.
#[derive(Debug, Default)]
pub(crate) struct Peers {
    map: VecMap<Peer, PeerState>,
    posts: VecMap<StreamId, (String, Ctx)>,
}

impl Peers {
    /// Records `peer` after its `initialize` with `capabilities` (the `initialize` params
    /// member, possibly absent).
    pub(crate) fn open(&mut self, peer: Peer, ctx: Ctx, capabilities: Option<RawJson<'_>>) {
        self.map.insert(
            peer,
            PeerState {
                ctx,
                caps: modern_caps(capabilities),
                level: None,
                outstanding: 0,
            },
        );
    }

    /// Records `peer` with a state taken from a fleet's store (`shared.rs`).
    pub(crate) fn restore(
        &mut self,
        peer: Peer,
        ctx: Ctx,
        caps: String,
        level: Option<LoggingLevel>,
        outstanding: usize,
    ) {
        self.map.insert(
            peer,
            PeerState {
                ctx,
                caps,
                level,
                outstanding,
            },
        );
    }

    pub(crate) fn get(&self, peer: &Peer) -> Option<&PeerState> {
        self.map.get(peer)
    }

    pub(crate) fn get_mut(&mut self, peer: &Peer) -> Option<&mut PeerState> {
        self.map.get_mut(peer)
    }

    pub(crate) fn remove(&mut self, peer: &Peer) {
        self.map.remove(peer);
    }

    /// Drops every session peer `live` says no longer exists (ended, expired).
    pub(crate) fn retain_sessions(&mut self, live: impl Fn(&str) -> bool) {
        self.map.retain(|p, _| match p {
            Peer::Stdio(_) => true,
            Peer::Session(id) => live(id),
        });
        self.posts.retain(|_, (id, _)| live(id));
    }

    /// Every peer with its state.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&Peer, &PeerState)> {
        self.map.iter()
    }

    /// Maps the POST stream of `ctx` to `session` until [`Peers::forget_post`].
    pub(crate) fn map_post(&mut self, session: &str, ctx: Ctx) {
        self.posts.insert(ctx.stream, (String::from(session), ctx));
    }

    /// The session of a POST stream, and the host's context of that POST.
    pub(crate) fn post(&self, stream: StreamId) -> Option<&(String, Ctx)> {
        self.posts.get(&stream)
    }

    /// The POST streams of `session` whose answers are outstanding.
    pub(crate) fn posts_of(&self, session: &str) -> alloc::vec::Vec<StreamId> {
        self.posts
            .iter()
            .filter(|(_, (id, _))| id == session)
            .map(|(s, _)| *s)
            .collect()
    }

    pub(crate) fn forget_post(&mut self, stream: StreamId) {
        self.posts.remove(&stream);
    }
}

/// The modern `clientCapabilities` for what a 2025-11-25 `initialize` declared: the
/// capabilities input requests are checked against (docs/rules.md §13), in the modern
/// form. `elicitation: {}` means form mode in both revisions.
fn modern_caps(c: Option<RawJson<'_>>) -> String {
    let mut text = String::from("{");
    let mut sep = "";
    if let Some(e) = c
        .and_then(|c| c.get("elicitation"))
        .filter(|e| e.object().is_some())
    {
        let url = e.get("url").is_some();
        let form = e.get("form").is_some() || !url;
        text.push_str("\"elicitation\":{");
        match (form, url) {
            (true, true) => text.push_str("\"form\":{},\"url\":{}"),
            (true, false) => text.push_str("\"form\":{}"),
            _ => text.push_str("\"url\":{}"),
        }
        text.push('}');
        sep = ",";
    }
    for key in ["sampling", "roots"] {
        if c.and_then(|c| c.get(key))
            .is_some_and(|v| v.object().is_some())
        {
            text.push_str(sep);
            text.push('"');
            text.push_str(key);
            text.push_str("\":{}");
            sep = ",";
        }
    }
    text.push('}');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(text: &str) -> String {
        modern_caps(Some(RawJson::parse(text.as_bytes()).unwrap()))
    }

    #[test]
    fn initialize_capabilities_in_the_modern_form() {
        assert_eq!(caps("{}"), "{}");
        assert_eq!(modern_caps(None), "{}");
        assert_eq!(
            caps(r#"{"elicitation":{}}"#),
            r#"{"elicitation":{"form":{}}}"#
        );
        assert_eq!(
            caps(
                r#"{"elicitation":{"url":{}},"sampling":{"tools":{}},"roots":{"listChanged":true},"tasks":{}}"#
            ),
            r#"{"elicitation":{"url":{}},"sampling":{},"roots":{}}"#
        );
        assert_eq!(
            caps(r#"{"elicitation":{"form":{"applyDefaults":true},"url":{}},"sampling":1}"#),
            r#"{"elicitation":{"form":{},"url":{}}}"#
        );
    }
}
