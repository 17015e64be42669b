//! Encoding what the client sends: requests of both eras (docs/rules.md §1.1, §17.1), the MRTR
//! retry fields (docs/rules.md §13), the two client notifications, and the answers a legacy
//! session owes the server's own requests (docs/rules.md §17.2 item 6).
//!
//! Sub-objects reuse the message layer's encoders ([`RequestMeta`], [`Reference`],
//! [`SubscriptionFilter`](crate::messages::SubscriptionFilter), [`CancelledParams`]); only the
//! params objects are assembled here, because a legacy request has no `_meta` and a retry
//! echoes `requestState` as the exact JSON token the server sent.

use alloc::string::String;
use alloc::vec::Vec;

use super::call::{CompletionRef, Retry, Spec};
use crate::json::{Encode, EncodeError, JsonSink, JsonStr, RawJson, Writer, to_string};
use crate::jsonrpc::{ErrorObject, ErrorResponse, RequestId, Response, TypedNotification};
use crate::messages::owned::AsView;
use crate::messages::{
    CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, CancelledParams, ClientCapabilities, Implementation,
    PROTOCOL_VERSION_KEY, Reference, RequestMeta,
};

type Enc = Result<(), EncodeError>;

/// The per-request `_meta` of a modern request; `None` in a legacy session.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Meta<'a> {
    pub(crate) version: &'a str,
    pub(crate) capabilities: ClientCapabilities<'a>,
    pub(crate) client_info: Option<Implementation<'a>>,
}

impl<'a> Meta<'a> {
    fn view(&self) -> RequestMeta<'a> {
        RequestMeta {
            client_info: self.client_info,
            ..RequestMeta::new(self.version, self.capabilities)
        }
    }
}

/// The params of one outgoing request.
#[derive(Debug, Clone, Copy)]
#[allow(clippy::large_enum_variant)] // short-lived, built on the stack per request
pub(crate) enum Body<'a> {
    /// A host call, with its MRTR retry data if any.
    Call(&'a Spec, Option<&'a Retry>),
    /// Legacy `initialize` (docs/rules.md §17.1).
    Initialize {
        version: &'a str,
        capabilities: ClientCapabilities<'a>,
        client_info: Option<Implementation<'a>>,
    },
    /// Legacy `resources/subscribe`.
    Subscribe(&'a str),
    /// Legacy `resources/unsubscribe`.
    Unsubscribe(&'a str),
}

impl<'a> Body<'a> {
    pub(crate) fn method(&self) -> &'a str {
        match *self {
            Self::Call(spec, _) => spec.method_str(),
            Self::Initialize { .. } => "initialize",
            Self::Subscribe(_) => "resources/subscribe",
            Self::Unsubscribe(_) => "resources/unsubscribe",
        }
    }
}

struct Request<'a> {
    id: i64,
    body: Body<'a>,
    meta: Option<Meta<'a>>,
}

struct Pairs<'a>(&'a [(String, String)]);

impl Encode for Pairs<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        for (k, v) in self.0 {
            w.field(k, v.as_str())?;
        }
        w.end_object()
    }
}

fn retry_fields<S: JsonSink + ?Sized>(w: &mut Writer<'_, S>, retry: Option<&Retry>) -> Enc {
    let Some(retry) = retry else { return Ok(()) };
    if !retry.responses.is_empty() {
        w.key("inputResponses")?;
        w.begin_object()?;
        for (k, v) in &retry.responses {
            w.field(k, &v.as_raw())?;
        }
        w.end_object()?;
    }
    if let Some(token) = &retry.state_token {
        // The exact token received (validated JSON string), so the echo is byte-exact.
        w.field("requestState", &RawJson::from_validated(token))?;
    }
    Ok(())
}

impl Encode for Request<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.field("jsonrpc", "2.0")?;
        w.field("id", &RequestId::Int(self.id))?;
        w.field("method", self.body.method())?;
        let legacy_empty = self.meta.is_none()
            && matches!(self.body, Body::Call(Spec::List { cursor: None, .. }, _));
        if legacy_empty {
            return w.end_object();
        }
        w.key("params")?;
        w.begin_object()?;
        if let Body::Call(Spec::Custom { params, .. }, retry) = self.body {
            return custom_params(w, params.as_raw(), self.meta.as_ref(), retry);
        }
        if let Some(meta) = &self.meta {
            w.field("_meta", &meta.view())?;
        }
        match self.body {
            Body::Call(spec, retry) => match spec {
                Spec::Discover => {}
                Spec::List { cursor, .. } => w.opt_field("cursor", &cursor.as_deref())?,
                Spec::Read { uri } => {
                    w.field("uri", uri.as_str())?;
                    retry_fields(w, retry)?;
                }
                Spec::GetPrompt { name, arguments } => {
                    w.field("name", name.as_str())?;
                    if !arguments.is_empty() {
                        w.field("arguments", &Pairs(arguments))?;
                    }
                    retry_fields(w, retry)?;
                }
                Spec::Complete {
                    reference,
                    argument,
                    context,
                } => {
                    let reference = match reference {
                        CompletionRef::Prompt(name) => Reference::Prompt {
                            name: JsonStr::new(name),
                            title: None,
                        },
                        CompletionRef::Resource(uri) => Reference::Resource {
                            uri: JsonStr::new(uri),
                        },
                    };
                    w.field("ref", &reference)?;
                    w.key("argument")?;
                    w.begin_object()?;
                    w.field("name", argument.0.as_str())?;
                    w.field("value", argument.1.as_str())?;
                    w.end_object()?;
                    if let Some(args) = context {
                        w.key("context")?;
                        w.begin_object()?;
                        w.field("arguments", &Pairs(args))?;
                        w.end_object()?;
                    }
                }
                Spec::Listen { filter } => w.field("notifications", &filter.view())?,
                // Written by `custom_params` above.
                Spec::Custom { .. } => {}
            },
            Body::Initialize {
                version,
                capabilities,
                client_info,
            } => {
                w.field("protocolVersion", version)?;
                w.field("capabilities", &capabilities)?;
                let anonymous = Implementation::new("mcp-context", "0");
                w.field("clientInfo", &client_info.unwrap_or(anonymous))?;
            }
            Body::Subscribe(uri) | Body::Unsubscribe(uri) => w.field("uri", uri)?,
        }
        w.end_object()?;
        w.end_object()
    }
}

/// The params of a host's own method: the host's object as given, except `_meta` (the
/// machine's keys, then the host's other `_meta` keys) and the MRTR fields the machine owns
/// (`inputResponses`, `requestState`: written only from `retry`, so a stale pair the host
/// left in its params never leaks into another request).
fn custom_params<S: JsonSink + ?Sized>(
    w: &mut Writer<'_, S>,
    params: RawJson<'_>,
    meta: Option<&Meta<'_>>,
    retry: Option<&Retry>,
) -> Enc {
    let host_meta = params.get("_meta").filter(|m| m.object().is_some());
    if let Some(meta) = meta {
        w.key("_meta")?;
        w.begin_object()?;
        w.field(PROTOCOL_VERSION_KEY, meta.version)?;
        w.field(CLIENT_CAPABILITIES_KEY, &meta.capabilities)?;
        w.opt_field(CLIENT_INFO_KEY, &meta.client_info)?;
        for (k, v) in host_meta.and_then(|m| m.object()).into_iter().flatten() {
            if ![
                PROTOCOL_VERSION_KEY,
                CLIENT_CAPABILITIES_KEY,
                CLIENT_INFO_KEY,
            ]
            .iter()
            .any(|own| k.eq_str(own))
            {
                w.json_key(k)?;
                w.raw(v)?;
            }
        }
        w.end_object()?;
    } else if let Some(m) = host_meta {
        w.field("_meta", &m)?;
    }
    for (k, v) in params.object().into_iter().flatten() {
        if !(k.eq_str("_meta") || k.eq_str("inputResponses") || k.eq_str("requestState")) {
            w.json_key(k)?;
            w.raw(v)?;
        }
    }
    retry_fields(w, retry)?;
    w.end_object()?;
    w.end_object()
}

/// A request with integer id `id`; `meta` is `None` in a legacy session.
pub(crate) fn request<'a>(
    id: i64,
    body: Body<'a>,
    meta: Option<Meta<'a>>,
) -> Result<Vec<u8>, EncodeError> {
    to_string(&Request { id, body, meta }).map(String::into_bytes)
}

/// `notifications/cancelled` for our request `id` (docs/rules.md §11.4, §12).
pub(crate) fn cancelled(id: i64, reason: Option<&str>) -> Result<Vec<u8>, EncodeError> {
    let n = TypedNotification {
        params: CancelledParams {
            meta: None,
            request_id: RequestId::Int(id),
            reason: reason.map(JsonStr::new),
        },
    };
    to_string(&n).map(String::into_bytes)
}

/// Legacy `notifications/initialized` (docs/rules.md §17.2).
pub(crate) fn initialized() -> Vec<u8> {
    Vec::from(&br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#[..])
}

/// `{}` answering a legacy server's `ping`.
pub(crate) fn empty_result(id: RequestId<'_>) -> Result<Vec<u8>, EncodeError> {
    let r = Response {
        id,
        result: RawJson::EMPTY_OBJECT,
    };
    to_string(&r).map(String::into_bytes)
}

/// `-32601` answering a legacy server's request the client does not serve.
pub(crate) fn method_not_found(id: RequestId<'_>) -> Result<Vec<u8>, EncodeError> {
    let r = ErrorResponse {
        id: Some(id),
        error: ErrorObject::new(
            crate::error_code::ErrorCode::METHOD_NOT_FOUND,
            "Method not found",
        ),
    };
    to_string(&r).map(String::into_bytes)
}
