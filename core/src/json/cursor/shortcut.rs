//! Shortcuts of the validating [`Cursor`]: where the text is in its most
//! common form, the answer the general path would give, in fewer steps. Each one falls
//! back to the general path (which also finds the errors) whenever the text differs.

use super::Cursor;
use crate::json::fields::Keys;
use crate::json::scan::skip_ws;

/// The known name a key written without escapes matches in place, as `(index, length)`:
/// `rest` is the text after the key's opening quote and `head` its first eight bytes.
#[inline(always)]
pub(super) fn in_place(rest: &[u8], head: u64, keys: &Keys) -> Option<(usize, usize)> {
    for (k, w) in keys.words.iter().enumerate() {
        let matches = head & w.mask == w.head
            && (w.len < 8
                || rest
                    .get(w.len - 7..)
                    .and_then(<[u8]>::first_chunk::<8>)
                    .is_some_and(|t| u64::from_le_bytes(*t) == w.tail)
                    && (w.len <= 15 || same_middle(rest, keys, k, w.len)));
        if matches {
            return Some((k, w.len));
        }
    }
    None
}

/// Whether `rest` holds name `k` of `keys` (`len` bytes, at least 16) from its ninth byte
/// to its eighth-last: what the head and tail words of [`in_place`] leave out. Out of
/// line: the loop over the names keeps its registers.
#[inline(never)]
fn same_middle(rest: &[u8], keys: &Keys, k: usize, len: usize) -> bool {
    let name = keys.names.get(k).map_or(&[][..], |n| n.as_bytes());
    rest.get(8..len - 7) == name.get(8..len - 7)
}

impl Cursor<'_> {
    /// Reads `{}` (whitespace allowed) when it is next and one more level of nesting is
    /// allowed: as [`Cursor::begin_object`] and the walk of no members would. `false`, with
    /// the cursor unmoved, otherwise.
    #[inline(always)]
    pub(crate) fn empty_object(&mut self) -> bool {
        let b = self.bytes();
        let open = skip_ws(b, self.pos);
        let close = skip_ws(b, open + 1);
        let empty = b.get(open) == Some(&b'{') && b.get(close) == Some(&b'}');
        if empty && self.depth < self.max_depth {
            self.pos = close + 1;
            return true;
        }
        false
    }

    /// Reads `token`, one complete JSON value written exactly so (e.g. `"2.0"`), when it is
    /// next: as [`Cursor::value`] would read it. `false`, with the cursor unmoved, otherwise.
    #[inline(always)]
    pub(crate) fn token(&mut self, token: &str) -> bool {
        let at = skip_ws(self.bytes(), self.pos);
        let found = self
            .bytes()
            .get(at..)
            .is_some_and(|rest| rest.starts_with(token.as_bytes()));
        if found {
            self.pos = at + token.len();
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use crate::json::{Cursor, Limits};

    /// `empty_object` answers as `begin_object` then `next_key` do, or declines unmoved.
    #[test]
    fn empty_object_is_the_general_walk() {
        let texts = [
            "{}",
            "{ }",
            " {\n\t} ",
            "{\"a\":1}",
            "[]",
            "{",
            "{]",
            "}",
            "",
            " ",
            "{ ,}",
            "{}}",
        ];
        for text in texts {
            for max_depth in 0..3 {
                let limits = Limits {
                    max_len: 64,
                    max_depth,
                };
                let Ok(mut fast) = Cursor::new(text.as_bytes(), limits) else {
                    continue;
                };
                let Ok(mut slow) = Cursor::new(text.as_bytes(), limits) else {
                    continue;
                };
                let general =
                    slow.begin_object().is_ok() && matches!(slow.next_key(&mut true), Ok(None));
                let (at, depth) = (fast.position(), fast.depth());
                let took = fast.empty_object();
                assert_eq!(took, general, "{text:?} at depth limit {max_depth}");
                if took {
                    assert_eq!(
                        (fast.position(), fast.depth()),
                        (slow.position(), slow.depth())
                    );
                } else {
                    assert_eq!((fast.position(), fast.depth()), (at, depth), "{text:?}");
                }
            }
        }
    }

    /// `token` reads what `value` reads, or declines unmoved.
    #[test]
    fn token_is_the_general_value() {
        let texts = [
            "\"2.0\"",
            " \"2.0\",",
            "\"2.0\"}",
            "\"2.01\"",
            "\"2.0",
            "\"2\\u002e0\"",
            "2.0",
            "",
        ];
        for text in texts {
            let limits = Limits::DEFAULT;
            let Ok(mut fast) = Cursor::new(text.as_bytes(), limits) else {
                continue;
            };
            let Ok(mut slow) = Cursor::new(text.as_bytes(), limits) else {
                continue;
            };
            let general = slow.value().is_ok_and(|v| v.as_text() == "\"2.0\"");
            let at = fast.position();
            let took = fast.token("\"2.0\"");
            assert_eq!(took, general, "{text:?}");
            let want = if took { slow.position() } else { at };
            assert_eq!(fast.position(), want, "{text:?}");
        }
    }
}
