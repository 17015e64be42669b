//! Decoding and encoding a `resources/read` request and its result allocate nothing: the
//! zero-copy views, lazy iteration, items kept in caller slots (`decode_into`),
//! scratch-buffer unescaping, and encoding into a caller's `&mut [u8]` (docs/rules.md §7
//! shapes).
//!
//! A counting global allocator (the `allocation-counter` crate) wraps the system allocator
//! and counts per thread. A positive control shows an allocation is counted.

use std::hint::black_box;

use mcp_context::json::{JsonStr, to_slice};
use mcp_context::jsonrpc::{Message, RequestId, TypedResponse};
use mcp_context::messages::{
    CacheScope, ClientCapabilities, Implementation, Outcome, ReadResourceParams,
    ReadResourceRequest, ReadResourceResult, ReadResourceResultResponse, RequestMeta,
    ResourceContents, ResultMeta, Seq, TextResourceContents,
};

/// Runs `f` and returns its result and the number of allocations it made on this thread
/// (the `allocation-counter` crate installs a counting global allocator for this test binary
/// and counts per thread, so tests running in parallel do not disturb the count).
fn allocations<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let mut result = None;
    let info = allocation_counter::measure(|| result = Some(black_box(f())));
    let result = result.expect("the measured closure ran");
    (
        result,
        usize::try_from(info.count_total).unwrap_or(usize::MAX),
    )
}

const REQUEST: &[u8] = br#"{"jsonrpc":"2.0","id":"read-1","method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},"uri":"file:\/\/\/project\/src\/main.rs"}}"#;

const RESULT: &[u8] = br#"{"jsonrpc":"2.0","id":"read-1","result":{"resultType":"complete","contents":[{"uri":"file:///project/src/main.rs","mimeType":"text/x-rust","text":"fn main() {\n    println!(\"Hello world!\");\n}"},{"uri":"file:///project/logo.png","mimeType":"image/png","blob":"iVBORw0KGgo="}],"ttlMs":60000,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"ExampleServer","version":"1.0.0"}}}}"#;

fn server_side(out: &mut [u8]) -> usize {
    // Decode the request, read its escaped uri through scratch.
    let req = ReadResourceRequest::decode(REQUEST).expect("valid request");
    let mut scratch = [0u8; 64];
    let uri = req.params.uri.unescape_into(&mut scratch).expect("fits");
    assert_eq!(uri, "file:///project/src/main.rs");
    assert!(req.params.meta.client_capabilities.elicitation_form());
    // Answer from borrowed data only.
    let contents = [ResourceContents::Text(TextResourceContents {
        uri: JsonStr::new("file:///project/src/main.rs"),
        mime_type: Some(JsonStr::new("text/x-rust")),
        text: JsonStr::new("fn main() {}\n"),
        meta: None,
    })];
    let mut result =
        ReadResourceResult::new(Seq::from_slice(&contents), 60_000, CacheScope::Private);
    result.meta = Some(ResultMeta::server_info(Implementation::new(
        "ExampleServer",
        "1.0.0",
    )));
    let response = TypedResponse { id: req.id, result };
    to_slice(&response, out).expect("fits")
}

fn client_side(out: &mut [u8]) -> usize {
    // Encode the request from borrowed data.
    let meta = RequestMeta::new("2026-07-28", ClientCapabilities::EMPTY);
    let req = ReadResourceRequest {
        id: RequestId::str("read-1"),
        params: ReadResourceParams::new(meta, "file:///project/src/main.rs"),
    };
    let n = to_slice(&req, out).expect("fits");
    // Decode the result and walk every item.
    let resp = ReadResourceResultResponse::decode(RESULT).expect("valid result");
    let Outcome::Complete(r) = resp.result else {
        panic!("complete")
    };
    let mut bytes = 0;
    for c in r.contents.iter() {
        bytes += c.uri().len();
        if let ResourceContents::Text(t) = c {
            bytes += t.text.chars().count();
        }
    }
    assert_eq!(
        (r.ttl(), r.cache_scope, bytes > 0),
        (60_000, Some(CacheScope::Private), true)
    );
    // The same result with its contents kept in slots and its text unescaped into a buffer,
    // both on the stack, while decoding.
    let (mut slots, mut text) = ([None; 4], [0u8; 256]);
    let stored =
        ReadResourceResultResponse::decode_into(RESULT, &mut slots, &mut text).expect("valid");
    assert_eq!(stored, resp);
    // Re-encode the decoded view, and classify a message generically.
    n + to_slice(&resp, &mut out[n..]).expect("fits")
        + usize::from(Message::decode(REQUEST).is_ok())
}

#[test]
fn resources_read_round_trip_allocates_nothing() {
    // Positive control: an allocation inside the region is counted.
    let (_, n) = allocations(|| black_box(Vec::<u8>::with_capacity(16)));
    assert!(n >= 1, "the counting allocator must see allocations");

    let mut buf = [0u8; 4096];
    let (len, n) = allocations(|| server_side(&mut buf));
    assert_eq!(
        n, 0,
        "server side: decode request + encode result allocated"
    );
    assert!(len > 0);
    let (len, n) = allocations(|| client_side(&mut buf));
    assert_eq!(
        n, 0,
        "client side: encode request + decode result allocated"
    );
    assert!(len > 0);
}
