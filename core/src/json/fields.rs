//! Crate-internal helper: walk an object's members once, matching keys against a fixed list
//! of known names, skipping unknown keys and refusing duplicates of known ones.

use super::string::JsonStr;
use super::value::{ObjectIter, RawJson};

/// A set of indices into a [`Keys`]' names, one bit each, in a register: 64 bits on
/// [`crate::WIDE`] targets, 32 elsewhere (where a 64-bit shift takes several instructions).
/// A [`Keys`] holds at most this many names (checked when it is built).
#[cfg(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
))]
pub(crate) type NameSet = u64;
/// See the wide targets' [`NameSet`].
#[cfg(not(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
)))]
pub(crate) type NameSet = u32;

/// The [`NameSet`] holding only index `i` (below `NameSet::BITS`, as every name index is).
pub(crate) const fn name_bit(i: usize) -> NameSet {
    1 << (i % NameSet::BITS as usize)
}

/// Members of one object, matched against `names` (at most `NameSet::BITS`).
pub(crate) struct Fields<'a> {
    iter: ObjectIter<'a>,
    names: &'static [&'static str],
    seen: NameSet,
}

impl<'a> Fields<'a> {
    /// `None` when `obj` is not an object.
    pub(crate) fn new(obj: RawJson<'a>, names: &'static [&'static str]) -> Option<Self> {
        Some(Self {
            iter: obj.object()?,
            names,
            seen: 0,
        })
    }

    /// The next known member as `(index into names, value)`.
    ///
    /// # Errors
    /// The name of a known key that appears twice.
    pub(crate) fn next_known(&mut self) -> Result<Option<(usize, RawJson<'a>)>, &'static str> {
        for (key, value) in self.iter.by_ref() {
            // Compact targets ([`crate::WIDE`]) look the key up as the cursor's key walk does
            // (the same index: `find` compares decoded text too).
            let found = if crate::WIDE {
                find(self.names, key)
            } else {
                find_index(self.names, key, false).and_then(|i| Some((i, *self.names.get(i)?)))
            };
            if let Some((i, name)) = found {
                let bit = name_bit(i);
                if self.seen & bit != 0 {
                    return Err(name);
                }
                self.seen |= bit;
                return Ok(Some((i, value)));
            }
        }
        Ok(None)
    }
}

#[inline]
pub(crate) fn find(
    names: &'static [&'static str],
    key: JsonStr<'_>,
) -> Option<(usize, &'static str)> {
    match key.as_str() {
        Some(k) => names
            .iter()
            .enumerate()
            .find(|(_, n)| **n == k)
            .map(|(i, n)| (i, *n)),
        None => names
            .iter()
            .enumerate()
            .find(|(_, n)| key.eq_str(n))
            .map(|(i, n)| (i, *n)),
    }
}

/// The index of the name `key` decodes to. When the cursor already compared the key in
/// place (`compared`), only a key with escapes is left to compare here; otherwise (a compact
/// target, [`crate::WIDE`], or a key too close to the end of the input) every key is.
// Inlined on compact targets ([`crate::WIDE`]): less flash than the call.
#[cfg_attr(
    not(any(target_pointer_width = "64", target_family = "wasm")),
    inline(always)
)]
pub(crate) fn find_index(names: &[&str], key: JsonStr<'_>, compared: bool) -> Option<usize> {
    if key.has_escapes() || !compared {
        names.iter().position(|n| key.eq_str(n))
    } else {
        None
    }
}

/// Known member names, each with the words the cursor compares it by in place: a key's
/// first eight source bytes after its opening quote (with the closing quote for a name
/// shorter than eight bytes) and, for a longer name, its last seven bytes and the closing
/// quote. Made by the crate's `keys!` macro, at compile time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Keys {
    /// The names, in the order a view indexes them.
    pub(crate) names: &'static [&'static str],
    /// One per name (empty where the in-place match is not compiled, [`crate::WIDE`]).
    pub(crate) words: &'static [KeyWord],
}

impl Keys {
    pub(crate) const fn new(names: &'static [&'static str], words: &'static [KeyWord]) -> Self {
        assert!(
            names.len() <= NameSet::BITS as usize
                && (words.is_empty() || words.len() == names.len()),
            "too many names or unpaired words"
        );
        Self { names, words }
    }
}

/// How one known name is compared in place (see [`Keys`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeyWord {
    /// The name's first bytes as source: `name"` padded with zeros, or its first eight.
    pub(crate) head: u64,
    /// Which bytes of `head` count.
    pub(crate) mask: u64,
    /// For a name of eight bytes or more: its last seven bytes and the closing quote.
    pub(crate) tail: u64,
    /// The name's length.
    pub(crate) len: usize,
}

impl KeyWord {
    /// The words of `name`, which must hold no byte JSON escapes (checked: a name that
    /// does fails the build, since `keys!` evaluates this in a `const`).
    pub(crate) const fn new(name: &str) -> Self {
        let b = name.as_bytes();
        let n = b.len();
        let mut rest = b;
        while let [c, tail @ ..] = rest {
            assert!(
                *c >= 0x20 && *c != b'"' && *c != b'\\',
                "a known key must need no escape"
            );
            rest = tail;
        }
        Self {
            head: word(b, 0),
            mask: if n >= 7 {
                u64::MAX
            } else {
                (1u64 << ((n + 1) * 8)) - 1
            },
            tail: if n >= 8 { word(b, n - 7) } else { 0 },
            len: n,
        }
    }
}

/// The eight bytes of `name"` (then zeros) from offset `from`, little-endian.
const fn word(name: &[u8], from: usize) -> u64 {
    let mut w = 0u64;
    let mut k = 0;
    while k < 8 {
        w |= (source_byte(name, from + k) as u64) << (8 * k);
        k += 1;
    }
    w
}

/// Byte `k` of `name"` (zero past the quote).
const fn source_byte(mut name: &[u8], mut k: usize) -> u8 {
    loop {
        match name {
            [c, rest @ ..] => {
                if k == 0 {
                    return *c;
                }
                k -= 1;
                name = rest;
            }
            [] => return if k == 0 { b'"' } else { 0 },
        }
    }
}

/// `keys!["a", "b", …]`: a `&'static Keys`, its words computed at compile time (none on
/// targets without the in-place match).
macro_rules! keys {
    ($($name:expr),* $(,)?) => {
        const {
            const NAMES: &[&str] = &[$($name),*];
            const WORDS: &[$crate::json::fields::KeyWord] = if $crate::WIDE {
                &[$($crate::json::fields::KeyWord::new($name)),*]
            } else {
                &[]
            };
            &$crate::json::fields::Keys::new(NAMES, WORDS)
        }
    };
}
pub(crate) use keys;

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::super::{Cursor, JsonStr, Limits};
    use super::Keys;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    const NAMES: &Keys = keys![
        "a",
        "id",
        "uri",
        "name",
        "title",
        "1234567",
        "mimeType",
        "12345678",
        "description",
        "lastModified",
        "123456789012345",
        "1234567890123456",
        "io.modelcontextprotocol/clientInfo",
        "io.modelcontextprotocol/clientCapabilities",
        "io.modelcontextprotocol/protocolVersion",
    ];

    /// The reference: the key's decoded text, looked up among the names.
    fn expected(key_json: &str) -> Option<usize> {
        let key = JsonStr::from_source(key_json, key_json.contains('\\'));
        NAMES.names.iter().position(|n| key.eq_str(n))
    }

    /// Keys close to every name: itself, shorter, longer, one byte changed, an escaped
    /// byte, and names sharing long prefixes or suffixes.
    fn variants() -> Vec<String> {
        let mut out = Vec::new();
        for n in NAMES.names {
            out.push(String::from(*n));
            out.push(format!("{n}x"));
            out.push(format!("x{n}"));
            if let Some(short) = n.get(..n.len() - 1) {
                out.push(String::from(short));
            }
            for (k, c) in n.char_indices() {
                let mut changed = String::from(*n);
                changed.replace_range(k..=k, if c == 'z' { "y" } else { "z" });
                out.push(changed);
                let mut escaped = String::from(n.get(..k).unwrap_or(""));
                escaped.push_str(&format!("\\u{:04x}", c as u32));
                escaped.push_str(n.get(k + 1..).unwrap_or(""));
                out.push(escaped);
            }
        }
        out.push(String::new());
        out.push(String::from("\\\"uri"));
        out
    }

    #[test]
    fn known_keys_match_as_their_decoded_text_does() {
        for key in variants() {
            // Far from the end (the in-place match) and at the very end (the scan).
            for doc in [
                format!("{{\"{key}\":1, \"padding\":\"0123456789abcdef\"}}"),
                format!("{{\"{key}\":1}}"),
                format!("{{ \"{key}\" : 1}}"),
            ] {
                let mut c = Cursor::new(doc.as_bytes(), Limits::DEFAULT).unwrap();
                c.begin_object().unwrap();
                let mut first = true;
                let got = c.next_key_in(&mut first, NAMES).unwrap();
                assert_eq!(got, Some(expected(&key)), "{doc}");
                assert_eq!(c.value().unwrap().as_text(), "1", "{doc}");
                // The trusted read over the same validated text (a `Seq` being iterated).
                let raw = crate::json::RawJson::parse(doc.as_bytes()).unwrap();
                let mut t = Cursor::over(raw);
                t.begin_object().unwrap();
                assert_eq!(t.next_key_trusted(NAMES), Some(expected(&key)), "{doc}");
                assert_eq!(t.value().unwrap().as_text(), "1", "{doc}");
                assert_eq!(t.next_key_trusted(NAMES).is_some(), doc.contains("padding"));
            }
        }
    }

    /// `Fields`' lookup and the compact targets' one (`find_index`) give the same index.
    #[test]
    fn fields_lookups_agree() {
        for key in variants() {
            let json = JsonStr::from_source(&key, key.contains('\\'));
            let want = super::find(NAMES.names, json).map(|(i, n)| (i, String::from(n)));
            let got = super::find_index(NAMES.names, json, false)
                .map(|i| (i, String::from(NAMES.names[i])));
            assert_eq!(got, want, "{key}");
            assert_eq!(got.map(|g| g.0), expected(&key), "{key}");
        }
    }

    #[test]
    fn malformed_keys_are_still_errors() {
        for doc in [
            "{\"uri\u{1}\":1}",
            "{\"uri\\x\":1}",
            "{\"uri\"1}",
            "{\"uri",
            "{\"12345678",
            "{uri:1}",
        ] {
            let mut c = Cursor::new(doc.as_bytes(), Limits::DEFAULT).unwrap();
            c.begin_object().unwrap();
            let mut first = true;
            assert!(c.next_key_in(&mut first, NAMES).is_err(), "{doc}");
        }
    }
}
