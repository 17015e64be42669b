//! Proof that `mcp-context` works in a `#![no_std]` crate without `alloc`: this crate has its
//! own panic handler, so linking `std` anywhere in the graph is a duplicate `panic_impl`
//! (E0152). `./test.sh` builds it as is (must pass) and with `--features pull-std` (must fail).
#![no_std]
#![deny(unsafe_code)]
#![deny(missing_docs)]

use mcp_context::template::{ExpandError, ParseError, Template, Value};

/// The resource template the proof parses and expands (RFC 6570 levels 1 and 4).
pub const TEMPLATE: &str = "repo://{owner}/{repo}/issues/{number}{?fields*}";

/// Why [`issue_uri`] failed.
#[derive(Debug, Clone, Copy)]
pub enum Error {
    /// The template did not parse.
    Parse(ParseError),
    /// The expansion did not fit or was invalid.
    Expand(ExpandError),
}

/// Parses [`TEMPLATE`] on the stack and expands it into `buf`; returns the length written.
///
/// # Errors
/// A parse error, or `BufferTooSmall` when `buf` is short.
pub fn issue_uri(owner: &str, repo: &str, number: &str, buf: &mut [u8]) -> Result<usize, Error> {
    let template: Template<'_, 8> = Template::parse(TEMPLATE).map_err(Error::Parse)?;
    let fields = [("state", "open"), ("sort", "recent first")];
    let vars = [
        ("owner", Value::Str(owner)),
        ("repo", Value::Str(repo)),
        ("number", Value::Str(number)),
        ("fields", Value::Assoc(&fields)),
    ];
    template.expand_to_slice(&vars, buf).map_err(Error::Expand)
}

/// Same expansion into a `core::fmt::Write` that writes into a fixed buffer.
///
/// # Errors
/// As [`issue_uri`].
pub fn issue_uri_fmt(owner: &str, buf: &mut [u8]) -> Result<usize, Error> {
    struct Fixed<'b> {
        buf: &'b mut [u8],
        len: usize,
    }
    impl core::fmt::Write for Fixed<'_> {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            let end = self.len + s.len();
            let dst = self.buf.get_mut(self.len..end).ok_or(core::fmt::Error)?;
            dst.copy_from_slice(s.as_bytes());
            self.len = end;
            Ok(())
        }
    }
    let template: Template<'_, 8> = Template::parse(TEMPLATE).map_err(Error::Parse)?;
    let mut out = Fixed { buf, len: 0 };
    template
        .expand(
            &[("owner", owner), ("repo", "web"), ("number", "1")],
            &mut out,
        )
        .map_err(Error::Expand)?;
    Ok(out.len)
}

/// C entry point for the `cdylib` link check: expands into `buf` and returns the length, or
/// 0 on error. Exported unmangled so the linker must keep it and everything it calls.
#[allow(
    unsafe_code,
    reason = "`no_mangle` export for the link check; no unsafe operation"
)]
#[unsafe(no_mangle)]
pub extern "C" fn mcp_context_nostd_check(buf: &mut [u8; 128]) -> usize {
    issue_uri("acme", "web app", "812", buf).unwrap_or(0)
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}
