//! [`Map`], a lazy JSON object with string keys inside a view (prompt `arguments`,
//! `inputRequests`, `inputResponses`): decoding checks every value once and stores nothing;
//! iteration decodes again on demand. For encoding it can also wrap caller pairs (or any
//! [`MapSource`]).

use core::fmt;

use super::seq::in_field;
use crate::json::fields::keys;
use crate::json::{Cursor, Encode, EncodeError, JsonError, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{DecodeError, FromJson, ParamsError};

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

impl<'a, V: FromJson<'a> + Copy> FromJson<'a> for Map<'a, V> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        Self::decode(c, ParamsError::ITEM)
    }
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
        while next_entry(c, &mut first)? {
            value(c).map_err(|e| in_field(e, field))?;
            len += 1;
        }
        if let Some(raw) = text.slice(start, c.position()) {
            return Ok((raw, len));
        }
    }
    Err(ParamsError::wrong_type(field).into())
}

/// Whether another entry follows (its key and `:` read), as [`Cursor::next_key`] answers.
/// Compact targets ([`crate::WIDE`]) read it with the key walk every struct decoder links
/// ([`Cursor::next_key_in`], matching no names): the same checks, errors and position
/// (`tests`).
fn next_entry(c: &mut Cursor<'_>, first: &mut bool) -> Result<bool, JsonError> {
    if crate::WIDE {
        return Ok(c.next_key(first)?.is_some());
    }
    Ok(c.next_key_in(first, keys![])?.is_some())
}

#[cfg(test)]
mod tests {
    use super::{Map, MapRepr, decode_object, keys};
    use crate::json::{Cursor, JsonStr, Limits};
    use crate::jsonrpc::{DecodeError, FromJson};
    use crate::messages::Icon;

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

    /// The compact entry step (`next_key_in` matching no names) against `next_key`: the
    /// same answer, error and position at every step, over every prefix of each object.
    #[test]
    fn entry_steps_agree() {
        let objects: &[&[u8]] = &[
            br#"{}"#,
            br#" { "a" : 1 , "bA":[2] } "#,
            br#"{"a":1,}"#,
            br#"{,"a":1}"#,
            br#"{"a" 1}"#,
            br#"{"a":1 "b":2}"#,
            br#"{"a\q":1}"#,
            br#"{1:2}"#,
            br#"{"abcdefghijklmnop":1}"#,
        ];
        for text in objects {
            for end in 0..=text.len() {
                let Ok(mut a) = Cursor::new(&text[..end], Limits::DEFAULT) else {
                    continue;
                };
                if a.begin_object().is_err() {
                    continue;
                }
                let mut b = a.clone();
                let (mut fa, mut fb) = (true, true);
                loop {
                    let want = a.next_key(&mut fa).map(|k| k.is_some());
                    let got = b.next_key_in(&mut fb, keys![]).map(|k| k.is_some());
                    assert_eq!(got, want, "{:?}", core::str::from_utf8(text));
                    // After an error the cursor is left unspecified (no caller reads on).
                    if want.is_ok() {
                        let (pa, pb) =
                            ((a.position(), a.depth(), fa), (b.position(), b.depth(), fb));
                        assert_eq!(pa, pb, "{:?}", core::str::from_utf8(&text[..end]));
                    }
                    if want != Ok(true) || a.value().is_err() || b.value().is_err() {
                        break;
                    }
                }
            }
        }
    }
}
