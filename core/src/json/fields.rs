//! Crate-internal helper: walk an object's members once, matching keys against a fixed list
//! of known names, skipping unknown keys and refusing duplicates of known ones.

use super::string::JsonStr;
use super::value::{ObjectIter, RawJson};

/// Members of one object, matched against `names` (at most 64).
pub(crate) struct Fields<'a> {
    iter: ObjectIter<'a>,
    names: &'static [&'static str],
    seen: u64,
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
            if let Some((i, name)) = find(self.names, key) {
                let bit = 1u64 << (i % 64);
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

/// The index of the name `key` decodes to, when it has escapes (an unescaped key was
/// already compared in place by the cursor).
pub(crate) fn find_index(names: &[&str], key: JsonStr<'_>) -> Option<usize> {
    if key.has_escapes() {
        names.iter().position(|n| key.eq_str(n))
    } else {
        None
    }
}
