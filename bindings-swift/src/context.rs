//! Context selection (docs/rules.md §14.3): which resources to attach within a budget, by audience,
//! priority and recency. The rule is the core's `context::select`.

use mcp_context::context::{self, Audience, Budget, Candidate, Role as CoreRole};

/// A role of the `audience` annotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Role {
    /// `"user"`
    User,
    /// `"assistant"`
    Assistant,
}

impl From<Role> for CoreRole {
    fn from(r: Role) -> Self {
        match r {
            Role::User => Self::User,
            Role::Assistant => Self::Assistant,
        }
    }
}

/// One resource that could be attached.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct ContextCandidate {
    /// `Resource.uri`
    pub uri: String,
    /// `Resource.size`: raw bytes.
    pub size: Option<u64>,
    /// The host's token estimate, if it has one.
    pub tokens: Option<u64>,
    /// `annotations.audience`; `nil` when absent (suits every role), `[]` suits nobody.
    pub audience: Option<Vec<Role>>,
    /// `annotations.priority`, nominally in `[0, 1]`.
    pub priority: Option<f64>,
    /// `annotations.lastModified` (RFC 3339).
    pub last_modified: Option<String>,
}

/// The budget to fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum ContextBudget {
    /// At most this many bytes (sum of `size`).
    Bytes {
        /// The limit.
        limit: u64,
    },
    /// At most this many tokens (`tokens`, or estimated from `size`).
    Tokens {
        /// The limit.
        limit: u64,
    },
}

/// The chosen candidates: indices into the input, in selection order.
#[uniffi::export]
pub fn select_context(
    candidates: Vec<ContextCandidate>,
    budget: ContextBudget,
    target: Option<Role>,
) -> Vec<u64> {
    let core: Vec<Candidate<'_>> = candidates
        .iter()
        .map(|c| Candidate {
            uri: &c.uri,
            size: c.size,
            tokens: c.tokens,
            audience: c.audience.as_ref().map(|roles| {
                roles
                    .iter()
                    .fold(Audience::NONE, |a, r| a.with((*r).into()))
            }),
            priority: c.priority,
            last_modified: c.last_modified.as_deref(),
        })
        .collect();
    let budget = match budget {
        ContextBudget::Bytes { limit } => Budget::Bytes(limit),
        ContextBudget::Tokens { limit } => Budget::Tokens(limit),
    };
    context::select_vec(&core, budget, target.map(Into::into))
        .into_iter()
        .map(|i| u64::try_from(i).unwrap_or(u64::MAX))
        .collect()
}
