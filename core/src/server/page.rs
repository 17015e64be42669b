//! Pagination (docs/rules.md §3): opaque, stable cursors over a key-ordered map.
//!
//! A cursor names the last key of the page it ends ("keyset" pagination), so it stays
//! valid when items are added or removed between pages: the next page starts after that key
//! in the same deterministic order. The text is base64url (no padding) of a version byte,
//! the list kind and the key; anything else, including a cursor of another list, is an
//! invalid cursor, answered with -32602 (docs/rules.md §3, §16.3 rule 20). Cursors are never empty,
//! so no client confuses one with the end of results.
//!
//! With [`ServerConfig::dynamic_resources`](super::ServerConfig::dynamic_resources),
//! `resources/list` has a second phase, the host's own pages: its cursors are the same
//! base64url of (version, [`HOST_RESOURCES`], the host's cursor), opaque to the client.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::vecmap::VecMap;

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
    Tools = 5,
}

/// The list kind of a cursor into the host's `resources/list` pages.
const HOST_RESOURCES: u8 = 4;
/// Flag byte: the host phase starts (no host cursor yet), or the host's cursor follows.
const HOST_START: u8 = 0;
const HOST_CURSOR: u8 = 1;

/// The cursor of the host's phase: `None` = its first page, `Some(c)` = after the host's
/// cursor `c`.
pub(crate) fn encode_host_cursor(host: Option<&str>) -> String {
    let (flag, rest) = match host {
        None => (HOST_START, &b""[..]),
        Some(c) => (HOST_CURSOR, c.as_bytes()),
    };
    encode_parts(&[&[CURSOR_VERSION, HOST_RESOURCES, flag], rest])
}

/// The host's cursor in a host-phase cursor: `Some(None)` = the host's first page; `None`
/// when `cursor` is not a host-phase cursor.
pub(crate) fn decode_host_cursor(cursor: &str) -> Option<Option<String>> {
    let raw = decode_raw(cursor)?;
    match raw.as_slice() {
        [CURSOR_VERSION, HOST_RESOURCES, HOST_START] => Some(None),
        [CURSOR_VERSION, HOST_RESOURCES, HOST_CURSOR, c @ ..] => {
            Some(Some(String::from_utf8(c.to_vec()).ok()?))
        }
        _ => None,
    }
}

/// The list kind of an [`AppCursor`].
const APP_LIST: u8 = 6;

/// A position in a list an application assembles itself from several sources (e.g. the
/// pages a package layer answers a [`ListEvent`](super::ListEvent) with: the items of each
/// template's `list` callback, in order). One format for every binding, owned here
/// (docs/server-machine.md §"Dynamic resource lists"): base64url of (version, kind, the
/// offset as 8 bytes, the source key). The machine wraps it again into its own cursor, so
/// clients never see it; anything that is not one decodes to `None` (answer "Invalid
/// cursor", [`Failure::NotFound`](super::Failure::NotFound) on a list event).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AppCursor {
    /// The source the next page starts in (the application's key for it, e.g. a template's
    /// `uriTemplate`).
    pub source: String,
    /// How many of that source's items come before the next page.
    pub offset: u64,
}

impl AppCursor {
    /// The cursor's text (never empty).
    #[must_use]
    pub fn encode(&self) -> String {
        let offset = self.offset.to_be_bytes();
        encode_parts(&[&[CURSOR_VERSION, APP_LIST], &offset, self.source.as_bytes()])
    }

    /// The position `text` names; `None` when it is not an [`AppCursor`]'s text.
    #[must_use]
    pub fn decode(text: &str) -> Option<Self> {
        let raw = decode_raw(text)?;
        let [CURSOR_VERSION, APP_LIST, rest @ ..] = raw.as_slice() else {
            return None;
        };
        let (offset, source) = rest.split_first_chunk::<8>()?;
        Some(Self {
            source: String::from(core::str::from_utf8(source).ok()?),
            offset: u64::from_be_bytes(*offset),
        })
    }
}

fn encode_parts(parts: &[&[u8]]) -> String {
    let total = parts.iter().map(|p| p.len()).sum::<usize>();
    let len = base64::encoded_len(Alphabet::UrlSafeNoPad, total).unwrap_or(0);
    let mut out = vec![0u8; len];
    match base64::encode_parts(Alphabet::UrlSafeNoPad, parts, &mut out) {
        Ok(n) => {
            out.truncate(n);
            String::from_utf8(out).unwrap_or_default()
        }
        Err(_) => String::new(),
    }
}

fn decode_raw(cursor: &str) -> Option<Vec<u8>> {
    if cursor.is_empty() || cursor.len() > MAX_CURSOR_LEN {
        return None;
    }
    let mut raw = vec![0u8; base64::decoded_len_max(cursor.len())];
    let n = base64::decode(Alphabet::UrlSafeNoPad, cursor.as_bytes(), &mut raw).ok()?;
    raw.truncate(n);
    Some(raw)
}

/// Encodes the cursor that resumes `list` after `key`.
pub(crate) fn encode_cursor(list: ListId, key: &str) -> String {
    encode_parts(&[&[CURSOR_VERSION, list as u8], key.as_bytes()])
}

/// The key a cursor of `list` resumes after; `None` for an invalid cursor.
pub(crate) fn decode_cursor(list: ListId, cursor: &str) -> Option<String> {
    let raw = decode_raw(cursor)?;
    match raw.as_slice() {
        [CURSOR_VERSION, kind, key @ ..] if *kind == list as u8 => {
            String::from_utf8(key.to_vec()).ok()
        }
        _ => None,
    }
}

/// One page of `map` after `after`: at most `size` visible values, and the cursor key when
/// more visible values follow.
pub(crate) fn page<'m, V>(
    map: &'m VecMap<String, V>,
    after: Option<&str>,
    size: usize,
    visible: impl Fn(&V) -> bool,
) -> (Vec<&'m V>, Option<&'m str>) {
    let mut items = Vec::new();
    let mut last: Option<&'m str> = None;
    for (k, v) in map
        .range_from(after.unwrap_or(""), after.is_some())
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
            assert_eq!(decode_host_cursor(bad), None, "{bad}");
        }
    }

    #[test]
    fn host_cursors_round_trip_and_are_not_key_cursors() {
        for host in [None, Some(""), Some("page=2"), Some("ü")] {
            let c = encode_host_cursor(host);
            assert!(!c.is_empty());
            assert_eq!(decode_host_cursor(&c), Some(host.map(String::from)));
            assert_eq!(decode_cursor(ListId::Resources, &c), None);
        }
        let key = encode_cursor(ListId::Resources, "a:b");
        assert_eq!(decode_host_cursor(&key), None);
    }

    #[test]
    fn app_cursors_round_trip_and_are_no_other_cursor() {
        for (source, offset) in [("", 0), ("kb://acme/{slug}", 50), ("ü", u64::MAX)] {
            let c = AppCursor {
                source: String::from(source),
                offset,
            };
            let text = c.encode();
            assert!(!text.is_empty());
            assert_eq!(AppCursor::decode(&text), Some(c));
            assert_eq!(decode_cursor(ListId::Resources, &text), None);
            assert_eq!(decode_host_cursor(&text), None);
        }
        let key = encode_cursor(ListId::Tools, "a");
        for bad in ["", "50", "!!", "AQY", key.as_str()] {
            assert_eq!(AppCursor::decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn pages_resume_after_the_key() {
        let mut map: VecMap<String, u32> = VecMap::new();
        for i in 0..7 {
            map.insert(alloc::format!("k{i}"), i);
        }
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
