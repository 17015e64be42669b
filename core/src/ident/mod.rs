//! Stable identifiers for every enum that crosses into a binding (docs/server-machine.md
//! §Bindings): one `snake_case` name per variant, never changed once released.
//!
//! Each enum listed here gets two items from one table, so they cannot drift apart:
//!
//! * `ident(&self) -> &'static str`: the variant's identifier, an exhaustive `match` (this
//!   module is inside the crate, so `#[non_exhaustive]` enums need no `_ =>` arm: a new
//!   variant does not compile until it gets its identifier here);
//! * `IDENTS: &[&str]`: every identifier of the enum, in declaration order.
//!
//! Bindings take their spellings from these functions instead of `Debug` output or their own
//! tables: Python uses the identifier as is (`"stream_closed"`), Node and Swift in
//! lowerCamelCase (`"streamClosed"`), Node error codes as `ERR_` + upper case. Each binding
//! has a table test that walks `IDENTS` and fails when the binding does not know one.
//! [`ParseErrorKind::ident`](crate::template::ParseErrorKind::ident) and
//! [`ExpandError::ident`](crate::template::ExpandError::ident) predate this module and live
//! next to their enums; their `IDENTS` tables are here.

use crate::cache::{CacheKey, Invalidation, KeyError, ListKind as CacheListKind};
use crate::context::{Budget, ContextError, Role};
use crate::http::{HeaderProblem, OriginError};
use crate::template::{
    CompileErrorKind, ExpandError, InsertError, MatchError, ParseErrorKind, PatternError,
};

/// `impl Type { IDENTS; ident() }` (`Type<'_>` for borrowing enums) from one `pattern => "ident"` table.
macro_rules! idents {
    ($(#[$doc:meta])* $ty:ty { $($pat:pat => $id:literal,)+ }) => {
        $(#[$doc])*
        impl $ty {
            /// Every identifier of this enum, in declaration order (see [`crate::ident`]).
            pub const IDENTS: &'static [&'static str] = &[$($id),+];

            /// The variant's stable `snake_case` identifier (see [`crate::ident`]).
            #[must_use]
            pub const fn ident(&self) -> &'static str {
                match self {
                    $($pat => $id,)+
                }
            }
        }
    };
}

// ---- cache -------------------------------------------------------------------------------

idents!(CacheListKind {
    Self::Resources => "resources",
    Self::ResourceTemplates => "resource_templates",
    Self::Prompts => "prompts",
    Self::Tools => "tools",
});

idents!(CacheKey<'_> {
    Self::Discover => "discover",
    Self::List { .. } => "list",
    Self::Read { .. } => "read",
});

idents!(KeyError {
    Self::NotCacheable => "not_cacheable",
    Self::MissingUri => "missing_uri",
});

idents!(Invalidation<'_> {
    Self::ResourceUpdated { .. } => "resource_updated",
    Self::ResourcesListChanged => "resources_list_changed",
    Self::PromptsListChanged => "prompts_list_changed",
    Self::ToolsListChanged => "tools_list_changed",
    Self::CursorRejected { .. } => "cursor_rejected",
});

idents!(crate::cache::Attempt {
    Self::Original => "original",
    Self::Retry => "retry",
});

idents!(crate::cache::Refused {
    Self::Retry => "retry",
    Self::ImmediatelyStale => "immediately_stale",
    Self::TooLarge => "too_large",
});

// ---- context, HTTP, templates ------------------------------------------------------------

idents!(Role {
    Self::User => "user",
    Self::Assistant => "assistant",
});

idents!(Budget {
    Self::Bytes(_) => "bytes",
    Self::Tokens(_) => "tokens",
});

idents!(ContextError {
    Self::BufferTooSmall { .. } => "buffer_too_small",
});

idents!(HeaderProblem {
    Self::Missing => "missing",
    Self::InvalidCharacters => "invalid_characters",
    Self::MalformedEncoding => "malformed_encoding",
    Self::Mismatch => "mismatch",
});

idents!(OriginError {
    Self::MissingHost => "missing_host",
    Self::MalformedHost => "malformed_host",
    Self::HostNotAllowed => "host_not_allowed",
    Self::NullOrigin => "null_origin",
    Self::MalformedOrigin => "malformed_origin",
    Self::OriginNotAllowed => "origin_not_allowed",
});

idents!(CompileErrorKind {
    Self::AdjacentVariables => "adjacent_variables",
    Self::ExplodeNotLast => "explode_not_last",
    Self::AmbiguousList => "ambiguous_list",
    Self::AmbiguousOptional => "ambiguous_optional",
    Self::ContinuationOutsideQuery => "continuation_outside_query",
    Self::QueryOperatorInQuery => "query_operator_in_query",
    Self::UnsupportedQueryShape => "unsupported_query_shape",
    Self::DuplicateQueryParam => "duplicate_query_param",
    Self::TooManyQueryParams => "too_many_query_params",
    Self::QueryInFragment => "query_in_fragment",
    Self::NestedFragment => "nested_fragment",
    Self::FragmentNotLast => "fragment_not_last",
    Self::CapacityExceeded => "capacity_exceeded",
});

idents!(PatternError {
    Self::Parse(_) => "parse",
    Self::Compile(_) => "compile",
});

idents!(MatchError {
    Self::NoMatch => "no_match",
    Self::TooManyVariables { .. } => "too_many_variables",
});

idents!(InsertError {
    Self::Parse(_) => "parse",
    Self::Compile(_) => "compile",
    Self::Indistinguishable { .. } => "indistinguishable",
    Self::Shadowed { .. } => "shadowed",
    Self::CapacityExceeded => "capacity_exceeded",
});

impl ParseErrorKind {
    /// Every [`ParseErrorKind::ident`], in declaration order (see [`crate::ident`]).
    pub const IDENTS: &'static [&'static str] = &[
        "unclosed_expression",
        "unexpected_brace",
        "empty_expression",
        "reserved_operator",
        "invalid_var_name",
        "empty_var_name",
        "invalid_prefix",
        "invalid_modifier",
        "invalid_literal",
        "invalid_percent_encoding",
        "capacity_exceeded",
        "too_long",
    ];
}

impl ExpandError {
    /// Every [`ExpandError::ident`], in declaration order (see [`crate::ident`]).
    pub const IDENTS: &'static [&'static str] =
        &["prefix_on_composite", "buffer_too_small", "write_failed"];
}

#[cfg(feature = "alloc")]
mod client;
#[cfg(feature = "alloc")]
mod server;

/// Every enum with identifiers, by its path under the crate, with its [`IDENTS`] table: the
/// list bindings walk in their table tests.
///
/// [`IDENTS`]: crate::server::CancelReason::IDENTS
#[cfg(feature = "alloc")]
pub const TABLES: &[(&str, &[&str])] = {
    use crate::{cache, client, context, http, messages, server, template};
    &[
        ("cache::Attempt", cache::Attempt::IDENTS),
        ("cache::CacheKey", cache::CacheKey::IDENTS),
        ("cache::Invalidation", cache::Invalidation::IDENTS),
        ("cache::KeyError", cache::KeyError::IDENTS),
        ("cache::ListKind", cache::ListKind::IDENTS),
        ("cache::Lookup", cache::Lookup::IDENTS),
        ("cache::Refused", cache::Refused::IDENTS),
        ("client::CachePolicy", client::CachePolicy::IDENTS),
        ("client::CallError", client::CallError::IDENTS),
        ("client::ClientError", client::ClientError::IDENTS),
        ("client::CompletionRef", client::CompletionRef::IDENTS),
        ("client::ConfigError", client::ConfigError::IDENTS),
        ("client::ConnectError", client::ConnectError::IDENTS),
        ("client::EndReason", client::EndReason::IDENTS),
        ("client::Era", client::Era::IDENTS),
        ("client::Event", client::Event::IDENTS),
        ("client::ListMode", client::ListMode::IDENTS),
        ("client::Notice", client::Notice::IDENTS),
        ("client::Output", client::Output::IDENTS),
        ("client::PeerError", client::PeerError::IDENTS),
        ("client::ServerError", client::ServerError::IDENTS),
        ("client::Transport", client::Transport::IDENTS),
        ("context::Budget", context::Budget::IDENTS),
        ("context::ContextError", context::ContextError::IDENTS),
        ("context::Role", context::Role::IDENTS),
        ("http::HeaderProblem", http::HeaderProblem::IDENTS),
        ("http::OriginError", http::OriginError::IDENTS),
        (
            "messages::owned::ListKind",
            messages::owned::ListKind::IDENTS,
        ),
        ("server::BodyKind", server::BodyKind::IDENTS),
        ("server::CancelReason", server::CancelReason::IDENTS),
        ("server::CompletionTarget", server::CompletionTarget::IDENTS),
        ("server::ConfigError", server::ConfigError::IDENTS),
        ("server::Event", server::Event::IDENTS),
        ("server::Failure", server::Failure::IDENTS),
        ("server::Listed", server::Listed::IDENTS),
        ("server::Output", server::Output::IDENTS),
        ("server::ReadTarget", server::ReadTarget::IDENTS),
        ("server::Received", server::Received::IDENTS),
        ("server::RegisterError", server::RegisterError::IDENTS),
        ("server::RespondError", server::RespondError::IDENTS),
        ("server::Transport", server::Transport::IDENTS),
        (
            "template::CompileErrorKind",
            template::CompileErrorKind::IDENTS,
        ),
        ("template::ExpandError", template::ExpandError::IDENTS),
        ("template::InsertError", template::InsertError::IDENTS),
        ("template::MatchError", template::MatchError::IDENTS),
        ("template::ParseErrorKind", template::ParseErrorKind::IDENTS),
        ("template::PatternError", template::PatternError::IDENTS),
    ]
};

#[cfg(all(test, feature = "alloc"))]
mod tests;
