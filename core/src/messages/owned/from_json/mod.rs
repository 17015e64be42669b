//! Owned values from JSON text, for hosts that describe things in the wire shape.
//!
//! A Python, Node or Swift host describes resources, contents, prompt results and
//! subscription filters as its own JSON-shaped objects (`dict`, plain object, `Codable`). The
//! bindings serialise them and call [`FromJsonText::from_json_text`]: the text goes through
//! the same one-pass view decoders that check every incoming message against the schema
//! (docs/rules.md §5 resources, §8 contents, §9 prompts, §10 subscriptions, §13 input requests), so
//! what a host registers obeys the same rules as what arrives from the wire, and no binding
//! carries a validator of its own.
//!
//! ```
//! use mcp_context::messages::owned::{FromJsonText, OwnedResource, OwnedResourceContents};
//! let r = OwnedResource::from_json_text(r#"{"uri":"file:///a.md","name":"a","mimeType":"text/markdown"}"#)?;
//! assert_eq!(r.mime_type.as_deref(), Some("text/markdown"));
//! let contents = Vec::<OwnedResourceContents>::from_json_text(r#"[{"uri":"file:///a.md","text":"A"}]"#)?;
//! assert_eq!(contents, vec![OwnedResourceContents::text("file:///a.md", None, "A")]);
//! // A resource without its required `name` breaks the schema: -32602.
//! let err = OwnedResource::from_json_text(r#"{"uri":"file:///a.md"}"#).unwrap_err();
//! assert_eq!(err.error_code().0, -32602);
//! # Ok::<(), mcp_context::jsonrpc::DecodeError>(())
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use super::{
    ListKind, OwnedAcknowledged, OwnedAnnotations, OwnedCancelled, OwnedCompleteResult,
    OwnedContentBlock, OwnedDiscoverResult, OwnedErrorData, OwnedErrorResponse,
    OwnedGetPromptResult, OwnedIcon, OwnedImplementation, OwnedInputRequest,
    OwnedInputRequiredResult, OwnedJson, OwnedListChanged, OwnedListPromptsResult,
    OwnedListResourceTemplatesResult, OwnedListResourcesResult, OwnedListenResult, OwnedPrompt,
    OwnedPromptArgument, OwnedPromptMessage, OwnedReadResourceResult, OwnedResource,
    OwnedResourceContents, OwnedResourceTemplate, OwnedResourceUpdated, OwnedResponse,
    OwnedServerCapabilities, OwnedSubscriptionFilter,
};
use crate::json::fields::{Keys, keys};
use crate::json::{Cursor, JsonStr, Limits, RawJson};
use crate::jsonrpc::{
    DecodeError, EnvelopeError, ErrorData, FromJson, Message, OwnedRequestId, ParamsError,
    ParamsErrorKind, RequestId,
};
use crate::messages::CacheScope;
use crate::messages::common::{obj, required, ttl};
use crate::messages::{
    Annotations, CancelledNotification, CompleteResult, ContentBlock, DiscoverResult,
    GetPromptResult, Icon, Implementation, InputRequest, InputRequiredResult, ListResult,
    ListenResult, Map, NotificationMeta, Prompt, PromptArgument, PromptListChangedNotification,
    PromptMessage, ReadResourceResult, Resource, ResourceContents, ResourceListChangedNotification,
    ResourceTemplate, ResourceUpdatedNotification, ResultMeta, Seq, ServerCapabilities,
    SubscriptionFilter, SubscriptionsAcknowledgedNotification, ToolListChangedNotification,
};

/// An owned value decoded from JSON text in its wire shape (camelCase keys).
pub trait FromJsonText: Sized {
    /// Decodes `text` (one JSON value, within the default [`Limits`]).
    ///
    /// # Errors
    /// [`DecodeError::Json`] (-32700) for text that is not JSON; [`DecodeError::Params`]
    /// (-32602) naming the first field that breaks the schema or a spec rule.
    fn from_json_text(text: &str) -> Result<Self, DecodeError>;
}

/// Conversion of a validated view into its owned form.
trait FromView<'a>: Sized {
    type View: FromJson<'a>;
    fn from_view(view: Self::View) -> Result<Self, ParamsError>;
}

fn decode_text<'a, T: FromView<'a>>(text: &'a str) -> Result<T, DecodeError> {
    let mut c = Cursor::new(text.as_bytes(), Limits::default())?;
    let view = T::View::decode(&mut c)?;
    c.finish()?;
    Ok(T::from_view(view)?)
}

macro_rules! from_json_text {
    ($($t:ty),* $(,)?) => {$(
        impl FromJsonText for $t {
            fn from_json_text(text: &str) -> Result<Self, DecodeError> {
                decode_text::<Self>(text)
            }
        }
    )*};
}

from_json_text!(
    OwnedResource,
    OwnedResourceTemplate,
    OwnedPrompt,
    OwnedResourceContents,
    OwnedGetPromptResult,
    OwnedImplementation,
    OwnedSubscriptionFilter,
    OwnedInputRequiredResult,
    OwnedAnnotations,
    OwnedContentBlock,
    OwnedPromptMessage,
    OwnedIcon,
    OwnedPromptArgument,
    OwnedInputRequest,
    OwnedServerCapabilities,
    OwnedDiscoverResult,
    OwnedListResourcesResult,
    OwnedListResourceTemplatesResult,
    OwnedListPromptsResult,
    OwnedReadResourceResult,
    OwnedCompleteResult,
    OwnedListenResult,
);

/// Any JSON value (validated, kept as text).
impl FromJsonText for OwnedJson {
    fn from_json_text(text: &str) -> Result<Self, DecodeError> {
        Ok(Self::parse(text)?)
    }
}

/// A JSON-RPC response whose `result` decodes as `R`.
impl<R: FromJsonText> FromJsonText for OwnedResponse<R> {
    fn from_json_text(text: &str) -> Result<Self, DecodeError> {
        match Message::decode(text.as_bytes())? {
            Message::Response(r) => Ok(Self {
                id: r.id.to_owned_id(),
                result: R::from_json_text(r.result.as_text())?,
            }),
            _ => Err(EnvelopeError::UnexpectedKind.into()),
        }
    }
}

fn subscription(meta: Option<NotificationMeta<'_>>) -> Option<OwnedRequestId> {
    meta.and_then(|m| m.subscription_id)
        .map(|id| RequestId::to_owned_id(&id))
}

/// `notifications/resources/updated`.
impl FromJsonText for OwnedResourceUpdated {
    fn from_json_text(text: &str) -> Result<Self, DecodeError> {
        let n = ResourceUpdatedNotification::decode(text.as_bytes())?;
        Ok(Self {
            subscription_id: subscription(n.params.meta),
            uri: owned(n.params.uri),
        })
    }
}

/// `notifications/{resources,prompts,tools}/list_changed`.
impl FromJsonText for OwnedListChanged {
    fn from_json_text(text: &str) -> Result<Self, DecodeError> {
        let b = text.as_bytes();
        let (kind, meta) = match Message::decode(b)? {
            Message::Notification(n) => match n.method.as_str() {
                "notifications/resources/list_changed" => (
                    ListKind::Resources,
                    ResourceListChangedNotification::decode(b)?.params.0.meta,
                ),
                "notifications/prompts/list_changed" => (
                    ListKind::Prompts,
                    PromptListChangedNotification::decode(b)?.params.0.meta,
                ),
                "notifications/tools/list_changed" => (
                    ListKind::Tools,
                    ToolListChangedNotification::decode(b)?.params.0.meta,
                ),
                _ => return Err(EnvelopeError::UnexpectedMethod.into()),
            },
            _ => return Err(EnvelopeError::UnexpectedKind.into()),
        };
        Ok(Self {
            kind,
            subscription_id: subscription(meta),
        })
    }
}

/// `notifications/subscriptions/acknowledged`.
impl FromJsonText for OwnedAcknowledged {
    fn from_json_text(text: &str) -> Result<Self, DecodeError> {
        let n = SubscriptionsAcknowledgedNotification::decode(text.as_bytes())?;
        Ok(Self {
            subscription_id: subscription(n.params.meta).ok_or(ParamsError::new(
                ParamsErrorKind::Missing,
                "io.modelcontextprotocol/subscriptionId",
            ))?,
            notifications: OwnedSubscriptionFilter::from_view(n.params.notifications)?,
        })
    }
}

/// `notifications/cancelled`.
impl FromJsonText for OwnedCancelled {
    fn from_json_text(text: &str) -> Result<Self, DecodeError> {
        let n = CancelledNotification::decode(text.as_bytes())?;
        Ok(Self {
            subscription_id: subscription(n.params.meta),
            request_id: n.params.request_id.to_owned_id(),
            reason: opt(n.params.reason),
        })
    }
}

/// A JSON-RPC error response, its `data` typed where the spec defines it.
impl FromJsonText for OwnedErrorResponse {
    fn from_json_text(text: &str) -> Result<Self, DecodeError> {
        let Message::Error(e) = Message::decode(text.as_bytes())? else {
            return Err(EnvelopeError::UnexpectedKind.into());
        };
        let data = match e.error.details()? {
            ErrorData::None => OwnedErrorData::None,
            ErrorData::Raw(raw) => OwnedErrorData::Json(json(raw)?),
            ErrorData::UnsupportedProtocolVersion {
                supported,
                requested,
            } => OwnedErrorData::UnsupportedProtocolVersion {
                supported: supported.iter().map(owned).collect(),
                requested: owned(requested),
            },
            ErrorData::MissingRequiredClientCapability { required } => {
                let text = crate::json::to_string(&required).map_err(|_| {
                    ParamsError::new(ParamsErrorKind::WrongType, "requiredCapabilities")
                })?;
                OwnedErrorData::MissingRequiredClientCapability(OwnedJson::parse(text)?)
            }
            ErrorData::ResourceNotFound { uri } => OwnedErrorData::ResourceNotFound(owned(uri)),
        };
        Ok(Self {
            id: e.id.map(|id| id.to_owned_id()),
            code: e.error.code,
            message: owned(e.error.message),
            data,
        })
    }
}

fn json(raw: RawJson<'_>) -> Result<OwnedJson, DecodeError> {
    Ok(OwnedJson::parse(raw.as_text())?)
}

macro_rules! vec_from_json_text {
    ($($t:ty),* $(,)?) => {$(
        /// A JSON array of them.
        impl FromJsonText for Vec<$t> {
            fn from_json_text(text: &str) -> Result<Self, DecodeError> {
                let mut c = Cursor::new(text.as_bytes(), Limits::default())?;
                let items = Seq::<<$t as FromView<'_>>::View>::decode(&mut c, ParamsError::ITEM)?;
                c.finish()?;
                Ok(items
                    .iter()
                    .map(<$t>::from_view)
                    .collect::<Result<Vec<$t>, ParamsError>>()?)
            }
        }
    )*};
}

vec_from_json_text!(
    OwnedResource,
    OwnedResourceTemplate,
    OwnedPrompt,
    OwnedResourceContents,
    OwnedPromptMessage,
    OwnedContentBlock,
);

/// The `inputRequests` object of an `InputRequiredResult` (docs/rules.md §13): key → request.
impl FromJsonText for Vec<(String, OwnedInputRequest)> {
    fn from_json_text(text: &str) -> Result<Self, DecodeError> {
        let mut c = Cursor::new(text.as_bytes(), Limits::default())?;
        let map = Map::<InputRequest<'_>>::decode(&mut c, "inputRequests")?;
        c.finish()?;
        map.iter()
            .map(|(key, request)| Ok((owned(key), OwnedInputRequest::from_view(request)?)))
            .collect::<Result<Self, ParamsError>>()
            .map_err(DecodeError::Params)
    }
}

/// The cache hints of a result, `{"ttlMs": …, "cacheScope": …}` (docs/rules.md §4), both required;
/// other members are ignored. A negative `ttlMs` reads as 0, as on the wire.
impl FromJsonText for crate::server::CacheHint {
    fn from_json_text(text: &str) -> Result<Self, DecodeError> {
        const NAMES: &Keys = keys!["ttlMs", "cacheScope"];
        let mut c = Cursor::new(text.as_bytes(), Limits::default())?;
        let mut f = obj(&mut c, NAMES, "cache")?;
        let (mut ttl_ms, mut scope) = (None, None);
        while let Some(i) = f.next(&mut c)? {
            if i == 0 {
                ttl_ms = Some(ttl(&mut c)?);
            } else {
                scope = Some(CacheScope::decode(&mut c)?);
            }
        }
        c.finish()?;
        Ok(Self {
            ttl_ms: required(ttl_ms, "ttlMs")?,
            scope: required(scope, "cacheScope")?,
        })
    }
}

fn owned(s: JsonStr<'_>) -> String {
    s.to_cow().into_owned()
}

fn opt(s: Option<JsonStr<'_>>) -> Option<String> {
    s.map(owned)
}

fn opt_json(raw: Option<RawJson<'_>>) -> Option<OwnedJson> {
    raw.and_then(|r| OwnedJson::parse(r.as_text()).ok())
}

fn all<'a, V: FromJson<'a> + Copy, O: FromView<'a, View = V>>(
    seq: Option<Seq<'a, V>>,
) -> Result<Vec<O>, ParamsError> {
    seq.map_or_else(|| Ok(Vec::new()), |s| s.iter().map(O::from_view).collect())
}

mod views;

#[cfg(test)]
mod tests;
