//! Built-in completion from a registered value set (docs/rules.md §10): candidates that start with
//! what the user typed, exact-case prefix matches first, then ASCII-case-insensitive ones,
//! each group in the set's relevance order; at most 100 values, with `total` and `hasMore`
//! (docs/rules.md §16.6 rule 39).

use alloc::string::String;

use crate::messages::owned::OwnedCompleteResult;

fn folded_prefix(value: &str, prefix: &str) -> bool {
    value
        .get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
}

/// The completion of `typed` from `values`.
///
/// ```
/// use mcp_context::server::complete_from;
/// let set = ["python".into(), "Pascal".into(), "perl".into(), "rust".into()];
/// let r = complete_from(&set, "p");
/// assert_eq!(r.values, ["python", "perl", "Pascal"]);
/// assert_eq!((r.total, r.has_more), (Some(3), Some(false)));
/// ```
#[must_use]
pub fn complete_from(values: &[String], typed: &str) -> OwnedCompleteResult {
    let exact = values.iter().filter(|v| v.starts_with(typed));
    let folded = values
        .iter()
        .filter(|v| !v.starts_with(typed) && folded_prefix(v, typed));
    OwnedCompleteResult::from_candidates(exact.chain(folded).cloned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::vec::Vec;

    #[test]
    fn caps_at_100_with_total() {
        let set: Vec<String> = (0..250).map(|i| format!("v{i:03}")).collect();
        let r = complete_from(&set, "v");
        assert_eq!(r.values.len(), 100);
        assert_eq!((r.total, r.has_more), (Some(250), Some(true)));
        assert_eq!(r.values.first().map(String::as_str), Some("v000"));
        let r = complete_from(&set, "v24");
        assert_eq!(r.values.len(), 10);
        assert_eq!((r.total, r.has_more), (Some(10), Some(false)));
        let r = complete_from(&set, "zz");
        assert!(r.values.is_empty());
        let r = complete_from(&["é".into()], "\u{65}");
        assert!(r.values.is_empty());
    }
}
