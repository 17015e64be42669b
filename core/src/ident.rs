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

// ---- server machine ----------------------------------------------------------------------

#[cfg(feature = "alloc")]
mod server_idents {
    use crate::server::{
        BodyKind, CancelReason, CompletionTarget, ConfigError, Event, Failure, Listed, Output,
        ReadTarget, Received, RegisterError, RespondError, Transport,
    };

    idents!(Event {
        Self::ReadResource(_) => "read_resource",
        Self::GetPrompt(_) => "get_prompt",
        Self::Complete(_) => "complete",
        Self::Request(_) => "request",
        Self::ListResources(_) => "list_resources",
        Self::Cancelled { .. } => "cancelled",
        Self::StreamOverflow { .. } => "stream_overflow",
    });

    idents!(ReadTarget {
        Self::Resource => "resource",
        Self::Template { .. } => "template",
        Self::Unlisted => "unlisted",
    });

    idents!(CompletionTarget {
        Self::Prompt(_) => "prompt",
        Self::Template(_) => "template",
    });

    idents!(CancelReason {
        Self::Client => "client",
        Self::StreamClosed => "stream_closed",
        Self::TimedOut => "timed_out",
    });

    idents!(Received {
        Self::Request => "request",
        Self::Notification => "notification",
        Self::Response => "response",
        Self::Invalid => "invalid",
    });

    idents!(BodyKind {
        Self::Json => "json",
        Self::Sse => "sse",
    });

    idents!(Transport {
        Self::Stdio => "stdio",
        Self::Http => "http",
    });

    idents!(Output {
        Self::Transmit(_) => "transmit",
        Self::Event(_) => "event",
    });

    idents!(Listed<'_> {
        Self::Resource(_) => "resource",
        Self::Template(_) => "template",
        Self::Prompt(_) => "prompt",
    });

    idents!(Failure {
        Self::NotFound => "not_found",
        Self::InvalidParams(_) => "invalid_params",
        Self::Internal => "internal",
        Self::Application { .. } => "application",
    });

    idents!(RegisterError {
        Self::Duplicate => "duplicate",
        Self::InvalidUri(_) => "invalid_uri",
        Self::InvalidTemplate(_) => "invalid_template",
        Self::Router(_) => "router",
        Self::UnknownArgument => "unknown_argument",
        Self::CoreMethod => "core_method",
        Self::CoreCapability => "core_capability",
        Self::NotAnObject => "not_an_object",
    });

    idents!(RespondError {
        Self::UnknownHandle => "unknown_handle",
        Self::WrongKind => "wrong_kind",
        Self::InvalidInputRequests => "invalid_input_requests",
        Self::NoStateKey => "no_state_key",
        Self::ClientLacksCapability => "client_lacks_capability",
        Self::InvalidResult => "invalid_result",
        Self::InvalidProgress => "invalid_progress",
    });

    idents!(ConfigError {
        Self::NoSupportedVersion => "no_supported_version",
        Self::ZeroCapacity => "zero_capacity",
        Self::StateKeyTooShort => "state_key_too_short",
    });
}

// ---- client machine and cache store -------------------------------------------------------

#[cfg(feature = "alloc")]
mod client_idents {
    use crate::cache::Lookup;
    use crate::client::{
        CachePolicy, CallError, ClientError, CompletionRef, ConfigError, ConnectError, EndReason,
        Era, Event, ListMode, Notice, Output, PeerError, ServerError, Transport,
    };
    use crate::messages::owned::ListKind;

    idents!(Lookup<'_> {
        Self::Fresh(_) => "fresh",
        Self::Stale(_) => "stale",
        Self::Miss => "miss",
    });

    idents!(ListKind {
        Self::Resources => "resources",
        Self::Prompts => "prompts",
        Self::Tools => "tools",
    });

    idents!(Event {
        Self::Connected(_) => "connected",
        Self::ConnectFailed(_) => "connect_failed",
        Self::Discovered { .. } => "discovered",
        Self::ResourcesListed { .. } => "resources_listed",
        Self::TemplatesListed { .. } => "templates_listed",
        Self::PromptsListed { .. } => "prompts_listed",
        Self::ResourceRead { .. } => "resource_read",
        Self::PromptFetched { .. } => "prompt_fetched",
        Self::Completed { .. } => "completed",
        Self::InputRequired { .. } => "input_required",
        Self::Responded { .. } => "responded",
        Self::Failed { .. } => "failed",
        Self::Acknowledged { .. } => "acknowledged",
        Self::Notified { .. } => "notified",
        Self::SubscriptionEnded { .. } => "subscription_ended",
        Self::UnknownResponse { .. } => "unknown_response",
        Self::PeerError(_) => "peer_error",
    });

    idents!(Output {
        Self::Transmit(_) => "transmit",
        Self::CloseStream { .. } => "close_stream",
        Self::Event(_) => "event",
    });

    idents!(Era {
        Self::Modern => "modern",
        Self::Legacy => "legacy",
    });

    idents!(Notice {
        Self::ResourceUpdated { .. } => "resource_updated",
        Self::ResourcesListChanged => "resources_list_changed",
        Self::PromptsListChanged => "prompts_list_changed",
        Self::ToolsListChanged => "tools_list_changed",
    });

    idents!(EndReason {
        Self::Graceful => "graceful",
        Self::CancelledByServer => "cancelled_by_server",
        Self::UnexpectedClose { .. } => "unexpected_close",
    });

    idents!(ServerError {
        Self::ResourceNotFound { .. } => "resource_not_found",
        Self::UnsupportedProtocolVersion { .. } => "unsupported_protocol_version",
        Self::MissingRequiredClientCapability { .. } => "missing_required_client_capability",
        Self::MethodNotFound { .. } => "method_not_found",
        Self::InvalidParams { .. } => "invalid_params",
        Self::Internal { .. } => "internal",
        Self::Other { .. } => "other",
    });

    idents!(ConnectError {
        Self::NoCommonVersion => "no_common_version",
        Self::LegacyDisabled => "legacy_disabled",
        Self::Rejected(_) => "rejected",
        Self::Timeout => "timeout",
        Self::InvalidResult(_) => "invalid_result",
        Self::Closed => "closed",
    });

    idents!(CallError {
        Self::Server(_) => "server",
        Self::Timeout => "timeout",
        Self::Closed => "closed",
        Self::InvalidResult(_) => "invalid_result",
        Self::TooManyInputRounds => "too_many_input_rounds",
        Self::NotConnected(_) => "not_connected",
        Self::UnsupportedInEra => "unsupported_in_era",
        Self::CancelledByServer => "cancelled_by_server",
        Self::Unencodable => "unencodable",
        Self::Undeliverable => "undeliverable",
    });

    idents!(ClientError {
        Self::UnknownCall => "unknown_call",
        Self::NotAwaitingInput => "not_awaiting_input",
        Self::MissingInputResponse => "missing_input_response",
        Self::UnexpectedInputResponse => "unexpected_input_response",
        Self::InputResponseNotObject => "input_response_not_object",
        Self::Encode => "encode",
        Self::OwnedMethod => "owned_method",
        Self::InvalidMethodName => "invalid_method_name",
        Self::ParamsNotObject => "params_not_object",
        Self::RejectedTool => "rejected_tool",
    });

    idents!(PeerError {
        Self::Malformed(_) => "malformed",
        Self::InvalidNotification(_) => "invalid_notification",
        Self::UnexpectedRequest => "unexpected_request",
        Self::UnknownSubscription => "unknown_subscription",
        Self::NotificationBeforeAck => "notification_before_ack",
        Self::UnrequestedNotification => "unrequested_notification",
        Self::SubscriptionIdMismatch => "subscription_id_mismatch",
        Self::AckExceedsRequest => "ack_exceeds_request",
        Self::InvalidCancellation => "invalid_cancellation",
        Self::ErrorWithoutId(_) => "error_without_id",
    });

    idents!(ConfigError {
        Self::NoVersions => "no_versions",
        Self::EmptyVersion => "empty_version",
        Self::InvalidCapabilities => "invalid_capabilities",
        Self::ZeroLimit => "zero_limit",
    });

    idents!(Transport {
        Self::Stdio => "stdio",
        Self::Http => "http",
    });

    idents!(ListMode {
        Self::Page(_) => "page",
        Self::All => "all",
    });

    idents!(CachePolicy {
        Self::PreferCache => "prefer_cache",
        Self::Refresh => "refresh",
    });

    idents!(CompletionRef {
        Self::Prompt(_) => "prompt",
        Self::Resource(_) => "resource",
    });
}

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
mod tests {
    use super::TABLES;

    #[test]
    fn every_table_is_snake_case_unique_and_nonempty() {
        for (name, idents) in TABLES {
            assert!(!idents.is_empty(), "{name}");
            for id in *idents {
                assert!(
                    !id.is_empty()
                        && id.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
                        && !id.starts_with('_')
                        && !id.ends_with('_')
                        && !id.contains("__"),
                    "{name}: {id:?} is not snake_case"
                );
            }
            let mut sorted: std::vec::Vec<&str> = idents.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), idents.len(), "{name}: duplicate identifier");
        }
        let mut names: std::vec::Vec<&str> = TABLES.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TABLES.len(), "an enum is listed twice");
    }

    /// `IDENTS` and `ident()` come from one table; this pins what bindings expose (changing
    /// a spelling is a breaking change) and checks `ident()` on a value of every variant.
    #[test]
    fn identifiers_are_stable() {
        use crate::server::{CancelReason, Received};
        use crate::template::{ExpandError, ParseErrorKind};

        let table = |n: &str| {
            TABLES
                .iter()
                .find(|(name, _)| *name == n)
                .map(|(_, t)| *t)
                .unwrap_or_default()
        };
        assert_eq!(
            table("server::CancelReason"),
            ["client", "stream_closed", "timed_out"]
        );
        assert_eq!(
            [
                CancelReason::Client,
                CancelReason::StreamClosed,
                CancelReason::TimedOut
            ]
            .map(|r| r.ident()),
            ["client", "stream_closed", "timed_out"]
        );
        assert_eq!(
            table("server::Received"),
            ["request", "notification", "response", "invalid"]
        );
        assert_eq!(Received::Invalid.ident(), "invalid");
        assert_eq!(
            table("server::Event"),
            [
                "read_resource",
                "get_prompt",
                "complete",
                "request",
                "list_resources",
                "cancelled",
                "stream_overflow"
            ]
        );
        assert_eq!(table("server::BodyKind"), ["json", "sse"]);
        assert_eq!(table("server::Transport"), ["stdio", "http"]);
        assert_eq!(table("client::Transport"), ["stdio", "http"]);
        assert_eq!(
            table("client::Event"),
            [
                "connected",
                "connect_failed",
                "discovered",
                "resources_listed",
                "templates_listed",
                "prompts_listed",
                "resource_read",
                "prompt_fetched",
                "completed",
                "input_required",
                "responded",
                "failed",
                "acknowledged",
                "notified",
                "subscription_ended",
                "unknown_response",
                "peer_error"
            ]
        );
        // The two tables written by hand next to their enums agree with `ident()`.
        let kinds = [
            ParseErrorKind::UnclosedExpression,
            ParseErrorKind::UnexpectedBrace,
            ParseErrorKind::EmptyExpression,
            ParseErrorKind::ReservedOperator,
            ParseErrorKind::InvalidVarName,
            ParseErrorKind::EmptyVarName,
            ParseErrorKind::InvalidPrefix,
            ParseErrorKind::InvalidModifier,
            ParseErrorKind::InvalidLiteral,
            ParseErrorKind::InvalidPercentEncoding,
            ParseErrorKind::CapacityExceeded,
            ParseErrorKind::TooLong,
        ];
        assert_eq!(
            kinds.map(ParseErrorKind::ident).as_slice(),
            ParseErrorKind::IDENTS
        );
        assert_eq!(
            [
                ExpandError::PrefixOnComposite { at: 0 },
                ExpandError::BufferTooSmall { needed: 0 },
                ExpandError::Write
            ]
            .map(ExpandError::ident)
            .as_slice(),
            ExpandError::IDENTS
        );
    }

    /// `ident()` of values built through the machines' public API (not constructed here)
    /// lands in the enum's table.
    #[test]
    fn values_from_the_machine_are_in_their_tables() {
        use crate::server::{Ctx, Received, Server, ServerConfig, StreamId};
        let mut server = Server::new(ServerConfig::default()).unwrap_or_else(|e| panic!("{e}"));
        let got = server.handle_message(b"{", 0, Ctx::stdio(StreamId(0)));
        assert_eq!(got, Received::Invalid);
        assert!(Received::IDENTS.contains(&got.ident()));
        let out = server.poll_output().unwrap_or_else(|| panic!("no output"));
        assert_eq!(out.ident(), "transmit");
        if let crate::server::Output::Transmit(t) = out {
            assert_eq!(t.kind.ident(), "json");
        }
    }
}
