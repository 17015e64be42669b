//! Context selection: which resources to attach to a model's context within a budget, using
//! the annotations the spec provides for exactly this ("Clients can use them to filter by
//! audience, rank by priority, and sort by recency", docs/rules.md §14.3).
//!
//! # The rule
//!
//! [`select`] is a pure, deterministic function of its inputs:
//!
//! 1. **Filter by audience.** With a target role, keep a candidate whose `audience` is absent
//!    (suitable for all) or contains the role; an explicit empty audience suits nobody.
//!    Without a target, keep all.
//! 2. **Cost.** With a byte budget the cost is `size`; with a token budget it is `tokens`,
//!    else `size` / [`BYTES_PER_TOKEN`] rounded up. A candidate with no cost (no `size`, and
//!    no token estimate for a token budget) is never chosen: it could not be proven to fit.
//! 3. **Order**: `priority` descending (an absent or NaN priority counts as 0.5, the midpoint
//!    between "entirely optional" 0 and "effectively required" 1; out-of-range values are
//!    clamped to `[0, 1]`); then `lastModified` descending, parsed as RFC 3339 so offsets
//!    compare correctly ([`Timestamp`]), absent or invalid last; then `uri` ascending
//!    (bytewise); then the remaining fields (raw `lastModified`, cost, `size`, `tokens`), so
//!    that only identical candidates tie and the result does not depend on input order.
//! 4. **Fill greedily, skip and continue**: walk the order and take every candidate whose
//!    cost fits in what is left. A candidate that does not fit is skipped and smaller later
//!    ones may still be taken. So: never over budget, and no skipped candidate would fit in
//!    what is left at the end.
//!
//! No allocation: the chosen indices are written into a caller slice, in selection order.
//!
//! ```
//! use mcp_context::context::{select, Audience, Budget, Candidate, Role};
//!
//! let c = [
//!     Candidate { uri: "file:///a", size: Some(600), priority: Some(0.9), ..Candidate::default() },
//!     Candidate { uri: "file:///b", size: Some(500), priority: Some(0.8), ..Candidate::default() },
//!     Candidate { uri: "file:///c", size: Some(300), priority: Some(0.1), ..Candidate::default() },
//!     Candidate { uri: "file:///d", size: Some(10), audience: Some(Audience::USER), ..Candidate::default() },
//! ];
//! let mut out = [0usize; 4];
//! let s = select(&c, Budget::Bytes(1000), Some(Role::Assistant), &mut out).unwrap();
//! assert_eq!(&out[..s.count], &[0, 2]); // b does not fit after a; c does; d is for users
//! assert_eq!(s.used, 900);
//! ```

mod time;

pub use time::Timestamp;

use core::cmp::Ordering;
use core::fmt;

/// Bytes per token for the estimate used when a candidate has a size but no token count.
pub const BYTES_PER_TOKEN: u64 = 4;

/// A role of the `audience` annotation (docs/rules.md §14.3: `"user"` or `"assistant"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// `"user"`.
    User,
    /// `"assistant"`.
    Assistant,
}

impl Role {
    /// The wire value `"user"` / `"assistant"`; `None` for anything else.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "user" => Some(Self::User),
            "assistant" => Some(Self::Assistant),
            _ => None,
        }
    }
}

/// A present `audience` annotation as a set of roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Audience {
    user: bool,
    assistant: bool,
}

impl Audience {
    /// `[]`: suits nobody.
    pub const NONE: Self = Self {
        user: false,
        assistant: false,
    };
    /// `["user"]`.
    pub const USER: Self = Self {
        user: true,
        assistant: false,
    };
    /// `["assistant"]`.
    pub const ASSISTANT: Self = Self {
        user: false,
        assistant: true,
    };
    /// `["user", "assistant"]`.
    pub const BOTH: Self = Self {
        user: true,
        assistant: true,
    };

    /// The set named by the wire strings; unknown strings are ignored (an array of only
    /// unknown roles suits nobody, like `[]`).
    pub fn from_roles<'s>(roles: impl IntoIterator<Item = &'s str>) -> Self {
        roles
            .into_iter()
            .filter_map(Role::parse)
            .fold(Self::NONE, |a, r| a.with(r))
    }

    /// This set plus `role`.
    #[must_use]
    pub const fn with(self, role: Role) -> Self {
        match role {
            Role::User => Self { user: true, ..self },
            Role::Assistant => Self {
                assistant: true,
                ..self
            },
        }
    }

    /// Whether `role` is in the set.
    #[must_use]
    pub const fn contains(self, role: Role) -> bool {
        match role {
            Role::User => self.user,
            Role::Assistant => self.assistant,
        }
    }
}

/// One resource that could be attached, with the fields selection reads (docs/rules.md §5
/// `Resource.uri`, `size`, `annotations`; §14.3).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Candidate<'a> {
    /// `Resource.uri`.
    pub uri: &'a str,
    /// `Resource.size`: raw bytes, before any base64.
    pub size: Option<u64>,
    /// The host's token estimate, if it has one.
    pub tokens: Option<u64>,
    /// `annotations.audience`; `None` when absent (suits every role).
    pub audience: Option<Audience>,
    /// `annotations.priority`, nominally in `[0, 1]`.
    pub priority: Option<f64>,
    /// `annotations.lastModified`, RFC 3339.
    pub last_modified: Option<&'a str>,
}

/// The budget to fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// At most this many bytes (sum of `size`).
    Bytes(u64),
    /// At most this many tokens (sum of `tokens`, or estimated from `size`).
    Tokens(u64),
}

/// The outcome of [`select`]: `out[..count]` holds the chosen indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection {
    /// How many indices were written.
    pub count: usize,
    /// The budget they use, in the budget's unit.
    pub used: u64,
}

/// [`select`] was given too small an output slice (caller error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContextError {
    /// `out` must hold at least `needed` indices (one per candidate: it is also the sort
    /// scratch).
    BufferTooSmall {
        /// The length `out` must have.
        needed: usize,
    },
}

impl fmt::Display for ContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BufferTooSmall { needed } => {
                write!(f, "index buffer too small: {needed} slots needed")
            }
        }
    }
}

impl core::error::Error for ContextError {}

impl Candidate<'_> {
    /// This candidate's cost under `budget` (rule 2 of the module docs).
    #[must_use]
    pub fn cost(&self, budget: Budget) -> Option<u64> {
        match budget {
            Budget::Bytes(_) => self.size,
            Budget::Tokens(_) => self
                .tokens
                .or_else(|| self.size.map(|s| s.div_ceil(BYTES_PER_TOKEN))),
        }
    }

    fn suits(&self, target: Option<Role>) -> bool {
        match (target, self.audience) {
            (Some(role), Some(a)) => a.contains(role),
            _ => true,
        }
    }

    fn rank_priority(&self) -> f64 {
        match self.priority {
            Some(p) if !p.is_nan() => p.clamp(0.0, 1.0),
            _ => 0.5,
        }
    }
}

/// The total order of rule 3: `Less` means "considered first".
fn order(a: &Candidate<'_>, b: &Candidate<'_>, budget: Budget) -> Ordering {
    let time = |c: &Candidate<'_>| c.last_modified.and_then(Timestamp::parse_rfc3339);
    b.rank_priority()
        .total_cmp(&a.rank_priority())
        .then_with(|| time(b).cmp(&time(a))) // Some > None, so absent/invalid sort last
        .then_with(|| a.uri.cmp(b.uri))
        .then_with(|| a.last_modified.cmp(&b.last_modified))
        .then_with(|| a.cost(budget).cmp(&b.cost(budget)))
        .then_with(|| a.size.cmp(&b.size))
        .then_with(|| a.tokens.cmp(&b.tokens))
        // Fields that only matter for filtering or that rank equal (absent vs NaN priority)
        // still break ties, so the order never depends on input order.
        .then_with(|| a.audience.cmp(&b.audience))
        .then_with(|| {
            a.priority
                .map(f64::to_bits)
                .cmp(&b.priority.map(f64::to_bits))
        })
}

/// Chooses candidates to attach (rules in the module docs), writing their indices into
/// `out` in selection order.
///
/// # Errors
/// [`ContextError::BufferTooSmall`] if `out` is shorter than `candidates`.
pub fn select(
    candidates: &[Candidate<'_>],
    budget: Budget,
    target: Option<Role>,
    out: &mut [usize],
) -> Result<Selection, ContextError> {
    let needed = candidates.len();
    let out = out
        .get_mut(..needed)
        .ok_or(ContextError::BufferTooSmall { needed })?;
    let mut eligible = 0;
    for (i, c) in candidates.iter().enumerate() {
        if c.suits(target)
            && c.cost(budget).is_some()
            && let Some(slot) = out.get_mut(eligible)
        {
            *slot = i;
            eligible += 1;
        }
    }
    let ranked = out.get_mut(..eligible).unwrap_or(&mut []);
    let get = |i: usize| candidates.get(i).copied().unwrap_or_default();
    ranked.sort_unstable_by(|&i, &j| order(&get(i), &get(j), budget));
    let limit = match budget {
        Budget::Bytes(n) | Budget::Tokens(n) => n,
    };
    let mut count = 0;
    let mut used = 0u64;
    for k in 0..eligible {
        let Some(&i) = ranked.get(k) else { break };
        let cost = get(i).cost(budget).unwrap_or(u64::MAX);
        if cost <= limit - used {
            used += cost;
            if let Some(slot) = ranked.get_mut(count) {
                *slot = i;
            }
            count += 1;
        }
    }
    Ok(Selection { count, used })
}

/// [`select`] returning the chosen indices as a `Vec`.
#[cfg(feature = "alloc")]
#[must_use]
pub fn select_vec(
    candidates: &[Candidate<'_>],
    budget: Budget,
    target: Option<Role>,
) -> alloc::vec::Vec<usize> {
    let mut out = alloc::vec![0; candidates.len()];
    let count = select(candidates, budget, target, &mut out).map_or(0, |s| s.count);
    out.truncate(count);
    out
}

#[cfg(test)]
mod tests;
