//! What a match yields: captured values that borrow the URI and stay percent-encoded until
//! asked for (docs/matching.md §4). Storage is the caller's: a fixed-capacity [`Captures`].

use super::norm;
use super::parse::Span;
use crate::pct::{self, DecodeError};

/// A percent-encoded slice of the matched URI.
///
/// Decode it into a buffer of the caller's ([`decode_into`](Self::decode_into)), borrow it
/// when it holds no triplet ([`as_str`](Self::as_str)), or with `alloc` get a
/// `Cow` ([`decode`](Self::decode)). A `+` is not a space (RFC 3986, RFC 6570).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Encoded<'v>(&'v str);

impl<'v> Encoded<'v> {
    /// Wraps a percent-encoded string.
    #[must_use]
    pub const fn new(raw: &'v str) -> Self {
        Self(raw)
    }

    /// The text as it appears in the URI.
    #[must_use]
    pub fn raw(&self) -> &'v str {
        self.0
    }

    /// Whether the text holds a `%` (decoding may change it).
    #[must_use]
    pub fn needs_decoding(&self) -> bool {
        pct::needs_decoding(self.0)
    }

    /// The decoded text without copying, when there is nothing to decode.
    #[must_use]
    pub fn as_str(&self) -> Option<&'v str> {
        (!self.needs_decoding()).then_some(self.0)
    }

    /// The decoded text, written into `buf` (`raw().len()` bytes always suffice).
    ///
    /// # Errors
    /// [`DecodeError::NotUtf8`] when the decoded bytes are not UTF-8,
    /// [`DecodeError::BufferTooSmall`] when `buf` is too short.
    pub fn decode_into<'b>(&self, buf: &'b mut [u8]) -> Result<&'b str, DecodeError> {
        pct::decode_into(self.0, buf)
    }

    /// The decoded text, borrowed when nothing needs decoding (feature `alloc`).
    ///
    /// # Errors
    /// [`DecodeError::NotUtf8`] when the decoded bytes are not UTF-8.
    #[cfg(feature = "alloc")]
    pub fn decode(&self) -> Result<alloc::borrow::Cow<'v, str>, DecodeError> {
        use alloc::borrow::Cow;
        if !self.needs_decoding() {
            return Ok(Cow::Borrowed(self.0));
        }
        let mut buf = alloc::vec![0u8; self.0.len()];
        let n = pct::decode_into(self.0, &mut buf)?.len();
        buf.truncate(n);
        alloc::string::String::from_utf8(buf)
            .map(Cow::Owned)
            .map_err(|_| DecodeError::NotUtf8)
    }

    /// Whether the text decodes to `expected`, without a buffer.
    #[must_use]
    pub fn decodes_to(&self, expected: &str) -> bool {
        let (raw, want) = (self.0.as_bytes(), expected.as_bytes());
        let (mut i, mut j) = (0, 0);
        while let Some((u, w)) = norm::unit_at(raw, i) {
            if want.get(j) != Some(&u.byte) {
                return false;
            }
            i += w;
            j += 1;
        }
        j == want.len()
    }
}

/// How a captured span holds its value. Wide targets give it an explicit tag, so that
/// `One` is all zero bytes and an empty [`Captures`] is zero-filled in a few wide stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(any(target_pointer_width = "64", target_family = "wasm"), repr(u8))]
pub(crate) enum Shape {
    /// One value: the whole span.
    #[default]
    One,
    /// An exploded list: items separated by `sep`; `named` items are `name=value`.
    Split {
        /// Separator byte.
        sep: u8,
        /// Items carry the variable name (`{;list*}`).
        named: bool,
    },
    /// An exploded query parameter: the span is the whole query; items are the values of the
    /// parameters with the variable's name.
    Query,
}

/// The engine's record of one variable: byte offsets into the URI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Slot {
    pub(crate) start: u32,
    pub(crate) end: u32,
    pub(crate) shape: Shape,
    pub(crate) present: bool,
}

impl Slot {
    const EMPTY: Self = Self {
        start: 0,
        end: 0,
        shape: Shape::One,
        present: false,
    };
}

/// One variable of a match: its name and its percent-encoded value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capture<'k, 'v> {
    name: &'k str,
    raw: &'v str,
    shape: Shape,
}

impl<'k, 'v> Capture<'k, 'v> {
    /// The variable name as written in the template.
    #[must_use]
    pub fn name(&self) -> &'k str {
        self.name
    }

    /// The captured span of the URI. For an exploded variable it holds every item (and for
    /// `{?list*}` the whole query); read those with [`values`](Self::values).
    #[must_use]
    pub fn raw(&self) -> &'v str {
        self.raw
    }

    /// Whether the variable was exploded (`*`) in the template.
    #[must_use]
    pub fn is_exploded(&self) -> bool {
        self.shape != Shape::One
    }

    /// The captured span as one encoded value.
    #[must_use]
    pub fn value(&self) -> Encoded<'v> {
        Encoded(self.raw)
    }

    /// The value without copying, when there is nothing to decode.
    #[must_use]
    pub fn as_str(&self) -> Option<&'v str> {
        self.value().as_str()
    }

    /// The decoded value, written into `buf`.
    ///
    /// # Errors
    /// See [`Encoded::decode_into`].
    pub fn decode_into<'b>(&self, buf: &'b mut [u8]) -> Result<&'b str, DecodeError> {
        self.value().decode_into(buf)
    }

    /// The decoded value (feature `alloc`).
    ///
    /// # Errors
    /// See [`Encoded::decode`].
    #[cfg(feature = "alloc")]
    pub fn decode(&self) -> Result<alloc::borrow::Cow<'v, str>, DecodeError> {
        self.value().decode()
    }

    /// The items of the value, still encoded: one item for a variable without `*`; for an
    /// exploded list, each item (for `{;list*}` and `{?list*}`, without the `name=`).
    #[must_use]
    pub fn values(&self) -> Values<'k, 'v> {
        Values {
            rest: Some(self.raw),
            name: self.name,
            shape: self.shape,
            strip_name: true,
        }
    }

    /// The items split at their first `=`: how an exploded associative array
    /// (`{/keys*}`, `{;keys*}`, `{keys*}`) reads back. An item without `=` has an empty value.
    #[must_use]
    pub fn pairs(&self) -> Pairs<'k, 'v> {
        Pairs(Values {
            rest: Some(self.raw),
            name: self.name,
            shape: self.shape,
            strip_name: false,
        })
    }
}

/// Iterator over the items of a [`Capture`].
#[derive(Debug, Clone)]
pub struct Values<'k, 'v> {
    rest: Option<&'v str>,
    name: &'k str,
    shape: Shape,
    strip_name: bool,
}

fn split_at_byte(s: &str, sep: u8) -> (&str, Option<&str>) {
    match s.as_bytes().iter().position(|&c| c == sep) {
        Some(k) => (s.get(..k).unwrap_or(s), s.get(k + 1..)),
        None => (s, None),
    }
}

/// Splits `name[=value]` at the first `=`.
fn name_value(item: &str) -> (&str, &str) {
    let (n, v) = split_at_byte(item, b'=');
    (n, v.unwrap_or(""))
}

impl<'v> Iterator for Values<'_, 'v> {
    type Item = Encoded<'v>;

    fn next(&mut self) -> Option<Encoded<'v>> {
        loop {
            let rest = self.rest?;
            match self.shape {
                Shape::One => {
                    self.rest = None;
                    return Some(Encoded(rest));
                }
                Shape::Split { sep, named } => {
                    let (item, tail) = split_at_byte(rest, sep);
                    self.rest = tail;
                    if named && self.strip_name {
                        let (n, v) = name_value(item);
                        if norm::units_eq(n.as_bytes(), self.name.as_bytes()) {
                            return Some(Encoded(v));
                        }
                    }
                    return Some(Encoded(item));
                }
                Shape::Query => {
                    let (item, tail) = split_at_byte(rest, b'&');
                    self.rest = tail;
                    let (n, v) = name_value(item);
                    if !item.is_empty() && norm::units_eq(n.as_bytes(), self.name.as_bytes()) {
                        return Some(Encoded(if self.strip_name { v } else { item }));
                    }
                }
            }
        }
    }
}

/// Iterator over the items of a [`Capture`] split at their first `=`.
#[derive(Debug, Clone)]
pub struct Pairs<'k, 'v>(Values<'k, 'v>);

impl<'v> Iterator for Pairs<'_, 'v> {
    type Item = (Encoded<'v>, Encoded<'v>);

    fn next(&mut self) -> Option<Self::Item> {
        let (n, v) = name_value(self.0.next()?.raw());
        Some((Encoded(n), Encoded(v)))
    }
}

/// Iterator over the `name[=value]` parameters of a query, still encoded; empty parameters
/// (`a&&b`) are skipped. This is how to read parameters a template does not name, such as the
/// keys of an exploded associative `{?keys*}` (docs/matching.md §3.3).
#[derive(Debug, Clone)]
pub struct QueryParams<'v>(Option<&'v str>);

impl<'v> QueryParams<'v> {
    /// The parameters of `query` (the text after `?`, without `?` or fragment).
    #[must_use]
    pub fn new(query: &'v str) -> Self {
        Self(Some(query))
    }
}

impl<'v> Iterator for QueryParams<'v> {
    type Item = (Encoded<'v>, Encoded<'v>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (item, tail) = split_at_byte(self.0?, b'&');
            self.0 = tail;
            if !item.is_empty() {
                let (n, v) = name_value(item);
                return Some((Encoded(n), Encoded(v)));
            }
        }
    }
}

/// Caller-provided storage for the variables of one match: at most `N` (default 8).
///
/// A match writes one entry per template variable, in template order; variables the URI
/// leaves out (an absent optional expression or query parameter) are not reported. A
/// template with more than `N` variables yields [`MatchError::TooManyVariables`].
///
/// [`MatchError::TooManyVariables`]: super::MatchError::TooManyVariables
#[derive(Debug, Clone)]
pub struct Captures<'k, 'v, const N: usize = 8> {
    slots: [Slot; N],
    len: usize,
    uri: &'v str,
    source: &'k str,
    names: &'k [Span],
}

impl<const N: usize> Default for Captures<'_, '_, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'k, 'v, const N: usize> Captures<'k, 'v, N> {
    /// Empty storage.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            slots: [Slot::EMPTY; N],
            len: 0,
            uri: "",
            source: "",
            names: &[],
        }
    }

    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn capture(&self, slot: &Slot, name: &Span) -> Capture<'k, 'v> {
        Capture {
            name: sub(self.source, name.start, name.end),
            raw: sub(self.uri, slot.start, slot.end),
            shape: slot.shape,
        }
    }

    /// The first present capture named `name`.
    #[must_use]
    // Inlined on compact targets ([`crate::WIDE`]): less flash than the call and its answer
    // passed back through memory (template-read image).
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(always)
    )]
    pub fn get(&self, name: &str) -> Option<Capture<'k, 'v>> {
        let want = name.as_bytes();
        // `finish` keeps `len` within `names` and the slots: one bound for the loop.
        let names = self.names.get(..self.len).unwrap_or_default();
        for (n, s) in names.iter().zip(&self.slots) {
            if (n.end.wrapping_sub(n.start)) as usize != want.len() || !s.present {
                continue;
            }
            if let Some(t) = self.source.get(n.start as usize..n.end as usize)
                && norm::eq_same_len(t.as_bytes(), want)
            {
                return Some(Capture {
                    name: t,
                    raw: sub(self.uri, s.start, s.end),
                    shape: s.shape,
                });
            }
        }
        None
    }

    /// The present captures, in template order.
    pub fn iter(&self) -> impl Iterator<Item = Capture<'k, 'v>> + '_ {
        self.slots
            .iter()
            .zip(self.names)
            .take(self.len)
            .filter(|(s, _)| s.present)
            .map(|(s, n)| self.capture(s, n))
    }

    /// Forgets the last match.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The raw slots, for the engine.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn slots_mut(&mut self) -> &mut [Slot] {
        &mut self.slots
    }

    /// Attaches the URI and the variable names after a successful match.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn finish(&mut self, uri: &'v str, source: &'k str, names: &'k [Span]) {
        self.uri = uri;
        self.source = source;
        self.names = names;
        self.len = names.len().min(N);
    }
}

/// `s[start..end]`, or `""` when that is not a slice of `s` (the engine only records
/// offsets at character boundaries). Two boundary checks, inlined.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn sub(s: &str, start: u32, end: u32) -> &str {
    s.split_at_checked(end as usize)
        .and_then(|(head, _)| head.split_at_checked(start as usize))
        .map_or("", |(_, t)| t)
}

/// Writes a present capture into `slot` (ignored past the capacity; the caller reports it).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
#[cfg_attr(
    not(any(target_pointer_width = "64", target_family = "wasm")),
    inline(never)
)]
pub(crate) fn set(caps: &mut [Slot], slot: u16, start: usize, end: usize, shape: Shape) {
    if let Some(c) = caps.get_mut(usize::from(slot)) {
        *c = Slot {
            start: start as u32,
            end: end as u32,
            shape,
            present: true,
        };
    }
}

/// Marks `slot` absent.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
#[cfg_attr(
    not(any(target_pointer_width = "64", target_family = "wasm")),
    inline(never)
)]
pub(crate) fn absent(caps: &mut [Slot], slot: u16) {
    if let Some(c) = caps.get_mut(usize::from(slot)) {
        c.present = false;
    }
}

/// Moves the end of the value in `slot` (after the next literal was given back).
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
#[cfg_attr(
    not(any(target_pointer_width = "64", target_family = "wasm")),
    inline(never)
)]
pub(crate) fn shrink(caps: &mut [Slot], slot: u16, end: usize) {
    if let Some(c) = caps.get_mut(usize::from(slot)) {
        c.end = end as u32;
    }
}
