//! The hot paths never allocate: parsing a borrowed `Template`, expanding into a
//! non-allocating `fmt::Write`, `expand_to_slice` and `expanded_len`, over templates of every
//! RFC 6570 level and every value kind.
//!
//! A counting global allocator (the `allocation-counter` crate) wraps the system allocator
//! and counts per thread, so nothing else running in the binary disturbs the count. A
//! positive control first shows that an allocation inside the measured region is counted.

use std::fmt;
use std::hint::black_box;

use mcp_context::template::{OwnedTemplate, Template, Value};

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

/// A `fmt::Write` into a fixed array: the non-allocating writer a `no_std` caller would use.
struct FixedWriter {
    buf: [u8; 256],
    len: usize,
}

impl fmt::Write for FixedWriter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let dst = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Templates of every level (RFC 6570 §1.2 and §3.2), plus non-ASCII literals and
/// pct-encoded triplets, and the MCP issue template.
const TEMPLATES: &[&str] = &[
    // level 1
    "{var}",
    "{hello}",
    "repo://{owner}/{repo}/issues/{number}",
    // level 2
    "{+path}/here",
    "here?ref={+path}",
    "X{#var}",
    "{+hello}",
    // level 3
    "map?{x,y}",
    "{x,hello,y}",
    "{+x,hello,y}",
    "{#x,hello,y}",
    "X{.x,y}",
    "{/var,x}/here",
    "{;x,y,empty}",
    "{?x,y,empty}",
    "?fixed=yes{&x}",
    // level 4
    "{var:3}",
    "{list}",
    "{list*}",
    "{keys}",
    "{keys*}",
    "{+path:6}/here",
    "{#keys*}",
    "X{.list*}",
    "{/list*,path:4}",
    "{;list,keys*}",
    "{?list*,keys}",
    "{&keys*}",
    "caf\u{e9}/%7E{hello:5}{?undef}",
    "repo://{owner}/{repo}/issues/{number}{?fields*}",
];

#[test]
fn hot_paths_do_not_allocate() {
    // Positive control: the counter sees an allocation made inside the region.
    let (s, control) = allocations(|| {
        let mut s = String::new();
        s.push_str("this needs the heap");
        s
    });
    assert_eq!(s, "this needs the heap");
    assert!(control >= 1, "the counting allocator missed a String push");

    let list = ["red", "green", "blue"];
    let keys = [("semi", ";"), ("dot", "."), ("comma", ",")];
    let fields = [("state", "open"), ("sort", "recent first")];
    let vars = [
        ("var", Value::Str("value")),
        ("hello", Value::Str("Hello World!")),
        ("path", Value::Str("/foo/bar")),
        ("empty", Value::Str("")),
        ("x", Value::Str("1024")),
        ("y", Value::Str("768")),
        ("list", Value::List(&list)),
        ("keys", Value::Assoc(&keys)),
        ("owner", Value::Str("acme")),
        ("repo", Value::Str("web app")),
        ("number", Value::Str("812")),
        ("fields", Value::Assoc(&fields)),
    ];

    let mut checked = 0;
    for &source in TEMPLATES {
        let (parsed, n) = allocations(|| Template::<16>::parse(black_box(source)));
        assert_eq!(n, 0, "parse allocated for {source:?}");
        let template = parsed.unwrap_or_else(|e| panic!("{source:?}: {e}"));

        let mut writer = FixedWriter {
            buf: [0; 256],
            len: 0,
        };
        let (result, n) = allocations(|| template.expand(&vars, &mut writer));
        assert_eq!(n, 0, "expand into fmt::Write allocated for {source:?}");
        assert_eq!(result, Ok(()), "{source:?}");
        assert!(writer.len > 0, "{source:?} expanded to nothing");

        let mut buf = [0u8; 256];
        let (written, n) = allocations(|| template.expand_to_slice(&vars, &mut buf));
        assert_eq!(n, 0, "expand_to_slice allocated for {source:?}");
        assert_eq!(written, Ok(writer.len), "{source:?}");
        assert_eq!(buf.get(..writer.len), writer.buf.get(..writer.len));

        let mut short = [0u8; 4];
        let (too_small, n) = allocations(|| template.expand_to_slice(&vars, &mut short));
        assert_eq!(n, 0, "a too-small expand_to_slice allocated for {source:?}");
        if writer.len > short.len() {
            assert!(too_small.is_err(), "{source:?}");
        }

        let (len, n) = allocations(|| template.as_ref().expanded_len(&vars));
        assert_eq!(n, 0, "expanded_len allocated for {source:?}");
        assert_eq!(len, Ok(writer.len), "{source:?}");

        // An owned template allocates when parsed, never when expanded.
        let owned = OwnedTemplate::parse(source).unwrap_or_else(|e| panic!("{source:?}: {e}"));
        let (written, n) = allocations(|| owned.as_ref().expand_to_slice(&vars, &mut buf));
        assert_eq!(
            n, 0,
            "OwnedTemplate expand_to_slice allocated for {source:?}"
        );
        assert_eq!(written, Ok(writer.len), "{source:?}");
        checked += 1;
    }
    assert_eq!(checked, TEMPLATES.len());
}
