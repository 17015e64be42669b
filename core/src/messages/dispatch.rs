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
