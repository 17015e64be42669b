//! Every official example of the 2026-07-28 schema (tests/vectors/mcp/2026-07-28/examples)
//! and every JSON example of the spec digest (tests/vectors/mcp/digest) decodes into the
//! type its folder names, and re-encodes to JSON equal as a value. Re-encoded messages are
//! recorded for schema validation (tests/schema/validate_emitted.py).

mod common;

use mcp_context::error_code::ErrorCode;
use mcp_context::json::{RawJson, to_string};
use mcp_context::jsonrpc::{ErrorObject, FromJson, Message, Method};
use mcp_context::messages as m;
use std::path::{Path, PathBuf};

/// How a folder's instances were decoded.
#[derive(Clone, Copy, PartialEq, Debug)]
enum How {
    /// Into a typed view of this crate.
    Typed,
    /// Out of scope (tools, sampling, elicitation schemas, logging, progress): validated as
    /// JSON and classified by the envelope, or kept as a raw object.
    Generic,
}

type Decoded = Result<String, String>;
type Decoder = Box<dyn Fn(&[u8]) -> Decoded>;

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

macro_rules! view {
    ($t:ty) => {
        |b: &[u8]| -> Decoded {
            let v = RawJson::parse(b).map_err(err)?;
            to_string(&<$t>::from_json(v).map_err(err)?).map_err(err)
        }
    };
}

macro_rules! full {
    ($t:ty) => {
        |b: &[u8]| -> Decoded { to_string(&<$t>::decode(b).map_err(err)?).map_err(err) }
    };
}

/// As `full!` for a response whose result has a main sequence: `decode_into` with room to
/// spare and with one slot and 12 bytes of text (a longer sequence stays lazy, a longer
/// string escaped) answers as `decode` does.
macro_rules! full_into {
    ($t:ty) => {
        |b: &[u8]| -> Decoded {
            for (n, t) in [(64, 1 << 16), (1, 12)] {
                let (mut slots, mut text) = (vec![None; n], vec![0u8; t]);
                let stored = <$t>::decode_into(b, &mut slots, &mut text);
                if stored != <$t>::decode(b) {
                    return Err(format!("decode_into with {n} slots: {stored:?}"));
                }
            }
            to_string(&<$t>::decode(b).map_err(err)?).map_err(err)
        }
    };
}

fn content(tag: &'static str) -> fn(&[u8]) -> Decoded {
    macro_rules! block {
        ($tag:literal) => {
            |b: &[u8]| -> Decoded {
                let v = m::ContentBlock::from_json(RawJson::parse(b).map_err(err)?).map_err(err)?;
                if v.type_name() != $tag {
                    return Err(format!("decoded as {}", v.type_name()));
                }
                to_string(&v).map_err(err)
            }
        };
    }
    match tag {
        "text" => block!("text"),
        "image" => block!("image"),
        "audio" => block!("audio"),
        "resource_link" => block!("resource_link"),
        _ => block!("resource"),
    }
}

fn contents(text: bool) -> fn(&[u8]) -> Decoded {
    if text {
        |b| match m::ResourceContents::from_json(RawJson::parse(b).map_err(err)?).map_err(err)? {
            v @ m::ResourceContents::Text(_) => to_string(&v).map_err(err),
            _ => Err("not text".into()),
        }
    } else {
        |b| match m::ResourceContents::from_json(RawJson::parse(b).map_err(err)?).map_err(err)? {
            v @ m::ResourceContents::Blob(_) => to_string(&v).map_err(err),
            _ => Err("not blob".into()),
        }
    }
}

/// An error response whose typed `data` (if any) is re-encoded from the typed view.
fn error_response(code: Option<i32>) -> impl Fn(&[u8]) -> Decoded {
    move |b| match Message::decode(b).map_err(err)? {
        Message::Error(mut e) => {
            if code.is_some_and(|c| e.error.code != ErrorCode(c)) {
                return Err(format!("code {}", e.error.code));
            }
            e.error.data = e.error.details().map_err(err)?;
            to_string(&e).map_err(err)
        }
        other => Err(format!("not an error response: {other:?}")),
    }
}

fn error_object(code: i32) -> impl Fn(&[u8]) -> Decoded {
    move |b| {
        let e = ErrorObject::decode(RawJson::parse(b).map_err(err)?).map_err(err)?;
        if e.code != ErrorCode(code) {
            return Err(format!("code {}", e.code));
        }
        to_string(&e).map_err(err)
    }
}

fn input_request(method: Method<'static>) -> impl Fn(&[u8]) -> Decoded {
    move |b| {
        let r = m::InputRequest::from_json(RawJson::parse(b).map_err(err)?).map_err(err)?;
        if r.method != method {
            return Err(format!("method {}", r.method));
        }
        to_string(&r).map_err(err)
    }
}

/// Generic: a JSON-RPC message of the given method, re-encoded from the envelope.
fn envelope(method: Option<Method<'static>>) -> impl Fn(&[u8]) -> Decoded {
    move |b| {
        let msg = Message::decode(b).map_err(err)?;
        let got = match msg {
            Message::Request(r) => Some(r.method),
            Message::Notification(n) => Some(n.method),
            _ => None,
        };
        if got != method {
            return Err(format!("method {got:?}"));
        }
        to_string(&msg).map_err(err)
    }
}

fn raw_object(b: &[u8]) -> Decoded {
    let v = RawJson::parse(b).map_err(err)?;
    if v.object().is_none() {
        return Err("not an object".into());
    }
    to_string(&v).map_err(err)
}

fn decoder(folder: &str) -> Option<(How, Decoder)> {
    use How::{Generic, Typed};
    let typed = |f: Decoder| Some((Typed, f));
    match folder {
        "DiscoverRequest" => typed(Box::new(full!(m::DiscoverRequest<'_>))),
        "DiscoverResultResponse" => typed(Box::new(full!(m::DiscoverResultResponse<'_>))),
        "ListResourcesRequest" => typed(Box::new(full!(m::ListResourcesRequest<'_>))),
        "ListResourcesResultResponse" => {
            typed(Box::new(full_into!(m::ListResourcesResultResponse<'_>)))
        }
        "ListResourceTemplatesRequest" => {
            typed(Box::new(full!(m::ListResourceTemplatesRequest<'_>)))
        }
        "ListResourceTemplatesResultResponse" => typed(Box::new(full_into!(
            m::ListResourceTemplatesResultResponse<'_>
        ))),
        "ReadResourceRequest" => typed(Box::new(full!(m::ReadResourceRequest<'_>))),
        "ReadResourceResultResponse" => {
            typed(Box::new(full_into!(m::ReadResourceResultResponse<'_>)))
        }
        "ListPromptsRequest" => typed(Box::new(full!(m::ListPromptsRequest<'_>))),
        "ListPromptsResultResponse" => {
            typed(Box::new(full_into!(m::ListPromptsResultResponse<'_>)))
        }
        "GetPromptRequest" => typed(Box::new(full!(m::GetPromptRequest<'_>))),
        "GetPromptResultResponse" => typed(Box::new(full_into!(m::GetPromptResultResponse<'_>))),
        "CompleteRequest" => typed(Box::new(full!(m::CompleteRequest<'_>))),
        "CompleteResultResponse" => typed(Box::new(full!(m::CompleteResultResponse<'_>))),
        "SubscriptionsListenRequest" => typed(Box::new(full!(m::SubscriptionsListenRequest<'_>))),
        "SubscriptionsListenResultResponse" => {
            typed(Box::new(full!(m::SubscriptionsListenResultResponse<'_>)))
        }
        "ListToolsRequest" => typed(Box::new(full!(m::ListToolsRequest<'_>))),
        "ListToolsResultResponse" => typed(Box::new(full_into!(m::ListToolsResultResponse<'_>))),
        "ResourceListChangedNotification" => {
            typed(Box::new(full!(m::ResourceListChangedNotification<'_>)))
        }
        "ResourceUpdatedNotification" => typed(Box::new(full!(m::ResourceUpdatedNotification<'_>))),
        "PromptListChangedNotification" => {
            typed(Box::new(full!(m::PromptListChangedNotification<'_>)))
        }
        "ToolListChangedNotification" => typed(Box::new(full!(m::ToolListChangedNotification<'_>))),
        "SubscriptionsAcknowledgedNotification" => typed(Box::new(full!(
            m::SubscriptionsAcknowledgedNotification<'_>
        ))),
        "CancelledNotification" => typed(Box::new(full!(m::CancelledNotification<'_>))),
        "SubscribeRequest" => typed(Box::new(full!(m::SubscribeRequest<'_>))),
        "UnsubscribeRequest" => typed(Box::new(full!(m::UnsubscribeRequest<'_>))),
        "JSONRPCErrorResponse" => typed(Box::new(error_response(None))),
        "HeaderMismatchError" => typed(Box::new(error_response(Some(-32020)))),
        "MissingRequiredClientCapabilityError" => typed(Box::new(error_response(Some(-32021)))),
        "UnsupportedProtocolVersionError" => typed(Box::new(error_response(Some(-32022)))),
        "ParseError" => typed(Box::new(error_object(-32700))),
        "InvalidParamsError" => typed(Box::new(error_object(-32602))),
        "MethodNotFoundError" => typed(Box::new(error_object(-32601))),
        "InternalError" => typed(Box::new(error_object(-32603))),
        "TextContent" => typed(Box::new(content("text"))),
        "ImageContent" => typed(Box::new(content("image"))),
        "AudioContent" => typed(Box::new(content("audio"))),
        "ResourceLink" => typed(Box::new(content("resource_link"))),
        "EmbeddedResource" => typed(Box::new(content("resource"))),
        "TextResourceContents" => typed(Box::new(contents(true))),
        "BlobResourceContents" => typed(Box::new(contents(false))),
        "Resource" => typed(Box::new(view!(m::Resource<'_>))),
        "ClientCapabilities" => typed(Box::new(view!(m::ClientCapabilities<'_>))),
        "ServerCapabilities" => typed(Box::new(view!(m::ServerCapabilities<'_>))),
        "CancelledNotificationParams" => typed(Box::new(view!(m::CancelledParams<'_>))),
        "ResourceUpdatedNotificationParams" => typed(Box::new(view!(m::ResourceUpdatedParams<'_>))),
        "CompleteRequestParams" => typed(Box::new(view!(m::CompleteParams<'_>))),
        "GetPromptRequestParams" => typed(Box::new(view!(m::GetPromptParams<'_>))),
        "PaginatedRequestParams" => typed(Box::new(view!(m::PaginatedParams<'_>))),
        "CompleteResult" => typed(Box::new(view!(m::CompleteResult<'_>))),
        "DiscoverResult" => typed(Box::new(view!(m::DiscoverResult<'_>))),
        "GetPromptResult" => typed(Box::new(view!(m::GetPromptResult<'_>))),
        "ReadResourceResult" => typed(Box::new(view!(m::ReadResourceResult<'_>))),
        "ListResourcesResult" => typed(Box::new(view!(m::ListResourcesResult<'_>))),
        "ListResourceTemplatesResult" => typed(Box::new(view!(m::ListResourceTemplatesResult<'_>))),
        "ListPromptsResult" => typed(Box::new(view!(m::ListPromptsResult<'_>))),
        "ListToolsResult" => typed(Box::new(view!(m::ListToolsResult<'_>))),
        "SubscriptionsListenResult" => typed(Box::new(view!(m::ListenResult<'_>))),
        "InputRequiredResult" => typed(Box::new(view!(m::InputRequiredResult<'_>))),
        "InputRequests" => typed(Box::new(view!(m::InputRequests<'_>))),
        "InputResponses" => typed(Box::new(view!(m::InputResponses<'_>))),
        "ElicitRequest" => typed(Box::new(input_request(Method::ElicitationCreate))),
        "CreateMessageRequest" => typed(Box::new(input_request(Method::SamplingCreateMessage))),
        "CallToolRequest" => Some((Generic, Box::new(envelope(Some(Method::ToolsCall))))),
        "CallToolResultResponse" => Some((Generic, Box::new(envelope(None)))),
        "LoggingMessageNotification" => {
            Some((Generic, Box::new(envelope(Some(Method::LogMessage)))))
        }
        "ProgressNotification" => Some((Generic, Box::new(envelope(Some(Method::Progress))))),
        "InitializeRequest" => Some((Generic, Box::new(envelope(Some(Method::Initialize))))),
        "BooleanSchema"
        | "CallToolRequestParams"
        | "CallToolResult"
        | "CreateMessageRequestParams"
        | "CreateMessageResult"
        | "ElicitRequestFormParams"
        | "ElicitRequestURLParams"
        | "ElicitResult"
        | "ListRootsRequest"
        | "ListRootsResult"
        | "LoggingMessageNotificationParams"
        | "ModelPreferences"
        | "NumberSchema"
        | "ProgressNotificationParams"
        | "Root"
        | "SamplingMessage"
        | "StringSchema"
        | "TitledMultiSelectEnumSchema"
        | "TitledSingleSelectEnumSchema"
        | "Tool"
        | "ToolResultContent"
        | "ToolUseContent"
        | "UntitledMultiSelectEnumSchema"
        | "UntitledSingleSelectEnumSchema"
        | "InitializeResult" => Some((Generic, Box::new(raw_object))),
        _ => None,
    }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    out.sort();
    out
}

/// Decodes and re-encodes every `<dir>/<Type>/*.json`; returns (typed, generic) counts.
fn run(dir: &Path, emit_prefix: Option<&str>) -> (usize, usize) {
    let (mut typed, mut generic, mut failures) = (0, 0, Vec::new());
    for folder in files(dir).into_iter().filter(|p| p.is_dir()) {
        let name = folder.file_name().unwrap().to_str().unwrap().to_owned();
        if name == "legacy-2025-11-25" {
            continue;
        }
        let Some((how, decode)) = decoder(&name) else {
            failures.push(format!("{name}: no decoder for this type"));
            continue;
        };
        for file in files(&folder)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
        {
            let bytes = std::fs::read(&file).unwrap();
            match decode(&bytes) {
                Ok(out) if common::same_json(&bytes, out.as_bytes()) => {
                    if how == How::Typed {
                        typed += 1;
                    } else {
                        generic += 1;
                    }
                    if let Some(prefix) = emit_prefix {
                        let stem = file.file_stem().unwrap().to_str().unwrap();
                        common::emit(&name, &format!("{prefix}-{stem}"), out.as_bytes());
                    }
                }
                Ok(out) => {
                    failures.push(format!("{}: re-encoded differs:\n  {out}", file.display()))
                }
                Err(e) => failures.push(format!("{}: {e}", file.display())),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    (typed, generic)
}

fn vectors() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/mcp")
}

#[test]
fn official_examples_decode_and_round_trip() {
    let (typed, generic) = run(&vectors().join("2026-07-28/examples"), Some("official"));
    println!(
        "official examples: {}/129 decoded and re-encoded equal ({typed} typed views, {generic} out of scope: envelope or raw object)",
        typed + generic
    );
    assert_eq!(typed + generic, 129);
}

#[test]
fn digest_examples_decode_and_round_trip() {
    let (typed, generic) = run(&vectors().join("digest"), Some("digest"));
    let (ltyped, lgeneric) = run(&vectors().join("digest/legacy-2025-11-25"), None);
    println!(
        "digest examples: {} modern ({typed} typed), {} legacy 2025-11-25 ({ltyped} typed)",
        typed + generic,
        ltyped + lgeneric
    );
    assert_eq!(typed + generic, 44);
    assert_eq!(ltyped + lgeneric, 6);
}
