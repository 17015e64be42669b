//! Shaping the machine's answers for a 2025-11-25 client (docs/server-machine.md §"Legacy
//! sessions"): the same bytes the modern pipeline produced, rewritten where the two revisions
//! differ (spec 2025-11-25 schema; the 2026-07-28 changelog lists the differences).
//!
//! * results lose `resultType`, `ttlMs`, `cacheScope` and `_meta.io.modelcontextprotocol/serverInfo`
//!   (2025-11-25 has no such fields; `serverInfo` travels in the `InitializeResult`);
//! * an `input_required` result (no such thing in 2025-11-25) that was not bridged into
//!   server-to-client requests ([`super::bridge`]) becomes -32603;
//! * "Resource not found" (-32602 with `data.uri`) becomes -32002, the code 2025-11-25
//!   servers use (spec 2025-11-25, server/resources "Error Handling").
//!
//! Requests are rebuilt the other way ([`modern_request`]): the legacy params with the modern
//! `_meta` keys added, so every other rule runs through the modern code.

use alloc::vec::Vec;

use super::Era;
use crate::server::{Output, Server, Transmit};

use crate::error_code::ErrorCode;
use crate::json::{Encode, JsonKind, JsonSink, RawJson, Writer};
use crate::jsonrpc::Request;
use crate::messages::LoggingLevel;

type R = Result<(), crate::json::EncodeError>;

/// Keys of a modern result that a 2025-11-25 result does not have.
const DROPPED: &[&str] = &["resultType", "ttlMs", "cacheScope"];
/// The `_meta` key modern results carry `serverInfo` in.
const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// `_meta` keys the modern pipeline requires on every request.
const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// The `id` of a response as its JSON text, if `bytes` is one.
pub(crate) fn response_id(bytes: &[u8]) -> Option<alloc::string::String> {
    let id = RawJson::parse(bytes).ok()?.get("id")?;
    Some(alloc::string::String::from(id.as_text()))
}

/// `bytes` (one response the machine encoded) as a 2025-11-25 client expects it; `None` when
/// nothing changes (notifications, other errors, or bytes that are not a response).
pub(crate) fn legacy_response(bytes: &[u8]) -> Option<Vec<u8>> {
    let msg = RawJson::parse(bytes).ok()?;
    let id = msg.get("id")?;
    if let Some(err) = msg.get("error") {
        let not_found = err
            .get("code")
            .and_then(|c| c.as_number())
            .and_then(|n| n.as_i64())
            == Some(i64::from(ErrorCode::INVALID_PARAMS.code()))
            && err
                .get("message")
                .and_then(|m| m.as_str())
                .is_some_and(|m| m.eq_str("Resource not found"));
        return not_found
            .then(|| encode(|w| error(w, id, err, ErrorCode::LEGACY_RESOURCE_NOT_FOUND)))?;
    }
    let result = msg.get("result")?;
    let input_required = result
        .get("resultType")
        .and_then(|t| t.as_str())
        .is_some_and(|t| t.eq_str("input_required"));
    if input_required {
        return encode(|w| {
            w.begin_object()?;
            w.key("jsonrpc")?;
            w.str("2.0")?;
            w.key("id")?;
            w.raw(id)?;
            w.key("error")?;
            w.begin_object()?;
            w.key("code")?;
            w.i64(i64::from(ErrorCode::INTERNAL_ERROR.code()))?;
            w.key("message")?;
            w.str("This request needs input from the client, which 2025-11-25 sessions cannot provide")?;
            w.end_object()?;
            w.end_object()
        });
    }
    encode(|w| {
        w.begin_object()?;
        w.key("jsonrpc")?;
        w.str("2.0")?;
        w.key("id")?;
        w.raw(id)?;
        w.key("result")?;
        legacy_result(w, result)?;
        w.end_object()
    })
}

fn error<S: JsonSink + ?Sized>(
    w: &mut Writer<'_, S>,
    id: RawJson<'_>,
    err: RawJson<'_>,
    code: ErrorCode,
) -> R {
    w.begin_object()?;
    w.key("jsonrpc")?;
    w.str("2.0")?;
    w.key("id")?;
    w.raw(id)?;
    w.key("error")?;
    w.begin_object()?;
    for (k, v) in err.object().into_iter().flatten() {
        w.json_key(k)?;
        if k.eq_str("code") {
            w.i64(i64::from(code.code()))?;
        } else {
            w.raw(v)?;
        }
    }
    w.end_object()?;
    w.end_object()
}

fn legacy_result<S: JsonSink + ?Sized>(w: &mut Writer<'_, S>, result: RawJson<'_>) -> R {
    w.begin_object()?;
    for (k, v) in result.object().into_iter().flatten() {
        if DROPPED.iter().any(|d| k.eq_str(d)) {
            continue;
        }
        if k.eq_str("_meta") {
            let keep = v
                .object()
                .into_iter()
                .flatten()
                .filter(|(mk, _)| !mk.eq_str(SERVER_INFO));
            let mut keep = keep.peekable();
            if keep.peek().is_none() {
                continue;
            }
            w.json_key(k)?;
            w.begin_object()?;
            for (mk, mv) in keep {
                w.json_key(mk)?;
                w.raw(mv)?;
            }
            w.end_object()?;
            continue;
        }
        if k.eq_str("structuredContent") && v.kind() != JsonKind::Object {
            continue;
        }
        w.json_key(k)?;
        if k.eq_str("tools")
            && let Some(tools) = v.array()
        {
            legacy_tools(w, tools)?;
        } else {
            w.raw(v)?;
        }
    }
    w.end_object()
}

/// A `tools/list` page for 2025-11-25, whose `Tool.outputSchema` must be `type: "object"`
/// (2026-07-28 allows any JSON Schema): a tool whose output schema is not an object schema
/// is listed without it (its `structuredContent`, not an object either, is dropped from
/// results above; the text content still carries the result).
fn legacy_tools<S: JsonSink + ?Sized>(
    w: &mut Writer<'_, S>,
    tools: crate::json::ArrayIter<'_>,
) -> R {
    w.begin_array()?;
    for tool in tools {
        let object_output = tool
            .get("outputSchema")
            .and_then(|o| o.get("type"))
            .and_then(|t| t.as_str())
            .is_some_and(|t| t.eq_str("object"));
        if object_output || tool.get("outputSchema").is_none() {
            w.raw(tool)?;
            continue;
        }
        w.begin_object()?;
        for (k, v) in tool.object().into_iter().flatten() {
            if !k.eq_str("outputSchema") {
                w.json_key(k)?;
                w.raw(v)?;
            }
        }
        w.end_object()?;
    }
    w.end_array()
}

fn encode(f: impl FnOnce(&mut Writer<'_, Vec<u8>>) -> R) -> Option<Vec<u8>> {
    let mut out: Vec<u8> = Vec::with_capacity(256);
    let mut w = Writer::new(&mut out);
    f(&mut w).ok()?;
    Some(out)
}

/// The legacy request `r` as the modern pipeline reads it: `params._meta` gains
/// `protocolVersion` = `version`, `clientCapabilities` = `caps` (what the client declared
/// once, at `initialize`, in the modern form) and `logLevel` = the session's level (every
/// level before `logging/setLevel`), keeping every other key the client sent
/// (`progressToken`, …).
pub(crate) fn modern_request(
    r: &Request<'_>,
    version: &str,
    caps: &str,
    level: Option<LoggingLevel>,
) -> Option<Vec<u8>> {
    encode(|w| {
        w.begin_object()?;
        w.key("jsonrpc")?;
        w.str("2.0")?;
        w.key("id")?;
        r.id.encode(w)?;
        w.key("method")?;
        w.json_str(r.method.json_name())?;
        w.key("params")?;
        w.begin_object()?;
        w.key("_meta")?;
        w.begin_object()?;
        w.key(PROTOCOL_VERSION)?;
        w.str(version)?;
        w.key(CLIENT_CAPABILITIES)?;
        let caps = RawJson::parse(caps.as_bytes()).map_err(|_| {
            crate::json::EncodeError::InvalidValue {
                what: &"clientCapabilities",
            }
        })?;
        w.raw(caps)?;
        w.key(LOG_LEVEL)?;
        w.str(level.unwrap_or(LoggingLevel::Debug).as_str())?;
        let params = r.params.and_then(|p| p.object());
        let meta = r
            .params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.object());
        for (k, v) in meta.into_iter().flatten() {
            if k.eq_str(PROTOCOL_VERSION) || k.eq_str(CLIENT_CAPABILITIES) || k.eq_str(LOG_LEVEL) {
                continue;
            }
            w.json_key(k)?;
            w.raw(v)?;
        }
        w.end_object()?;
        for (k, v) in params.into_iter().flatten() {
            if k.eq_str("_meta") {
                continue;
            }
            w.json_key(k)?;
            w.raw(v)?;
        }
        w.end_object()?;
        w.end_object()
    })
}

impl Server {
    /// An output on its way to the host: answers on a legacy stream are reshaped for
    /// 2025-11-25 (and an HTTP POST stream is forgotten once its answer is out).
    pub(crate) fn legacy_shape(&mut self, out: Output) -> Output {
        match out {
            Output::Transmit(t) if self.legacy.is_legacy(t.stream) => {
                Output::Transmit(self.legacy_shape_transmit(t))
            }
            other => other,
        }
    }

    pub(crate) fn legacy_shape_transmit(&mut self, mut t: Transmit) -> Transmit {
        if !self.legacy.is_legacy(t.stream) {
            return t;
        }
        if !self.legacy.modern_ids.is_empty()
            && let Some(id) = response_id(&t.bytes)
            && self.legacy.modern_ids.take(&(t.stream, id))
        {
            return t;
        }
        if let Some(bytes) = legacy_response(&t.bytes) {
            t.bytes = bytes;
        }
        if matches!(self.legacy.streams.get(&t.stream), Some(Era::Post)) {
            // 2025-11-25 clients read JSON-RPC errors from a 200 response.
            t.http_status = 200;
            if t.end_of_stream {
                self.legacy.forget_post(t.stream);
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::Message;

    fn text(b: Option<Vec<u8>>) -> std::string::String {
        std::string::String::from_utf8(b.unwrap()).unwrap()
    }

    #[test]
    fn results_lose_modern_fields() {
        let modern = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","resources":[],"nextCursor":"c","ttlMs":5,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}}"#;
        assert_eq!(
            text(legacy_response(modern)),
            r#"{"jsonrpc":"2.0","id":1,"result":{"resources":[],"nextCursor":"c"}}"#
        );
        let other_meta = br#"{"jsonrpc":"2.0","id":"a","result":{"resultType":"complete","_meta":{"x":1,"io.modelcontextprotocol/serverInfo":{}}}}"#;
        assert_eq!(
            text(legacy_response(other_meta)),
            r#"{"jsonrpc":"2.0","id":"a","result":{"_meta":{"x":1}}}"#
        );
    }

    #[test]
    fn not_found_is_32002_other_errors_unchanged() {
        let nf = br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Resource not found","data":{"uri":"a://b"}}}"#;
        assert_eq!(
            text(legacy_response(nf)),
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"a://b"}}}"#
        );
        let other =
            br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid cursor"}}"#;
        assert!(legacy_response(other).is_none());
        let note = br#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"a://b"}}"#;
        assert!(legacy_response(note).is_none());
        let ir = br#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"input_required","inputRequests":{}}}"#;
        assert!(text(legacy_response(ir)).contains(r#""error":{"code":-32603"#));
    }

    #[test]
    fn requests_gain_modern_meta() {
        let bytes = br#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"a://b","_meta":{"progressToken":"p"}}}"#;
        let Ok(Message::Request(r)) = Message::decode(bytes) else {
            panic!()
        };
        assert_eq!(
            text(modern_request(&r, "2026-07-28", "{}", None)),
            r#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"debug","progressToken":"p"},"uri":"a://b"}}"#
        );
        let bare = br#"{"jsonrpc":"2.0","id":"x","method":"resources/list"}"#;
        let Ok(Message::Request(r)) = Message::decode(bare) else {
            panic!()
        };
        assert_eq!(
            text(modern_request(&r, "2026-07-28", "{}", None)),
            r#"{"jsonrpc":"2.0","id":"x","method":"resources/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"debug"}}}"#
        );
    }
}
