//! Footprint image 1 (no allocator): parse a resource template, expand it, compile it for
//! matching and match a URI against it, decode a `resources/read` request and encode its
//! result, all on the stack.
//! Inputs go through `black_box` so that nothing is folded at compile time.
#![no_std]
#![no_main]

use core::hint::black_box;

use cortex_m_rt::entry;
use mcp_context::json::{JsonStr, to_slice};
use mcp_context::jsonrpc::TypedResponse;
use mcp_context::messages::{
    CacheScope, Implementation, Outcome, ReadResourceRequest, ReadResourceResult, ResourceContents,
    ResultMeta, Seq, TextResourceContents,
};
use mcp_context::template::{Captures, MatchOptions, Pattern, Template, Value};
use mcp_context_footprint as _;

const TEMPLATE: &str = "sensor://{room}/{kind}/latest{?unit}";
const REQUEST: &[u8] = br#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"sensor://kitchen/temperature/latest?unit=C"}}"#;

fn run(request: &[u8], out: &mut [u8]) -> Option<usize> {
    // Expand the template to announce a URI.
    let template: Template<'_, 8> = Template::parse(black_box(TEMPLATE)).ok()?;
    let mut uri = [0u8; 96];
    let vars = [
        ("room", Value::Str("hall")),
        ("kind", Value::Str("humidity")),
        ("unit", Value::Str("%")),
    ];
    let n = template.expand_to_slice(&vars, &mut uri).ok()?;
    black_box(uri.get(..n)?);

    // Decode the read request and match its URI.
    let req = ReadResourceRequest::decode(request).ok()?;
    let mut scratch = [0u8; 128];
    let asked = req.params.uri.unescape_into(&mut scratch).ok()?;
    // The template parsed above, compiled for matching (not parsed a second time), into a
    // program sized for it: it takes 12 steps, 16 leave room (the default is 32).
    let pattern: Pattern<'_, 16> = Pattern::compile(&template, MatchOptions::new()).ok()?;
    let mut caps = Captures::<4>::new();
    pattern.matches(asked, &mut caps).ok()?;
    let room = caps.get("room")?.as_str()?;
    let kind = caps.get("kind")?.as_str()?;

    // Encode the result.
    let mut text = [0u8; 48];
    let t = {
        let mut len = 0;
        for part in [room.as_bytes(), b" ", kind.as_bytes(), b" 21.5"] {
            text.get_mut(len..len + part.len())?.copy_from_slice(part);
            len += part.len();
        }
        core::str::from_utf8(text.get(..len)?).ok()?
    };
    let contents = [ResourceContents::Text(TextResourceContents {
        uri: req.params.uri,
        mime_type: Some(JsonStr::new("text/plain")),
        text: JsonStr::new(t),
        meta: None,
    })];
    let mut result = ReadResourceResult::new(Seq::from_slice(&contents), 5_000, CacheScope::Public);
    result.meta = Some(ResultMeta::server_info(Implementation::new(
        "sensor", "0.1.0",
    )));
    let response = TypedResponse {
        id: req.id,
        result: Outcome::Complete(result),
    };
    to_slice(&response, out).ok()
}

#[entry]
fn main() -> ! {
    let mut out = [0u8; 512];
    let n = run(black_box(REQUEST), &mut out);
    black_box((n, &out));
    loop {
        cortex_m::asm::wfi();
    }
}
