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
        const NAMES: &[&str] = &["ttlMs", "cacheScope"];
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

impl<'a> FromView<'a> for String {
    type View = JsonStr<'a>;
    fn from_view(view: JsonStr<'a>) -> Result<Self, ParamsError> {
        Ok(owned(view))
    }
}

impl<'a> FromView<'a> for OwnedIcon {
    type View = Icon<'a>;
    fn from_view(v: Icon<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            src: owned(v.src),
            mime_type: opt(v.mime_type),
            sizes: all(v.sizes)?,
            theme: v.theme,
        })
    }
}

impl<'a> FromView<'a> for OwnedImplementation {
    type View = Implementation<'a>;
    fn from_view(v: Implementation<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            name: owned(v.name),
            version: owned(v.version),
            title: opt(v.title),
            description: opt(v.description),
            website_url: opt(v.website_url),
            icons: all(v.icons)?,
        })
    }
}

impl<'a> FromView<'a> for OwnedAnnotations {
    type View = Annotations<'a>;
    fn from_view(v: Annotations<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            audience: v.audience.map(|s| s.iter().collect()).unwrap_or_default(),
            priority: v.priority,
            last_modified: opt(v.last_modified),
        })
    }
}

fn annotations(a: Option<Annotations<'_>>) -> Result<Option<OwnedAnnotations>, ParamsError> {
    a.map(OwnedAnnotations::from_view).transpose()
}

impl<'a> FromView<'a> for OwnedResource {
    type View = Resource<'a>;
    fn from_view(v: Resource<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            uri: owned(v.uri),
            name: owned(v.name),
            title: opt(v.title),
            description: opt(v.description),
            mime_type: opt(v.mime_type),
            size: v.size,
            annotations: annotations(v.annotations)?,
            icons: all(v.icons)?,
            meta: opt_json(v.meta),
        })
    }
}

impl<'a> FromView<'a> for OwnedResourceTemplate {
    type View = ResourceTemplate<'a>;
    fn from_view(v: ResourceTemplate<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            uri_template: owned(v.uri_template),
            name: owned(v.name),
            title: opt(v.title),
            description: opt(v.description),
            mime_type: opt(v.mime_type),
            annotations: annotations(v.annotations)?,
            icons: all(v.icons)?,
            meta: opt_json(v.meta),
        })
    }
}

impl<'a> FromView<'a> for OwnedPromptArgument {
    type View = PromptArgument<'a>;
    fn from_view(v: PromptArgument<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            name: owned(v.name),
            title: opt(v.title),
            description: opt(v.description),
            required: v.required,
        })
    }
}

impl<'a> FromView<'a> for OwnedPrompt {
    type View = Prompt<'a>;
    fn from_view(v: Prompt<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            name: owned(v.name),
            title: opt(v.title),
            description: opt(v.description),
            arguments: all(v.arguments)?,
            icons: all(v.icons)?,
            meta: opt_json(v.meta),
        })
    }
}

impl<'a> FromView<'a> for OwnedResourceContents {
    type View = ResourceContents<'a>;
    fn from_view(v: ResourceContents<'a>) -> Result<Self, ParamsError> {
        Ok(match v {
            ResourceContents::Text(t) => Self::Text {
                uri: owned(t.uri),
                mime_type: opt(t.mime_type),
                text: owned(t.text),
            },
            ResourceContents::Blob(b) => Self::Blob {
                uri: owned(b.uri),
                mime_type: opt(b.mime_type),
                blob: owned(b.blob),
            },
        })
    }
}

impl<'a> FromView<'a> for OwnedContentBlock {
    type View = ContentBlock<'a>;
    fn from_view(v: ContentBlock<'a>) -> Result<Self, ParamsError> {
        Ok(match v {
            ContentBlock::Text(t) => Self::Text {
                text: owned(t.text),
                annotations: annotations(t.annotations)?,
            },
            ContentBlock::Image(m) => Self::Image {
                data: owned(m.data),
                mime_type: owned(m.mime_type),
                annotations: annotations(m.annotations)?,
            },
            ContentBlock::Audio(m) => Self::Audio {
                data: owned(m.data),
                mime_type: owned(m.mime_type),
                annotations: annotations(m.annotations)?,
            },
            ContentBlock::ResourceLink(r) => Self::ResourceLink(OwnedResource::from_view(r)?),
            ContentBlock::Resource(e) => Self::Resource {
                resource: OwnedResourceContents::from_view(e.resource)?,
                annotations: annotations(e.annotations)?,
            },
        })
    }
}

impl<'a> FromView<'a> for OwnedPromptMessage {
    type View = PromptMessage<'a>;
    fn from_view(v: PromptMessage<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            role: v.role,
            content: OwnedContentBlock::from_view(v.content)?,
        })
    }
}

impl<'a> FromView<'a> for OwnedGetPromptResult {
    type View = GetPromptResult<'a>;
    fn from_view(v: GetPromptResult<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            description: opt(v.description),
            messages: all(Some(v.messages))?,
            server_info: server_info(v.meta)?,
        })
    }
}

/// `_meta.serverInfo` of a result (its other `_meta` keys have no owned field).
fn server_info(meta: Option<ResultMeta<'_>>) -> Result<Option<OwnedImplementation>, ParamsError> {
    meta.and_then(|m| m.server_info)
        .map(OwnedImplementation::from_view)
        .transpose()
}

impl<'a> FromView<'a> for OwnedServerCapabilities {
    type View = ServerCapabilities<'a>;
    fn from_view(v: ServerCapabilities<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            resources: v.resources,
            prompts: v.prompts,
            tools: v.tools,
            completions: v.completions.is_some(),
            logging: v.logging.is_some(),
            experimental: opt_json(v.experimental),
            extensions: opt_json(v.extensions),
        })
    }
}

impl<'a> FromView<'a> for OwnedDiscoverResult {
    type View = DiscoverResult<'a>;
    fn from_view(v: DiscoverResult<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            supported_versions: v.supported_versions.iter().map(owned).collect(),
            capabilities: OwnedServerCapabilities::from_view(v.capabilities)?,
            instructions: opt(v.instructions),
            ttl_ms: required(v.ttl_ms, "ttlMs")?,
            cache_scope: required(v.cache_scope, "cacheScope")?,
            server_info: server_info(v.meta)?,
        })
    }
}

macro_rules! list_from_view {
    ($($owned:ty = $item:ty),* $(,)?) => {$(
        impl<'a> FromView<'a> for $owned {
            type View = ListResult<'a, <$item as FromView<'a>>::View>;
            fn from_view(v: Self::View) -> Result<Self, ParamsError> {
                Ok(Self {
                    items: all(Some(v.items))?,
                    next_cursor: opt(v.next_cursor),
                    ttl_ms: required(v.ttl_ms, "ttlMs")?,
                    cache_scope: required(v.cache_scope, "cacheScope")?,
                    server_info: server_info(v.meta)?,
                })
            }
        }
    )*};
}

list_from_view!(
    OwnedListResourcesResult = OwnedResource,
    OwnedListResourceTemplatesResult = OwnedResourceTemplate,
    OwnedListPromptsResult = OwnedPrompt,
);

impl<'a> FromView<'a> for OwnedReadResourceResult {
    type View = ReadResourceResult<'a>;
    fn from_view(v: ReadResourceResult<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            contents: all(Some(v.contents))?,
            ttl_ms: required(v.ttl_ms, "ttlMs")?,
            cache_scope: required(v.cache_scope, "cacheScope")?,
            server_info: server_info(v.meta)?,
        })
    }
}

impl<'a> FromView<'a> for OwnedCompleteResult {
    type View = CompleteResult<'a>;
    fn from_view(v: CompleteResult<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            values: v.values.iter().map(owned).collect(),
            total: v.total,
            has_more: v.has_more,
            server_info: server_info(v.meta)?,
        })
    }
}

impl<'a> FromView<'a> for OwnedListenResult {
    type View = ListenResult<'a>;
    fn from_view(v: ListenResult<'a>) -> Result<Self, ParamsError> {
        let id = v.meta.subscription_id.ok_or(ParamsError::new(
            ParamsErrorKind::Missing,
            "io.modelcontextprotocol/subscriptionId",
        ))?;
        Ok(Self {
            subscription_id: id.to_owned_id(),
            server_info: server_info(Some(v.meta))?,
        })
    }
}

impl<'a> FromView<'a> for OwnedSubscriptionFilter {
    type View = SubscriptionFilter<'a>;
    fn from_view(v: SubscriptionFilter<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            tools_list_changed: v.tools_list_changed,
            prompts_list_changed: v.prompts_list_changed,
            resources_list_changed: v.resources_list_changed,
            resource_subscriptions: v
                .resource_subscriptions
                .map(|s| s.iter().map(owned).collect()),
        })
    }
}

impl<'a> FromView<'a> for OwnedInputRequest {
    type View = InputRequest<'a>;
    fn from_view(v: InputRequest<'a>) -> Result<Self, ParamsError> {
        Ok(Self {
            // Input requests are server-to-client requests the spec names (docs/rules.md §13); a
            // method outside the vocabulary cannot be sent as one.
            method: v
                .method
                .known_static()
                .ok_or(ParamsError::new(ParamsErrorKind::UnknownValue, "method"))?,
            params: opt_json(v.params),
        })
    }
}

impl<'a> FromView<'a> for OwnedInputRequiredResult {
    type View = InputRequiredResult<'a>;
    fn from_view(v: InputRequiredResult<'a>) -> Result<Self, ParamsError> {
        let mut input_requests = Vec::new();
        if let Some(map) = v.input_requests {
            for (key, request) in map.iter() {
                input_requests.push((owned(key), OwnedInputRequest::from_view(request)?));
            }
        }
        Ok(Self {
            input_requests,
            request_state: opt(v.request_state),
            server_info: server_info(v.meta)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::to_string;
    use crate::messages::Role;
    use crate::messages::owned::AsView;
    use crate::server::CacheHint;
    use alloc::vec;

    /// Owned → JSON → owned is the identity: the decoders accept exactly what the encoders
    /// emit.
    fn round_trip<T>(value: &T)
    where
        T: FromJsonText + AsView + PartialEq + core::fmt::Debug,
        for<'a> T::View<'a>: crate::json::Encode,
    {
        let text = to_string(&value.view()).unwrap();
        assert_eq!(&T::from_json_text(&text).unwrap(), value, "{text}");
    }

    #[test]
    fn owned_values_round_trip_through_their_wire_shape() {
        let mut r = OwnedResource::new("file:///a b.md", "a\"b");
        r.annotations = Some(OwnedAnnotations {
            audience: vec![Role::User, Role::Assistant],
            priority: None,
            last_modified: Some("2026-01-01T00:00:00Z".into()),
        });
        r.size = Some(12);
        r.icons = vec![OwnedIcon {
            src: "https://x/i.png".into(),
            mime_type: Some("image/png".into()),
            sizes: vec!["48x48".into()],
            theme: None,
        }];
        r.meta = Some(OwnedJson::parse(r#"{"k":[1,2]}"#).unwrap());
        round_trip(&r);
        let mut t = OwnedResourceTemplate::new("repo://{owner}/{repo}", "repo");
        t.mime_type = Some("text/markdown".into());
        round_trip(&t);
        round_trip(&OwnedResourceContents::blob(
            "x:b",
            Some("a/b"),
            b"\x00\x01",
        ));
        round_trip(&OwnedSubscriptionFilter {
            resources_list_changed: Some(true),
            resource_subscriptions: Some(vec!["file:///a".into()]),
            ..OwnedSubscriptionFilter::default()
        });
        round_trip(&OwnedGetPromptResult {
            description: Some("d".into()),
            messages: vec![
                OwnedPromptMessage {
                    role: Role::User,
                    content: OwnedContentBlock::Resource {
                        resource: OwnedResourceContents::text("kb://c", None, "charte"),
                        annotations: None,
                    },
                },
                OwnedPromptMessage {
                    role: Role::User,
                    content: OwnedContentBlock::Text {
                        text: "é\n\u{1F600}".into(),
                        annotations: None,
                    },
                },
            ],
            server_info: None,
        });
    }

    #[test]
    fn arrays_and_errors() {
        let v = Vec::<OwnedResourceContents>::from_json_text(
            r#" [{"uri":"a:1","text":"x"},{"uri":"a:2","blob":"AAE=","mimeType":"b/c"}] "#,
        )
        .unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(Vec::<OwnedResource>::from_json_text("[]").unwrap(), vec![]);
        // Not JSON → -32700; wrong shape → -32602 with the field; trailing text → -32700.
        assert_eq!(
            OwnedResource::from_json_text("{")
                .unwrap_err()
                .error_code()
                .0,
            -32700
        );
        let e = OwnedResourceContents::from_json_text(r#"{"uri":"a:1","text":"x","blob":"AA=="}"#)
            .unwrap_err();
        assert_eq!(e.error_code().0, -32602);
        assert_eq!(
            OwnedPrompt::from_json_text(r#"{"name":"p"} x"#)
                .unwrap_err()
                .error_code()
                .0,
            -32700
        );
        let e = Vec::<OwnedResource>::from_json_text(r#"[{"uri":"a:1","name":3}]"#).unwrap_err();
        assert!(
            matches!(e, DecodeError::Params(p) if p.field == "name"),
            "{e:?}"
        );
        // Input requests: only the spec's methods.
        let ok = OwnedInputRequiredResult::from_json_text(
            r#"{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}},"requestState":"s"}"#,
        )
        .unwrap();
        assert_eq!(ok.input_requests.len(), 1);
        assert_eq!(ok.request_state.as_deref(), Some("s"));
        let map = Vec::<(String, OwnedInputRequest)>::from_json_text(
            r#"{"a":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}},"b":{"method":"roots/list"}}"#,
        )
        .unwrap();
        assert_eq!(map.len(), 2);
        assert!(
            Vec::<(String, OwnedInputRequest)>::from_json_text(r#"{"r":{"method":"x/y"}}"#)
                .is_err()
        );
        assert_eq!(
            CacheHint::from_json_text(r#"{"ttlMs":5000,"cacheScope":"public","x":1}"#).unwrap(),
            CacheHint::public(5000)
        );
        assert_eq!(
            CacheHint::from_json_text(r#"{"cacheScope":"private","ttlMs":-3}"#).unwrap(),
            CacheHint::private(0)
        );
        assert!(CacheHint::from_json_text(r#"{"ttlMs":1}"#).is_err());
        assert!(CacheHint::from_json_text(r#"{"ttlMs":1,"cacheScope":"shared"}"#).is_err());
    }
}
