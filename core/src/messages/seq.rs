//! Lazy collections inside views: [`Seq`] (a JSON array) and [`Map`] (a JSON object with
//! string keys). Decoding checks every element once and stores nothing; iteration decodes
//! again on demand, so a view never allocates. A result's main sequence can instead keep its
//! items in caller slots as they are checked ([`Seq::decode_into`], through
//! [`DecodeInto`](crate::jsonrpc::DecodeInto)), so one pass both validates and yields them.
//! For encoding, both can also wrap a caller's slice (or any [`SeqSource`]/[`MapSource`],
//! e.g. owned data with feature `alloc`).

use core::fmt;

use crate::json::cursor::Span;
use crate::json::{Cursor, Encode, EncodeError, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{DecodeError, FromJson, ParamsError};

/// Items for a [`Seq`] that is being built rather than decoded.
pub trait SeqSource<'a, T> {
    /// The number of items.
    fn len(&self) -> usize;
    /// Whether there are no items.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The item at `index`.
    fn item(&'a self, index: usize) -> Option<T>;
}

enum SeqRepr<'a, T> {
    /// The array, its length, and the longest string inside it as validation found it
    /// (relative to the array), which iteration then reads in one step.
    Json(RawJson<'a>, usize, Span),
    Slice(&'a [T]),
    /// The items kept in caller slots while the array was validated, and its text.
    Stored(&'a [Option<T>], RawJson<'a>),
    Source(&'a (dyn SeqSource<'a, T> + 'a)),
}

/// A JSON array of `T`, decoded lazily (or read from the slots [`Seq::decode_into`] filled).
pub struct Seq<'a, T> {
    repr: SeqRepr<'a, T>,
}

impl<T> Clone for Seq<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Seq<'_, T> {}
impl<T> Clone for SeqRepr<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for SeqRepr<'_, T> {}

impl<'a, T: FromJson<'a> + Copy> Seq<'a, T> {
    /// Decodes the array at `c`, checking that every element decodes as `T`; stores only
    /// the array's text and length.
    ///
    /// # Errors
    /// `WrongType` on `field` when the value is not an array, or the element's own error.
    pub fn decode(c: &mut Cursor<'a>, field: &'static str) -> Result<Self, DecodeError> {
        if !crate::WIDE {
            let (raw, len) = decode_array(c, field, &mut |c| T::decode(c).map(drop))?;
            return Ok(Self {
                repr: SeqRepr::Json(raw, len, Span::default()),
            });
        }
        let (raw, len, long) = Self::walk(c, field, |_, _| ())?;
        Ok(Self {
            repr: SeqRepr::Json(raw, len, long),
        })
    }

    /// As [`Seq::decode`] (the same checks, errors and position), and the items are kept in
    /// `slots` in order as they are checked, so iterating reads them there instead of
    /// decoding them again. When the items outnumber the slots, the sequence is the lazy one
    /// [`Seq::decode`] gives (the slots' contents are then unspecified).
    ///
    /// # Errors
    /// As [`Seq::decode`].
    pub fn decode_into(
        c: &mut Cursor<'a>,
        field: &'static str,
        slots: &'a mut [Option<T>],
    ) -> Result<Self, DecodeError> {
        let keep = |n: usize, item: T| {
            if let Some(slot) = slots.get_mut(n) {
                *slot = Some(item);
            }
        };
        let (raw, len, long) = if crate::WIDE {
            Self::walk(c, field, keep)?
        } else {
            let (mut keep, mut n) = (keep, 0);
            let (raw, len) = decode_array(c, field, &mut |c| {
                T::decode(c).map(|item| {
                    keep(n, item);
                    n += 1;
                })
            })?;
            (raw, len, Span::default())
        };
        let slots: &'a [Option<T>] = slots;
        Ok(Self {
            repr: match slots.get(..len) {
                Some(kept) => SeqRepr::Stored(kept, raw),
                None => SeqRepr::Json(raw, len, long),
            },
        })
    }

    /// The wide targets' array walk: checks every element, handing each to `keep` with its
    /// index; returns the array's text, its length and the longest string inside it.
    #[inline(always)]
    fn walk(
        c: &mut Cursor<'a>,
        field: &'static str,
        mut keep: impl FnMut(usize, T),
    ) -> Result<(RawJson<'a>, usize, Span), DecodeError> {
        if c.peek() != Some(b'[') {
            return Err(ParamsError::wrong_type(field).into());
        }
        let (start, text) = (c.position(), c.clone());
        c.begin_array()?;
        // The longest string of the items (speed only: where the word scans pay).
        let outer = c.take_long();
        let (mut first, mut len) = (true, 0);
        while c.next_item(&mut first)? {
            keep(len, T::decode(c).map_err(|e| in_field(e, field))?);
            len += 1;
        }
        let inner = c.take_long();
        c.keep_long(outer, inner);
        let raw = text
            .slice(start, c.position())
            .ok_or(ParamsError::wrong_type(field))?;
        Ok((raw, len, inner.shifted(start)))
    }

    /// As [`Seq::decode`], over a validated value.
    ///
    /// # Errors
    /// As [`Seq::decode`].
    pub fn decode_raw(v: RawJson<'a>, field: &'static str) -> Result<Self, ParamsError> {
        Self::decode(&mut Cursor::over(v), field).map_err(|e| match e {
            DecodeError::Params(p) => p,
            _ => ParamsError::wrong_type(field),
        })
    }

    /// The number of items.
    #[must_use]
    pub fn len(&self) -> usize {
        match self.repr {
            SeqRepr::Json(_, n, _) => n,
            SeqRepr::Slice(s) => s.len(),
            SeqRepr::Stored(s, _) => s.len(),
            SeqRepr::Source(s) => s.len(),
        }
    }

    /// Whether there are no items.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The items, decoded one at a time.
    #[must_use]
    pub fn iter(&self) -> SeqIter<'a, T> {
        SeqIter {
            inner: match self.repr {
                SeqRepr::Json(v, _, long) => IterRepr::Json(Cursor::over_with(v, long), true),
                SeqRepr::Slice(s) => IterRepr::Slice(s.iter()),
                SeqRepr::Stored(s, _) => IterRepr::Stored(s.iter()),
                SeqRepr::Source(s) => IterRepr::Source(s, 0),
            },
        }
    }

    /// The raw JSON array, when the sequence was decoded.
    #[must_use]
    pub fn raw(&self) -> Option<RawJson<'a>> {
        match self.repr {
            SeqRepr::Json(v, ..) | SeqRepr::Stored(_, v) => Some(v),
            SeqRepr::Slice(_) | SeqRepr::Source(_) => None,
        }
    }
}

impl<'a, T> Seq<'a, T> {
    /// A sequence over caller-provided items (for encoding).
    #[must_use]
    pub fn from_source(items: &'a (dyn SeqSource<'a, T> + 'a)) -> Self {
        Self {
            repr: SeqRepr::Source(items),
        }
    }

    /// A sequence over a slice (for encoding without allocation).
    #[must_use]
    pub const fn from_slice(items: &'a [T]) -> Self {
        Self {
            repr: SeqRepr::Slice(items),
        }
    }
}

/// Where a result's decoder puts the items of its main sequence: nowhere ([`Lazy`], what
/// [`FromJson::decode`] does) or in caller slots (a `&mut [Option<T>]`, what
/// [`DecodeInto::decode_into`](crate::jsonrpc::DecodeInto::decode_into) does).
pub(crate) trait SeqIn<'a, T> {
    /// Decodes the sequence at `c` (named `field` in errors).
    fn seq(&mut self, c: &mut Cursor<'a>, field: &'static str) -> Result<Seq<'a, T>, DecodeError>;
}

/// [`FromJson`] (items left lazy) and [`DecodeInto`](crate::jsonrpc::DecodeInto) (items in
/// caller slots) for a result `$ty` of one main sequence of `$item`, whose own
/// `decode_with(c, items_in)` reads that sequence through a [`SeqIn`].
macro_rules! one_sequence_result {
    ($ty:ident, $item:ident) => {
        impl<'a> FromJson<'a> for $ty<'a> {
            #[cfg_attr(
                all(
                    any(target_pointer_width = "64", target_family = "wasm"),
                    not(mcp_compact)
                ),
                inline(always)
            )]
            fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
                Self::decode_with(c, $crate::messages::seq::Lazy)
            }
        }

        impl<'a> $crate::jsonrpc::DecodeInto<'a> for $ty<'a> {
            type Item = $item<'a>;
            fn decode_into(
                c: &mut Cursor<'a>,
                slots: &'a mut [Option<$item<'a>>],
            ) -> Result<Self, DecodeError> {
                Self::decode_with(c, slots)
            }
        }
    };
}
pub(crate) use one_sequence_result;

/// Items left in the text ([`Seq::decode`]).
pub(crate) struct Lazy;

impl<'a, T: FromJson<'a> + Copy> SeqIn<'a, T> for Lazy {
    #[inline(always)]
    fn seq(&mut self, c: &mut Cursor<'a>, field: &'static str) -> Result<Seq<'a, T>, DecodeError> {
        Seq::decode(c, field)
    }
}

impl<'a, T: FromJson<'a> + Copy> SeqIn<'a, T> for &'a mut [Option<T>] {
    /// [`Seq::decode_into`] these slots (a second sequence, which the decoders' duplicate
    /// check never lets through, would find none left and stay lazy).
    fn seq(&mut self, c: &mut Cursor<'a>, field: &'static str) -> Result<Seq<'a, T>, DecodeError> {
        Seq::decode_into(c, field, core::mem::take(self))
    }
}

impl<'a, T: FromJson<'a> + Copy> IntoIterator for Seq<'a, T> {
    type Item = T;
    type IntoIter = SeqIter<'a, T>;
    fn into_iter(self) -> SeqIter<'a, T> {
        self.iter()
    }
}

enum IterRepr<'a, T> {
    Json(Cursor<'a>, bool),
    Slice(core::slice::Iter<'a, T>),
    Stored(core::slice::Iter<'a, Option<T>>),
    Source(&'a (dyn SeqSource<'a, T> + 'a), usize),
}

/// The iterator of a [`Seq`].
pub struct SeqIter<'a, T> {
    inner: IterRepr<'a, T>,
}

impl<'a, T: FromJson<'a> + Copy> Iterator for SeqIter<'a, T> {
    type Item = T;
    // Out of line on compact targets: a loop over a `Seq` would otherwise inline it twice,
    // element decoder included.
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(never)
    )]
    fn next(&mut self) -> Option<T> {
        match &mut self.inner {
            // Elements were checked at decode, so this cannot fail; if it did, stop.
            IterRepr::Json(c, first) => {
                if *first {
                    c.begin_array().ok()?;
                }
                if !c.next_item(first).ok()? {
                    return None;
                }
                T::decode(c).ok()
            }
            IterRepr::Slice(it) => it.next().copied(),
            IterRepr::Stored(it) => *it.next()?,
            IterRepr::Source(s, i) => {
                let item = s.item(*i)?;
                *i += 1;
                Some(item)
            }
        }
    }
}

impl<T> fmt::Debug for SeqIter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeqIter")
    }
}

impl<'a, T: FromJson<'a> + Copy + fmt::Debug> fmt::Debug for Seq<'a, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T: FromJson<'a> + Copy + PartialEq> PartialEq for Seq<'a, T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<'a, T: FromJson<'a> + Copy + Encode> Encode for Seq<'a, T> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.begin_array()?;
        for item in self.iter() {
            item.encode(w)?;
        }
        w.end_array()
    }
}

/// Entries for a [`Map`] that is being built rather than decoded.
pub trait MapSource<'a, V> {
    /// The number of entries.
    fn len(&self) -> usize;
    /// Whether there are no entries.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The entry at `index`.
    fn entry(&'a self, index: usize) -> Option<(JsonStr<'a>, V)>;
}

enum MapRepr<'a, V> {
    Json(RawJson<'a>, usize),
    Pairs(&'a [(&'a str, V)]),
    Source(&'a (dyn MapSource<'a, V> + 'a)),
}

/// A JSON object from string keys to `V`, decoded lazily (prompt `arguments`,
/// `inputRequests`, `inputResponses`).
pub struct Map<'a, V> {
    repr: MapRepr<'a, V>,
}

impl<V> Clone for Map<'_, V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V> Copy for Map<'_, V> {}
impl<V> Clone for MapRepr<'_, V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V> Copy for MapRepr<'_, V> {}

impl<'a, V: FromJson<'a> + Copy> Map<'a, V> {
    /// Decodes the object at `c`, checking that every value decodes as `V`. If a key
    /// repeats, [`Map::get`] returns the first entry (checking would cost quadratic time on
    /// hostile input).
    ///
    /// # Errors
    /// `WrongType` on `field` when the value is not an object, or the value's own error.
    pub fn decode(c: &mut Cursor<'a>, field: &'static str) -> Result<Self, DecodeError> {
        // Compact targets share one walk for every value type (`decode_object`).
        let (raw, len) = if crate::WIDE {
            walk_object(c, field, |c| V::decode(c).map(drop))
        } else {
            decode_object(c, field, &mut |c| V::decode(c).map(drop))
        }?;
        Ok(Self {
            repr: MapRepr::Json(raw, len),
        })
    }

    /// The number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        match self.repr {
            MapRepr::Json(_, n) => n,
            MapRepr::Pairs(s) => s.len(),
            MapRepr::Source(s) => s.len(),
        }
    }

    /// Whether there are no entries.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entries in document order.
    #[must_use]
    pub fn iter(&self) -> MapIter<'a, V> {
        MapIter {
            inner: match self.repr {
                MapRepr::Json(v, _) => MapIterRepr::Json(Cursor::over(v), true),
                MapRepr::Pairs(s) => MapIterRepr::Pairs(s.iter()),
                MapRepr::Source(s) => MapIterRepr::Source(s, 0),
            },
        }
    }

    /// The value for `key`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<V> {
        self.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl<'a, V> Map<'a, V> {
    /// A map over caller-provided entries (for encoding).
    #[must_use]
    pub fn from_source(entries: &'a (dyn MapSource<'a, V> + 'a)) -> Self {
        Self {
            repr: MapRepr::Source(entries),
        }
    }

    /// A map over a slice of pairs (for encoding without allocation).
    #[must_use]
    pub const fn from_pairs(entries: &'a [(&'a str, V)]) -> Self {
        Self {
            repr: MapRepr::Pairs(entries),
        }
    }
}

enum MapIterRepr<'a, V> {
    Json(Cursor<'a>, bool),
    Pairs(core::slice::Iter<'a, (&'a str, V)>),
    Source(&'a (dyn MapSource<'a, V> + 'a), usize),
}

/// The iterator of a [`Map`].
pub struct MapIter<'a, V> {
    inner: MapIterRepr<'a, V>,
}

impl<'a, V: FromJson<'a> + Copy> Iterator for MapIter<'a, V> {
    type Item = (JsonStr<'a>, V);
    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            MapIterRepr::Json(c, first) => {
                if *first {
                    c.begin_object().ok()?;
                }
                let k = c.next_key(first).ok()??;
                Some((k, V::decode(c).ok()?))
            }
            MapIterRepr::Pairs(it) => it.next().map(|(k, v)| (JsonStr::new(k), *v)),
            MapIterRepr::Source(s, i) => {
                let e = s.entry(*i)?;
                *i += 1;
                Some(e)
            }
        }
    }
}

impl<V> fmt::Debug for MapIter<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MapIter")
    }
}

impl<'a, V: FromJson<'a> + Copy + fmt::Debug> fmt::Debug for Map<'a, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<'a, V: FromJson<'a> + Copy + PartialEq> PartialEq for Map<'a, V> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<'a, V: FromJson<'a> + Copy + Encode> Encode for Map<'a, V> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.begin_object()?;
        for (k, v) in self.iter() {
            w.json_key(k)?;
            v.encode(w)?;
        }
        w.end_object()
    }
}

impl<'a, T: FromJson<'a> + Copy> FromJson<'a> for Seq<'a, T> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        Self::decode(c, ParamsError::ITEM)
    }
}

impl<'a, V: FromJson<'a> + Copy> FromJson<'a> for Map<'a, V> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        Self::decode(c, ParamsError::ITEM)
    }
}

/// [`Seq::decode`] as compact targets run it (`crate::WIDE`): one array walk for every element
/// type, each element checked by `item`; returns the array's text and length. The same steps
/// in the same order as the generic form, so the same answers (`tests`).
#[inline(never)]
fn decode_array<'a>(
    c: &mut Cursor<'a>,
    field: &'static str,
    item: &mut dyn FnMut(&mut Cursor<'a>) -> Result<(), DecodeError>,
) -> Result<(RawJson<'a>, usize), DecodeError> {
    // Both refusals share one error construction.
    if c.peek() == Some(b'[') {
        let (start, text) = (c.position(), c.clone());
        c.begin_array()?;
        let (mut first, mut len) = (true, 0);
        while c.next_item(&mut first)? {
            item(c).map_err(|e| in_field(e, field))?;
            len += 1;
        }
        if let Some(raw) = text.slice(start, c.position()) {
            return Ok((raw, len));
        }
    }
    Err(ParamsError::wrong_type(field).into())
}

/// [`Map::decode`] as compact targets run it: [`walk_object`] once, for every value type
/// ([`decode_array`]'s counterpart for objects). Left to the compiler: one copy, inlined
/// where only one value type is decoded.
fn decode_object<'a>(
    c: &mut Cursor<'a>,
    field: &'static str,
    value: &mut dyn FnMut(&mut Cursor<'a>) -> Result<(), DecodeError>,
) -> Result<(RawJson<'a>, usize), DecodeError> {
    walk_object(c, field, value)
}

/// Walks the object at `c`, each value checked by `value`; returns the object's text and
/// its number of entries.
#[inline]
fn walk_object<'a>(
    c: &mut Cursor<'a>,
    field: &'static str,
    mut value: impl FnMut(&mut Cursor<'a>) -> Result<(), DecodeError>,
) -> Result<(RawJson<'a>, usize), DecodeError> {
    // Both refusals (not an object; no text) share one error construction.
    if c.peek() == Some(b'{') {
        let (start, text) = (c.position(), c.clone());
        c.begin_object()?;
        let (mut first, mut len) = (true, 0);
        while c.next_key(&mut first)?.is_some() {
            value(c).map_err(|e| in_field(e, field))?;
            len += 1;
        }
        if let Some(raw) = text.slice(start, c.position()) {
            return Ok((raw, len));
        }
    }
    Err(ParamsError::wrong_type(field).into())
}

fn in_field(e: DecodeError, field: &'static str) -> DecodeError {
    match e {
        DecodeError::Params(p) => DecodeError::Params(p.in_field(field)),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::{Map, MapRepr, Seq, SeqRepr, Span, decode_array, decode_object};
    use crate::json::{Cursor, JsonStr, Limits};
    use crate::jsonrpc::{DecodeError, FromJson};
    use crate::messages::Icon;

    /// Compact targets' shared array walk gives the generic decoder's answers and stops where
    /// it stops, errors included.
    #[test]
    fn decode_array_agrees_with_the_generic_form() {
        fn both<'a, T: FromJson<'a> + Copy + PartialEq + core::fmt::Debug + 'a>(bytes: &'a [u8]) {
            let Ok(mut a) = Cursor::new(bytes, Limits::DEFAULT) else {
                return;
            };
            let mut b = a.clone();
            let want = Seq::<T>::decode(&mut a, "list");
            let got: Result<Seq<'_, T>, DecodeError> = decode_array(&mut b, "list", &mut |c| {
                T::decode(c).map(drop)
            })
            .map(|(raw, len)| Seq {
                repr: SeqRepr::Json(raw, len, Span::default()),
            });
            assert_eq!(got, want, "{:?}", core::str::from_utf8(bytes));
            assert_eq!(a.position(), b.position());
        }
        let inputs: &[&[u8]] = &[
            b"[]",
            b" [ ] ",
            br#"["a","b\u0041"]"#,
            br#"[1]"#,
            br#"["a",1]"#,
            b"{}",
            br#""x""#,
            b"[",
            br#"["a",]"#,
            br#"[{"src":"x"},{"src":"y","theme":"dark"}]"#,
            br#"[{"src":"x"},{"src":1}]"#,
            br#"[{"src":"x","theme":"dim"}]"#,
            br#"[{}]"#,
            b"null",
        ];
        for bytes in inputs {
            both::<JsonStr<'_>>(bytes);
            both::<Icon<'_>>(bytes);
        }
    }

    /// `decode_into` keeps the items in the slots when they fit (iteration then reads them
    /// there) and is the lazy sequence otherwise; either way the same items and text.
    #[test]
    fn decode_into_keeps_the_items_when_they_fit() {
        let text = br#"[{"src":"a"}, {"src":"b","theme":"dark"}]"#;
        for (n, fits) in [(0, false), (1, false), (2, true), (5, true)] {
            let mut slots = [None; 5];
            let mut c = Cursor::new(text, Limits::DEFAULT).unwrap();
            let lazy = Seq::<Icon<'_>>::decode(&mut c.clone(), "icons").unwrap();
            let seq = Seq::<Icon<'_>>::decode_into(&mut c, "icons", &mut slots[..n]).unwrap();
            assert_eq!(matches!(seq.repr, SeqRepr::Stored(..)), fits, "{n} slots");
            assert_eq!(matches!(seq.repr, SeqRepr::Json(..)), !fits, "{n} slots");
            assert_eq!((seq, seq.raw(), seq.len()), (lazy, lazy.raw(), 2));
            assert_eq!(c.position(), text.len());
        }
        let mut slots = [None; 2];
        let bad = br#"[{"src":"a"},{"src":1}]"#;
        let mut c = Cursor::new(bad, Limits::DEFAULT).unwrap();
        let want =
            Seq::<Icon<'_>>::decode(&mut Cursor::new(bad, Limits::DEFAULT).unwrap(), "icons");
        assert_eq!(
            Seq::<Icon<'_>>::decode_into(&mut c, "icons", &mut slots),
            want
        );
        assert!(want.is_err());
    }

    /// The same for objects: [`decode_object`] against the generic `Map::decode`.
    #[test]
    fn decode_object_agrees_with_the_generic_form() {
        fn both<'a, V: FromJson<'a> + Copy + PartialEq + core::fmt::Debug + 'a>(bytes: &'a [u8]) {
            let Ok(mut a) = Cursor::new(bytes, Limits::DEFAULT) else {
                return;
            };
            let mut b = a.clone();
            let want = Map::<V>::decode(&mut a, "map");
            let got: Result<Map<'_, V>, DecodeError> = decode_object(&mut b, "map", &mut |c| {
                V::decode(c).map(drop)
            })
            .map(|(raw, len)| Map {
                repr: MapRepr::Json(raw, len),
            });
            assert_eq!(got, want, "{:?}", core::str::from_utf8(bytes));
            assert_eq!(a.position(), b.position());
        }
        let inputs: &[&[u8]] = &[
            b"{}",
            b" { } ",
            br#"{"a":"x","b\u0041":"y"}"#,
            br#"{"a":1}"#,
            br#"{"a":"x","b":[]}"#,
            b"[]",
            br#""x""#,
            b"{",
            br#"{"a":"x",}"#,
            br#"{"a":"x","a":"y"}"#,
            br#"{"i":{"src":"x"},"j":{"src":2}}"#,
            b"null",
        ];
        for bytes in inputs {
            both::<JsonStr<'_>>(bytes);
            both::<Icon<'_>>(bytes);
        }
    }
}
