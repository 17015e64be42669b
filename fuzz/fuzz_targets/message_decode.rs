//! Fuzz target: arbitrary bytes through every message decoder of `mcp_context` (envelope,
//! request/notification dispatch, every result view, content blocks, capabilities, `_meta`).
//! Beyond "never panics", each successful decode must re-encode, decode again and re-encode
//! to the same bytes (the oracle lives in `core/tests/common/decode_all.rs`, shared with the
//! property tests).
//!
//! Wiring (fuzz/Cargo.toml, owned by the fuzz setup): a `[[bin]] name = "message_decode"`,
//! `path = "fuzz_targets/message_decode.rs"`, with dependencies `libfuzzer-sys` and
//! `mcp-context` (default features: `alloc`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../core/tests/common/decode_all.rs"]
mod decode_all;

fuzz_target!(|data: &[u8]| {
    decode_all::decode_all(data);
});
