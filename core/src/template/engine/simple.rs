//! The compact form of a simple path (`Layout::simple_path`): literal, value, literal …
//! without give-back or optional values, as the router runs it (docs/matching.md §2). Wide
//! targets compare short literals as one masked word; compact ones go byte by byte; both give
//! what [`super::run_seq`] gives on the path.

use super::super::captures::{self, Shape, Slot};
use super::super::compile::{NO_SLOT, Step};
use super::super::norm;

/// Runs the compact form of a simple path (`Layout::simple_path`) from `pos`, the first
/// op's literal starting `skip` bytes in: the same result as `run_seq` on the path, without
/// give-back or optional values to consider.
#[cfg(any(target_pointer_width = "64", target_family = "wasm"))]
#[inline(always)]
pub(crate) fn run_simple(
    source: &str,
    ops: &[Step],
    b: &[u8],
    pos: usize,
    skip: u32,
    caps: &mut [Slot],
) -> Option<usize> {
    run_simple_wide(source.as_bytes(), ops, b, pos, skip, caps)
}

/// Runs the compact form of a simple path (see the wide [`run_simple`]).
#[cfg(not(any(target_pointer_width = "64", target_family = "wasm")))]
#[inline]
pub(crate) fn run_simple(
    source: &str,
    ops: &[Step],
    b: &[u8],
    pos: usize,
    skip: u32,
    caps: &mut [Slot],
) -> Option<usize> {
    run_simple_compact(source, ops, b, pos, skip, caps)
}

/// [`run_simple`] op by op, byte by byte: what compact targets run (and the tests compare
/// [`run_simple_wide`] with).
#[cfg_attr(
    all(
        not(all(test, feature = "alloc")),
        any(target_pointer_width = "64", target_family = "wasm")
    ),
    allow(dead_code)
)]
#[inline]
fn run_simple_compact(
    source: &str,
    ops: &[Step],
    b: &[u8],
    mut pos: usize,
    mut skip: u32,
    caps: &mut [Slot],
) -> Option<usize> {
    let src = source.as_bytes();
    for op in ops {
        let Step::Seg(s) = *op else {
            return None;
        };
        let lit = src.get((s.lit.start + skip) as usize..s.lit.end as usize)?;
        skip = 0;
        pos = norm::match_forward(lit, b, pos)?;
        pos = value(s.slot, b, pos, caps)?;
    }
    Some(pos)
}

#[cfg(any(target_pointer_width = "64", target_family = "wasm"))]
/// `MASKS[n]` keeps the low `n` bytes of a word.
const MASKS: [u64; 9] = [
    0,
    0xFF,
    0xFFFF,
    0xFF_FFFF,
    0xFFFF_FFFF,
    0xFF_FFFF_FFFF,
    0xFFFF_FFFF_FFFF,
    0xFF_FFFF_FFFF_FFFF,
    u64::MAX,
];

#[cfg(any(target_pointer_width = "64", target_family = "wasm"))]
/// [`run_simple`] on wide targets ([`crate::WIDE`]): the same answer as
/// [`run_simple_compact`], the first op (the one entered `skip` bytes in) peeled off.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn run_simple_wide(
    src: &[u8],
    ops: &[Step],
    b: &[u8],
    mut pos: usize,
    skip: u32,
    caps: &mut [Slot],
) -> Option<usize> {
    let Some((first, rest)) = ops.split_first() else {
        return Some(pos);
    };
    pos = seg_wide(src, first, b, pos, skip, caps)?;
    for op in rest {
        pos = seg_wide(src, op, b, pos, 0, caps)?;
    }
    Some(pos)
}

#[cfg(any(target_pointer_width = "64", target_family = "wasm"))]
/// One op of [`run_simple`] on wide targets, its literal from byte `skip`: a literal of at
/// most eight bytes is compared as one masked word against its `head` when eight URI bytes
/// are there to read, else (and when the bytes differ) as `match_forward` does.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn seg_wide(
    src: &[u8],
    op: &Step,
    b: &[u8],
    mut pos: usize,
    skip: u32,
    caps: &mut [Slot],
) -> Option<usize> {
    let Step::Seg(s) = *op else {
        return None;
    };
    // `head` holds the whole literal when it has at most eight bytes.
    let len = s.lit.end.wrapping_sub(s.lit.start);
    let n = len.wrapping_sub(skip) as usize;
    let mask = if len <= 8 { MASKS.get(n) } else { None };
    let head = u64::from_le_bytes(s.head)
        .checked_shr(8 * skip)
        .unwrap_or(0);
    let at = b.get(pos..).and_then(<[u8]>::first_chunk::<8>);
    pos = match (mask, at) {
        (Some(&m), Some(w)) if (u64::from_le_bytes(*w) ^ head) & m == 0 => pos + n,
        _ => {
            let lit = src.get((s.lit.start + skip) as usize..s.lit.end as usize)?;
            norm::match_forward(lit, b, pos)?
        }
    };
    value(s.slot, b, pos, caps)
}

/// The op's value after its literal (none when `slot` is `NO_SLOT`): a non-empty run of
/// unreserved bytes or pct-triplets, captured whole; returns where it ends.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn value(slot: u16, b: &[u8], pos: usize, caps: &mut [Slot]) -> Option<usize> {
    if slot == NO_SLOT {
        return Some(pos);
    }
    let end = norm::run(b, pos, norm::C_U)?;
    if end == pos {
        return None;
    }
    captures::set(caps, slot, pos, end, Shape::One);
    Some(end)
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use crate::template::Template;
    use crate::template::compile::{self, MatchOptions};
    use crate::template::engine::run_seq;
    use crate::template::matcher::VecProgram;
    use proptest::prelude::*;
    use std::string::String;

    const LITS: &[&str] = &[
        "/",
        "/x/",
        "repos/",
        "/issues/",
        ".json",
        "a",
        "-",
        "~",
        ":",
        "@",
        "s://",
        "/abcdefgh/",
        "/abcdefghijklm/",
        "ab",
        "/a/b/c",
        "x:",
        ",",
    ];
    const URI_BITS: &[&str] = &[
        "a",
        "Z",
        "9",
        "-",
        ".",
        "_",
        "~",
        "/",
        "%41",
        "%7e",
        "%7E",
        "%2F",
        "%",
        "%4",
        "\u{e9}",
        "?",
        "#",
        ":",
        "@",
        "repos",
        "issues",
        "x",
        "\0",
        "\u{7f}",
        "`",
        "{",
        "[",
        "^",
        "+",
        "abcdefghijk",
    ];

    /// Runs the compact path of `template` over `uri` from `pos` and `skip` three ways: the
    /// general engine on the path steps (only from the start), the byte-by-byte compact loop
    /// and the wide one. All must agree, captures included.
    fn agree(template: &str, uri: &str, pos: usize, skip: u32) {
        let Ok(t) = Template::<'_, 32>::parse(template) else {
            return;
        };
        let mut p = VecProgram::default();
        let Ok(layout) = compile::compile(t.as_ref(), MatchOptions::new(), &mut p) else {
            return;
        };
        if !layout.simple_path {
            return;
        }
        let ops = &p.steps[usize::from(layout.steps)..usize::from(layout.simple_end)];
        let b = uri.as_bytes();
        let mut compact = [Slot::default(); 16];
        let mut wide = [Slot::default(); 16];
        let c = run_simple_compact(template, ops, b, pos, skip, &mut compact);
        let w = run_simple_wide(template.as_bytes(), ops, b, pos, skip, &mut wide);
        assert_eq!(c, w, "{template} {uri:?} {pos} {skip}");
        if c.is_some() {
            assert_eq!(compact, wide, "{template} {uri:?}");
        }
        if pos == 0 && skip == 0 {
            let mut general = [Slot::default(); 16];
            let path = &p.steps[..usize::from(layout.path_end)];
            let g = run_seq(template, path, uri, 0, &mut general);
            assert_eq!(c, g, "{template} {uri:?}");
            if c.is_some() {
                assert_eq!(compact, general, "{template} {uri:?}");
            }
        }
    }

    fn template() -> impl Strategy<Value = String> {
        prop::collection::vec((prop::sample::select(LITS), any::<bool>()), 1..6).prop_map(|v| {
            let mut t = String::new();
            for (k, (lit, var)) in v.into_iter().enumerate() {
                t.push_str(lit);
                if var {
                    t.push_str(&std::format!("{{v{k}}}"));
                }
            }
            t
        })
    }

    fn uri() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(URI_BITS), 0..24).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// The compact loops agree with each other and with the general engine, on URIs
        /// built from pieces near every class boundary and on the template's own text with
        /// values put in.
        #[test]
        fn compact_paths_agree(t in template(), u in uri(), cut in 0usize..40, skip in 0u32..10) {
            agree(&t, &u, 0, 0);
            let filled = t.replace("{v", "").replace('}', "").replace(|c: char| c.is_ascii_digit(), "q");
            agree(&t, &filled, 0, 0);
            let mut mixed = t.clone();
            let at = (0..=cut.min(t.len())).rev().find(|&i| t.is_char_boundary(i)).unwrap_or(0);
            mixed.insert_str(at, &u);
            agree(&t, &mixed, 0, 0);
            for pos in [0, 1, cut % (u.len() + 1)] {
                agree(&t, &u, pos, skip);
                agree(&t, &filled, pos.min(filled.len()), skip);
            }
        }
    }
}
