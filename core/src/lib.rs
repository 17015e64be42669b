//! # mcp-context
//!
//! A `no_std`, allocation-aware, sans-IO core for the Model Context Protocol (MCP) revision
//! **2026-07-28**, limited to the context primitives: resources, resource templates
//! (RFC 6570), prompts, completion, subscriptions, cache hints, annotations, `server/discover`,
//! pagination and multi-round-trip results.
//!
//! ## The contract
//!
//! * **No I/O, no clock, no threads.** The crate never reads a socket, a file or the time.
//!   Every call that can start or expire a deadline takes `now_ms` as an argument.
//! * **`no_std` always.** The `alloc` feature (on by default) adds owned types; without it
//!   everything works on caller-owned, fixed-capacity storage. Error types implement
//!   `core::error::Error`.
//! * **No allocation on the hot paths**: template parse (borrowed form), expand, match and
//!   route never allocate, with or without `alloc`.
//! * **Panic policy: a panic is a bug.** No input, however hostile, makes this crate panic.
//!   Bad input yields a typed error; fixed capacities overflow into a typed error.
//!   `unsafe` code is forbidden.
//!
//! ## What it does not do
//!
//! Transports, runtimes, TLS, browsers and persistence belong to the host. The crate
//! gives bytes out and takes bytes in; the OAuth client flow ([`auth`]) asks the host to
//! fetch, to open the authorization URL and to store tokens.
//!
//! ## Quick start: resource templates
//!
//! ```
//! use mcp_context::template::{Template, Value};
//!
//! let t: Template<'_> = Template::parse("repo://{owner}/{repo}/issues/{number}").unwrap();
//! let mut out = String::new();
//! t.expand(&[("owner", Value::Str("acme")), ("repo", Value::Str("web app")),
//!            ("number", Value::Str("812"))][..], &mut out).unwrap();
//! assert_eq!(out, "repo://acme/web%20app/issues/812");
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::todo,
        clippy::unimplemented
    )
)]
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    warn(
        clippy::std_instead_of_core,
        clippy::std_instead_of_alloc,
        clippy::alloc_instead_of_core
    )
)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

#[cfg(feature = "alloc")]
pub mod auth;
pub mod base64;
pub mod cache;
#[cfg(feature = "alloc")]
pub mod client;
pub mod context;
pub mod error_code;
#[cfg(feature = "alloc")]
pub mod fleet;
pub mod http;
pub mod ident;
pub mod json;
pub mod jsonrpc;
pub mod messages;
pub mod observe;
pub mod pct;
pub mod server;
pub mod state;
#[cfg(feature = "alloc")]
pub mod stdio;
pub mod template;
pub mod uri;
#[cfg(feature = "alloc")]
mod wake;

/// Whether the speed forms that pay only on wide targets are compiled: the word-at-a-time
/// (SWAR) JSON scans, the in-place key match and the router's first-byte index, on 64-bit
/// and wasm targets. Other targets (32-bit microcontrollers, where flash is what counts) take
/// the compact forms; each compact form is the fallback the fast one already uses (and the
/// tests run it on every target), so results are identical by construction. The same
/// condition gates every `inline(always)` of the core (`cfg_attr(any(target_pointer_width =
/// "64", target_family = "wasm"), inline(always))`): forced inlining buys speed there and
/// costs flash on the compact targets, where the compiler chooses (server-read image .text
/// 3.5 KB smaller); a few `inline` hints are gated the same way, and a few small helpers are
/// kept out of line there instead (`cfg_attr(not(…), inline(never))`). `--cfg mcp_compact`
/// selects the compact forms on any target, so the tests can run them on the host:
/// `RUSTFLAGS="--cfg mcp_compact" cargo test -p mcp-context-primitives`.
pub(crate) const WIDE: bool = cfg!(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
));

/// `hay.contains(&byte)`. Where [`WIDE`]: eight bytes a step up to 32 bytes (core's
/// `memchr` reads short slices a byte at a time), core's word-at-a-time `memchr` beyond; a
/// byte loop elsewhere (a few bytes of code instead of `memchr` and its wrapper). The same
/// answer.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
pub(crate) fn has_byte(hay: &[u8], byte: u8) -> bool {
    if !WIDE {
        has_byte_by_bytes(hay, byte)
    } else if hay.len() > 32 {
        hay.contains(&byte)
    } else {
        has_byte_by_words(hay, byte)
    }
}

/// [`has_byte`] for short slices: each 8-byte word tested at once for the byte, the last
/// word overlapping the one before it (a slice under 8 bytes: a byte loop).
fn has_byte_by_words(hay: &[u8], byte: u8) -> bool {
    const LOW: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let spread = u64::from_le_bytes([byte; 8]);
    // Some byte of `w` is `byte` exactly when some byte of `w ^ spread` is zero.
    let holds = |w: &[u8; 8]| {
        let x = u64::from_le_bytes(*w) ^ spread;
        x.wrapping_sub(LOW) & !x & HIGH != 0
    };
    let Some(last) = hay.last_chunk::<8>() else {
        return has_byte_by_bytes(hay, byte);
    };
    hay.chunks_exact(8)
        .filter_map(<[u8]>::first_chunk::<8>)
        .any(holds)
        || holds(last)
}

/// [`has_byte`]'s compact form (deliberately not `contains`, which is `memchr`).
#[allow(clippy::manual_contains)]
fn has_byte_by_bytes(hay: &[u8], byte: u8) -> bool {
    hay.iter().any(|&c| c == byte)
}

#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;

#[cfg(test)]
mod tests {
    /// The forms of `has_byte` agree with `contains` (every length up to 40, every
    /// position, absent too; fillers and bytes next to where word tests borrow).
    #[test]
    fn has_byte_both_forms_agree() {
        for filler in [b'a', 0x00, 0x01, 0x7f, 0x80, 0xff] {
            let mut hay = [filler; 40];
            for len in 0..=hay.len() {
                for at in 0..=len {
                    if let Some(b) = hay.get_mut(at) {
                        *b = b'%';
                    }
                    let h = &hay[..len];
                    for byte in [b'%', b'$', b'a', b'\\', 0, 0x01, 0x80, 0xff] {
                        assert_eq!(super::has_byte_by_bytes(h, byte), h.contains(&byte));
                        assert_eq!(super::has_byte_by_words(h, byte), h.contains(&byte));
                        assert_eq!(super::has_byte(h, byte), h.contains(&byte));
                    }
                    if let Some(b) = hay.get_mut(at) {
                        *b = filler;
                    }
                }
            }
        }
    }
}
