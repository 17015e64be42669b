//! Decode one input every way the crate offers, and check the codec's own oracle on every
//! success: encoding what was decoded succeeds, decodes again, and re-encodes to the same
//! bytes; and the one-pass decode of a response (`decode_into`) answers as `decode` does,
//! with room to spare and with almost none. Shared by the property tests and the fuzz target
//! (fuzz/fuzz_targets).

use mcp_context::json::{RawJson, to_string};
use mcp_context::jsonrpc::{FromJson, Message, TypedResponse};
use mcp_context::messages as m;

/// `decode_into` of `$bytes` as a response of `$t` gives `decode`'s answer (the same view or
/// the same error, and the same bytes encoded back) with no room, with one slot and 9 bytes
/// of text, with one slot fewer than `$n` items, with `$n` and with room to spare.
macro_rules! same_into {
    ($t:ty, $bytes:expr, $n:expr) => {{
        let bytes: &[u8] = $bytes;
        let n: usize = $n;
        let rooms = [
            (0, 0),
            (1, 9),
            (n.saturating_sub(1), 9),
            (n, 40),
            (n + 3, bytes.len() + 16),
        ];
        for (k, t) in rooms {
            let (mut slots, mut text) = (vec![None; k], vec![0u8; t]);
            let lazy = TypedResponse::<$t>::decode(bytes);
            let stored = TypedResponse::<$t>::decode_into(bytes, &mut slots, &mut text);
            assert_eq!(
                stored, lazy,
                "decode_into with {k} slots and {t} bytes of text"
            );
            if let (Ok(s), Ok(l)) = (&stored, &lazy) {
                assert_eq!(to_string(s).unwrap(), to_string(l).unwrap());
            }
        }
    }};
}

/// Decodes `v` as the given view type; on success checks encode → decode → encode is
/// stable. Evaluates to whether `v` decoded.
macro_rules! roundtrip {
    ($t:ty, $v:expr) => {{
        match <$t as FromJson<'_>>::from_json($v) {
            Err(_) => false,
            Ok(view) => {
                let first = to_string(&view).expect("a decoded view encodes");
                let again = RawJson::parse(first.as_bytes()).expect("encoder output is valid JSON");
                let second = match <$t as FromJson<'_>>::from_json(again) {
                    Ok(view) => to_string(&view).expect("re-decoded view encodes"),
                    Err(e) => panic!("encoder output does not decode: {e}\n{first}"),
                };
                assert_eq!(first, second, "encoding is not stable");
                true
            }
        }
    }};
}

/// Every decoder, on one input. Returns how many decoders accepted it.
pub(crate) fn decode_all(bytes: &[u8]) -> usize {
    let mut hits = 0;
    same_into!(m::ListResourcesResult<'_>, bytes, 64);
    same_into!(m::Outcome<'_, m::ReadResourceResult<'_>>, bytes, 64);
    same_into!(m::Outcome<'_, m::GetPromptResult<'_>>, bytes, 64);
    if let Ok(msg) = Message::decode(bytes) {
        let text = to_string(&msg).expect("an envelope encodes");
        let again = Message::decode(text.as_bytes()).expect("envelope output decodes");
        assert_eq!(to_string(&again).expect("re-encodes"), text);
        hits += 1;
        match msg {
            Message::Request(r) => {
                if let Ok(req) = m::ClientRequest::from_request(&r) {
                    hits += 1;
                    let _ = (req.method(), req.meta());
                }
                if let Some(p) = r.params {
                    hits += usize::from(roundtrip!(m::ReadResourceParams<'_>, p))
                        + usize::from(roundtrip!(m::GetPromptParams<'_>, p))
                        + usize::from(roundtrip!(m::CompleteParams<'_>, p))
                        + usize::from(roundtrip!(m::ListenParams<'_>, p))
                        + usize::from(roundtrip!(m::PaginatedParams<'_>, p))
                        + usize::from(roundtrip!(m::DiscoverParams<'_>, p));
                }
            }
            Message::Notification(n) => {
                hits += usize::from(m::ServerNotification::from_notification(&n).is_ok());
                if let Some(p) = n.params {
                    hits += usize::from(roundtrip!(m::AcknowledgedParams<'_>, p))
                        + usize::from(roundtrip!(m::ResourceUpdatedParams<'_>, p))
                        + usize::from(roundtrip!(m::CancelledParams<'_>, p))
                        + usize::from(roundtrip!(m::ListChangedParams<'_>, p));
                }
            }
            Message::Response(r) => hits += results(r.result),
            Message::Error(e) => {
                if let Ok(details) = e.error.details() {
                    hits += 1;
                    let mut typed = e;
                    typed.error.data = details;
                    let text = to_string(&typed).expect("typed error encodes");
                    Message::decode(text.as_bytes()).expect("typed error output decodes");
                }
                let _ = e.error.is_resource_not_found();
            }
        }
    }
    if let Ok(v) = RawJson::parse(bytes) {
        hits += results(v)
            + usize::from(roundtrip!(m::ContentBlock<'_>, v))
            + usize::from(roundtrip!(m::ResourceContents<'_>, v))
            + usize::from(roundtrip!(m::Resource<'_>, v))
            + usize::from(roundtrip!(m::ResourceTemplate<'_>, v))
            + usize::from(roundtrip!(m::Prompt<'_>, v))
            + usize::from(roundtrip!(m::ClientCapabilities<'_>, v))
            + usize::from(roundtrip!(m::ServerCapabilities<'_>, v))
            + usize::from(roundtrip!(m::RequestMeta<'_>, v))
            + usize::from(roundtrip!(m::InputRequests<'_>, v));
    }
    hits
}

fn results(v: RawJson<'_>) -> usize {
    usize::from(roundtrip!(m::DiscoverResult<'_>, v))
        + usize::from(roundtrip!(m::ListResourcesResult<'_>, v))
        + usize::from(roundtrip!(m::ListResourceTemplatesResult<'_>, v))
        + usize::from(roundtrip!(m::ListPromptsResult<'_>, v))
        + usize::from(roundtrip!(m::ListToolsResult<'_>, v))
        + usize::from(roundtrip!(m::Outcome<'_, m::ReadResourceResult<'_>>, v))
        + usize::from(roundtrip!(m::Outcome<'_, m::GetPromptResult<'_>>, v))
        + usize::from(roundtrip!(m::CompleteResult<'_>, v))
        + usize::from(roundtrip!(m::ListenResult<'_>, v))
}
