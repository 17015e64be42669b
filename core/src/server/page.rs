//! Pagination (DIGEST §3): opaque, stable cursors over a key-ordered map.
//!
//! A cursor names the last key of the page it ends ("keyset" pagination), so it stays
//! valid when items are added or removed between pages: the next page starts after that key
//! in the same deterministic order. The text is base64url (no padding) of a version byte,
//! the list kind and the key; anything else, including a cursor of another list, is an
//! invalid cursor, answered with -32602 (DIGEST §3, §16.3 rule 20). Cursors are never empty,
//! so no client confuses one with the end of results.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::ops::Bound;

use crate::base64::{self, Alphabet};

const CURSOR_VERSION: u8 = 1;
/// Longest cursor text accepted (a key is at most a URI, [`super::route::MAX_URI_LEN`]).
const MAX_CURSOR_LEN: usize = 16 * 1024;

/// Which list a cursor belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListId {
    Resources = 1,
    Templates = 2,
    Prompts = 3,
}

/// Encodes the cursor that resumes `list` after `key`.
pub(crate) fn encode_cursor(list: ListId, key: &str) -> String {
    let header = [CURSOR_VERSION, list as u8];
    let len = base64::encoded_len(Alphabet::UrlSafeNoPad, key.len() + 2).unwrap_or(0);
    let mut out = vec![0u8; len];
    match base64::encode_parts(Alphabet::UrlSafeNoPad, &[&header, key.as_bytes()], &mut out) {
        Ok(n) => {
            out.truncate(n);
            String::from_utf8(out).unwrap_or_default()
        }
        Err(_) => String::new(),
    }
}

/// The key a cursor of `list` resumes after; `None` for an invalid cursor.
pub(crate) fn decode_cursor(list: ListId, cursor: &str) -> Option<String> {
    if cursor.is_empty() || cursor.len() > MAX_CURSOR_LEN {
        return None;
    }
    let mut raw = vec![0u8; base64::decoded_len_max(cursor.len())];
    let n = base64::decode(Alphabet::UrlSafeNoPad, cursor.as_bytes(), &mut raw).ok()?;
    let raw = raw.get(..n)?;
    match raw {
        [CURSOR_VERSION, kind, key @ ..] if *kind == list as u8 => {
            String::from_utf8(key.to_vec()).ok()
        }
        _ => None,
    }
}

/// One page of `map` after `after`: at most `size` visible values, and the cursor key when
/// more visible values follow.
pub(crate) fn page<'m, V>(
    map: &'m BTreeMap<String, V>,
    after: Option<&str>,
    size: usize,
    visible: impl Fn(&V) -> bool,
) -> (Vec<&'m V>, Option<&'m str>) {
    let start = match after {
        Some(k) => Bound::Excluded(k),
        None => Bound::Unbounded,
    };
    let mut items = Vec::new();
    let mut last: Option<&'m str> = None;
    for (k, v) in map
        .range::<str, _>((start, Bound::Unbounded))
        .filter(|(_, v)| visible(v))
    {
        if items.len() == size {
            return (items, last);
        }
        items.push(v);
        last = Some(k.as_str());
    }
    (items, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_reject_others() {
        for key in ["", "file:///a", "notes://x/ü"] {
            let c = encode_cursor(ListId::Prompts, key);
            assert!(!c.is_empty());
            assert_eq!(decode_cursor(ListId::Prompts, &c).as_deref(), Some(key));
            assert_eq!(decode_cursor(ListId::Resources, &c), None);
        }
        for bad in ["", "!!", "AQ", "abc=", "AAAA"] {
            assert_eq!(decode_cursor(ListId::Resources, bad), None, "{bad}");
        }
    }

    #[test]
    fn pages_resume_after_the_key() {
        let map: BTreeMap<String, u32> = (0..7).map(|i| (alloc::format!("k{i}"), i)).collect();
        let (a, next) = page(&map, None, 3, |_| true);
        assert_eq!(a, [&0, &1, &2]);
        assert_eq!(next, Some("k2"));
        let (b, next) = page(&map, next, 3, |_| true);
        assert_eq!(b, [&3, &4, &5]);
        let (c, next) = page(&map, next, 3, |_| true);
        assert_eq!((c, next), (vec![&6], None));
        let (odd, next) = page(&map, None, 3, |v| v % 2 == 1);
        assert_eq!((odd, next), (vec![&1, &3, &5], None));
        let (exact, next) = page(&map, None, 7, |_| true);
        assert_eq!((exact.len(), next), (7, None));
    }
}
