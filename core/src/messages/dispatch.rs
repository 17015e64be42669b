//! One decode entry per direction: [`ClientRequest`] (what a server receives) and
//! [`ServerNotification`] (what a client receives), each dispatched on the method.

use super::completion::CompleteParams;
use super::discover::DiscoverParams;
use super::legacy::{SubscribeParams, UnsubscribeParams};
use super::lists::{ListPromptsParams, ListResourceTemplatesParams, ListResourcesParams};
use super::meta::RequestMeta;
use super::notifications::{
    CancelledParams, PromptListChangedParams, ResourceListChangedParams, ResourceUpdatedParams,
    ToolListChangedParams,
};
use super::prompts::GetPromptParams;
use super::read::ReadResourceParams;
use super::subscriptions::{AcknowledgedParams, ListenParams};
use crate::json::RawJson;
use crate::jsonrpc::{Method, MethodParams, Notification, ParamsError, Request};

/// The params of a request a server of the context primitives handles, by method.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum ClientRequest<'a> {
    /// `server/discover`
    Discover(DiscoverParams<'a>),
    /// `resources/list`
    ListResources(ListResourcesParams<'a>),
    /// `resources/templates/list`
    ListResourceTemplates(ListResourceTemplatesParams<'a>),
    /// `resources/read`
    ReadResource(ReadResourceParams<'a>),
    /// `prompts/list`
    ListPrompts(ListPromptsParams<'a>),
    /// `prompts/get`
    GetPrompt(GetPromptParams<'a>),
    /// `completion/complete`
    Complete(CompleteParams<'a>),
    /// `subscriptions/listen`
    Listen(ListenParams<'a>),
    /// Legacy `resources/subscribe` (a modern-only server answers -32601).
    Subscribe(SubscribeParams<'a>),
    /// Legacy `resources/unsubscribe` (a modern-only server answers -32601).
    Unsubscribe(UnsubscribeParams<'a>),
    /// Any other method, params unparsed (a server of this scope answers -32601).
    Other(Method<'a>, Option<RawJson<'a>>),
}

fn p<'a, P: MethodParams<'a>>(params: Option<RawJson<'a>>) -> Result<P, ParamsError> {
    P::from_params(params)
}

impl<'a> ClientRequest<'a> {
    /// Decodes the params of a classified request.
    ///
    /// # Errors
    /// [`ParamsError`] (`-32602`), e.g. a missing `_meta` key (docs/rules.md §16.1 rule 1).
    pub fn from_request(r: &Request<'a>) -> Result<Self, ParamsError> {
        let params = r.params;
        Ok(match r.method {
            Method::ServerDiscover => Self::Discover(p(params)?),
            Method::ResourcesList => Self::ListResources(p(params)?),
            Method::ResourcesTemplatesList => Self::ListResourceTemplates(p(params)?),
            Method::ResourcesRead => Self::ReadResource(p(params)?),
            Method::PromptsList => Self::ListPrompts(p(params)?),
            Method::PromptsGet => Self::GetPrompt(p(params)?),
            Method::CompletionComplete => Self::Complete(p(params)?),
            Method::SubscriptionsListen => Self::Listen(p(params)?),
            Method::ResourcesSubscribe => Self::Subscribe(p(params)?),
            Method::ResourcesUnsubscribe => Self::Unsubscribe(p(params)?),
            other => Self::Other(other, params),
        })
    }

    /// Decodes a complete message (as [`Message::decode_with`]) and, for a request of
    /// these methods whose `method` precedes its `params`, the params in the same pass:
    /// `Some` is what [`ClientRequest::from_request`] returns for that request.
    ///
    /// # Errors
    /// As [`Message::decode_with`].
    #[cfg(feature = "alloc")] // the server machine's
    #[allow(clippy::type_complexity)] // the message and its params' outcome
    pub(crate) fn decode_message(
        bytes: &'a [u8],
        limits: crate::json::Limits,
    ) -> Result<
        (
            crate::jsonrpc::Message<'a>,
            Option<Result<Self, ParamsError>>,
        ),
        crate::jsonrpc::DecodeError,
    > {
        use crate::jsonrpc::{DecodeError, Message};
        Message::decode_with_params(bytes, limits, |method, c| {
            fn d<'a, P: MethodParams<'a>>(
                c: &mut crate::json::Cursor<'a>,
                f: fn(P) -> ClientRequest<'a>,
            ) -> Option<Result<ClientRequest<'a>, DecodeError>> {
                Some(P::decode(c).map(f))
            }
            match method {
                Method::ServerDiscover => d(c, Self::Discover),
                Method::ResourcesList => d(c, Self::ListResources),
                Method::ResourcesTemplatesList => d(c, Self::ListResourceTemplates),
                Method::ResourcesRead => d(c, Self::ReadResource),
                Method::PromptsList => d(c, Self::ListPrompts),
                Method::PromptsGet => d(c, Self::GetPrompt),
                Method::CompletionComplete => d(c, Self::Complete),
                Method::SubscriptionsListen => d(c, Self::Listen),
                _ => None,
            }
        })
    }

    /// The method.
    #[must_use]
    pub const fn method(&self) -> Method<'a> {
        match self {
            Self::Discover(_) => Method::ServerDiscover,
            Self::ListResources(_) => Method::ResourcesList,
            Self::ListResourceTemplates(_) => Method::ResourcesTemplatesList,
            Self::ReadResource(_) => Method::ResourcesRead,
            Self::ListPrompts(_) => Method::PromptsList,
            Self::GetPrompt(_) => Method::PromptsGet,
            Self::Complete(_) => Method::CompletionComplete,
            Self::Listen(_) => Method::SubscriptionsListen,
            Self::Subscribe(_) => Method::ResourcesSubscribe,
            Self::Unsubscribe(_) => Method::ResourcesUnsubscribe,
            Self::Other(m, _) => *m,
        }
    }

    /// The per-request `_meta` of a modern request.
    #[must_use]
    pub const fn meta(&self) -> Option<&RequestMeta<'a>> {
        Some(match self {
            Self::Discover(p) => &p.meta,
            Self::ListResources(p) => &p.0.meta,
            Self::ListResourceTemplates(p) => &p.0.meta,
            Self::ReadResource(p) => &p.meta,
            Self::ListPrompts(p) => &p.0.meta,
            Self::GetPrompt(p) => &p.meta,
            Self::Complete(p) => &p.meta,
            Self::Listen(p) => &p.meta,
            Self::Subscribe(_) | Self::Unsubscribe(_) | Self::Other(..) => return None,
        })
    }
}

/// The params of a notification in scope, by method (docs/rules.md §12).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum ServerNotification<'a> {
    /// `notifications/resources/list_changed`
    ResourceListChanged(ResourceListChangedParams<'a>),
    /// `notifications/resources/updated`
    ResourceUpdated(ResourceUpdatedParams<'a>),
    /// `notifications/prompts/list_changed`
    PromptListChanged(PromptListChangedParams<'a>),
    /// `notifications/tools/list_changed`
    ToolListChanged(ToolListChangedParams<'a>),
    /// `notifications/subscriptions/acknowledged`
    Acknowledged(AcknowledgedParams<'a>),
    /// `notifications/cancelled` (also the one client-to-server notification).
    Cancelled(CancelledParams<'a>),
    /// Any other notification, params unparsed.
    Other(Method<'a>, Option<RawJson<'a>>),
}

impl<'a> ServerNotification<'a> {
    /// Decodes the params of a classified notification.
    ///
    /// # Errors
    /// [`ParamsError`] (`-32602`).
    pub fn from_notification(n: &Notification<'a>) -> Result<Self, ParamsError> {
        let params = n.params;
        Ok(match n.method {
            Method::ResourcesListChanged => Self::ResourceListChanged(p(params)?),
            Method::ResourcesUpdated => Self::ResourceUpdated(p(params)?),
            Method::PromptsListChanged => Self::PromptListChanged(p(params)?),
            Method::ToolsListChanged => Self::ToolListChanged(p(params)?),
            Method::SubscriptionsAcknowledged => Self::Acknowledged(p(params)?),
            Method::Cancelled => Self::Cancelled(p(params)?),
            other => Self::Other(other, params),
        })
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::ClientRequest;
    use crate::json::Limits;
    use crate::jsonrpc::Message;
    use alloc::string::String;

    const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

    /// The params read in the envelope's pass are what `from_request` reads from the raw
    /// params afterwards, errors included, whatever the members' order; the message is the
    /// same as `decode_with`'s (its raw `params` kept for the legacy and extension paths).
    #[test]
    fn params_read_in_the_envelope_pass_are_from_requests() {
        let params = [
            (
                "resources/read",
                alloc::format!(r#"{{{META},"uri":"notes://a"}}"#),
            ),
            ("resources/read", alloc::format!(r#"{{{META}}}"#)),
            ("resources/read", alloc::format!(r#"{{{META},"uri":7}}"#)),
            ("resources/read", String::from(r#"{"uri":"notes://a"}"#)),
            (
                "resources/list",
                alloc::format!(r#"{{{META},"cursor":"x"}}"#),
            ),
            ("resources/templates/list", alloc::format!(r#"{{{META}}}"#)),
            ("prompts/list", alloc::format!(r#"{{ {META} }}"#)),
            (
                "prompts/get",
                alloc::format!(r#"{{{META},"name":"p","arguments":{{"a":"\u0062"}}}}"#),
            ),
            (
                "completion/complete",
                alloc::format!(
                    r#"{{{META},"ref":{{"type":"ref/prompt","name":"p"}},"argument":{{"name":"a","value":""}}}}"#
                ),
            ),
            (
                "subscriptions/listen",
                alloc::format!(r#"{{{META},"notifications":{{"resourcesListChanged":true}}}}"#),
            ),
            ("server/discover", alloc::format!(r#"{{{META}}}"#)),
            ("tools/call", alloc::format!(r#"{{{META},"name":"t"}}"#)),
            ("resources/read", String::from("[]")),
        ];
        for (method, p) in &params {
            for msg in [
                alloc::format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{p}}}"#),
                alloc::format!(r#"{{"params":{p},"jsonrpc":"2.0","id":1,"method":"{method}"}}"#),
                alloc::format!(
                    r#"{{"jsonrpc":"2.0","method":"{method}","params": {p} ,"id":"x"}}"#
                ),
            ] {
                let plain = Message::decode_with(msg.as_bytes(), Limits::DEFAULT);
                let (message, read) =
                    ClientRequest::decode_message(msg.as_bytes(), Limits::DEFAULT).unwrap();
                assert_eq!(Ok(message), plain, "{msg}");
                let Message::Request(r) = message else {
                    panic!("{msg}");
                };
                let later = ClientRequest::from_request(&r);
                if let Some(read) = read {
                    assert_eq!(read, later, "{msg}");
                } else {
                    assert!(
                        msg.starts_with(r#"{"params""#) || method.starts_with("tools/"),
                        "{msg}"
                    );
                }
            }
        }
        // Malformed JSON inside the params is still -32700, as before.
        let bad = br#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"a",}}"#;
        assert_eq!(
            ClientRequest::decode_message(bad, Limits::DEFAULT).map(|_| ()),
            Message::decode_with(bad, Limits::DEFAULT).map(|_| ())
        );
        assert!(ClientRequest::decode_message(bad, Limits::DEFAULT).is_err());
    }
}
