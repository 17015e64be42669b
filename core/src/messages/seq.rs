//! [`Seq`], a lazy JSON array inside a view (its object counterpart is
//! [`Map`](super::Map)). Decoding checks every element once and stores nothing; iteration
//! decodes again on demand, so a view never allocates. A result's main sequence can instead
//! keep its items in caller slots as they are checked ([`Seq::decode_into`], through
//! [`DecodeInto`](crate::jsonrpc::DecodeInto)), so one pass both validates and yields them.
//! For encoding, a `Seq` can also wrap a caller's slice (or any [`SeqSource`], e.g. owned
//! data with feature `alloc`).

use core::fmt;

use crate::json::cursor::Span;
use crate::json::{Cursor, Encode, EncodeError, JsonSink, RawJson, Writer};
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
        // Compact targets ([`crate::WIDE`]) encode a slice's items straight from it: where
        // the sequence is known to be one, the out-of-line iterator (and the element decoder
        // inside it) is then not linked for this.
        if !crate::WIDE
            && let SeqRepr::Slice(items) = self.repr
        {
            for item in items {
                item.encode(w)?;
            }
            return w.end_array();
        }
        for item in self.iter() {
            item.encode(w)?;
        }
        w.end_array()
    }
}

impl<'a, T: FromJson<'a> + Copy> FromJson<'a> for Seq<'a, T> {
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

/// `e`, a params error, re-anchored inside `field`.
pub(super) fn in_field(e: DecodeError, field: &'static str) -> DecodeError {
    match e {
        DecodeError::Params(p) => DecodeError::Params(p.in_field(field)),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::{Seq, SeqRepr, Span, decode_array};
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
}
