//! The core's identifier tables (`mcp_context::ident`), for the binding's table tests.
//!
//! Swift spells every case in lowerCamelCase of the core's `snake_case` identifier
//! (`stream_closed` → `.streamClosed`); the Rust enums here in UpperCamelCase, which uniffi
//! turns into the same Swift names. A core variant this binding does not know yet arrives as
//! the enum's `other` case carrying the core's identifier (`ServerEvent.other(kind:)`,
//! `ClientEvent.other(kind:)`), never as a `Debug` rendering. The tests below (Rust) and
//! `IdentifierTests.swift` (Swift) fail when a core table and a binding enum disagree.

use mcp_context::ident::TABLES;

/// The names of the core's identifier tables, e.g. `"server::CancelReason"`.
#[uniffi::export]
pub fn core_identifier_tables() -> Vec<String> {
    TABLES.iter().map(|(name, _)| (*name).to_owned()).collect()
}

/// The core's identifiers of one enum, in declaration order (`snake_case`, e.g.
/// `["client", "stream_closed", "timed_out"]` for `"server::CancelReason"`); empty for an
/// unknown table name.
#[uniffi::export]
pub fn core_identifiers(table: String) -> Vec<String> {
    TABLES
        .iter()
        .find(|(name, _)| *name == table)
        .map(|(_, idents)| idents.iter().map(|s| (*s).to_owned()).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::core_identifiers;
    use crate::*;

    /// `stream_closed` → `StreamClosed` (the Rust variant name uniffi exports).
    fn upper_camel(ident: &str) -> String {
        ident
            .split('_')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            })
            .collect()
    }

    /// A variant's name from its `Debug` rendering (test-only: the binding's own enums).
    fn name(debug: String) -> String {
        debug
            .split([' ', '(', '{'])
            .next()
            .unwrap_or_default()
            .to_owned()
    }

    fn names<T: std::fmt::Debug>(cases: &[T]) -> Vec<String> {
        cases.iter().map(|c| name(format!("{c:?}"))).collect()
    }

    fn core(table: &str) -> Vec<String> {
        let got = core_identifiers(table.to_owned());
        assert!(!got.is_empty(), "no core table {table}");
        got.iter().map(|s| upper_camel(s)).collect()
    }

    /// The binding's cases are exactly the core's, in order (plus `Other` where the binding
    /// has one for kinds added later and the core has none).
    fn same(table: &str, cases: Vec<String>) {
        let core = core(table);
        let other = core.iter().any(|c| c == "Other");
        let cases: Vec<String> = cases
            .into_iter()
            .filter(|c| other || c != "Other")
            .collect();
        assert_eq!(core, cases, "{table}");
    }

    /// Every core identifier is one of the binding's cases (enums that merge several core
    /// enums or add binding-only cases such as `InvalidJson`).
    fn covered(table: &str, cases: &[String]) {
        for id in core(table) {
            assert!(cases.contains(&id), "{table}: no case {id} in {cases:?}");
        }
    }

    #[test]
    fn flat_enums_spell_the_core_identifiers() {
        same(
            "server::CancelReason",
            names(&[
                CancelReason::Client,
                CancelReason::StreamClosed,
                CancelReason::TimedOut,
                CancelReason::Other,
            ]),
        );
        same(
            "server::Received",
            names(&[
                Received::Request,
                Received::Notification,
                Received::Response,
                Received::Invalid,
            ]),
        );
        same("server::BodyKind", names(&[BodyKind::Json, BodyKind::Sse]));
        same(
            "server::Transport",
            names(&[ServerTransport::Stdio, ServerTransport::Http]),
        );
        same(
            "client::Transport",
            names(&[ClientTransport::Stdio, ClientTransport::Http]),
        );
        same(
            "server::ConfigError",
            names(&[
                ServerConfigError::NoSupportedVersion,
                ServerConfigError::ZeroCapacity,
                ServerConfigError::StateKeyTooShort,
                ServerConfigError::InvalidProtection,
                ServerConfigError::Other,
            ]),
        );
        let respond = names(&[
            RespondError::UnknownHandle,
            RespondError::WrongKind,
            RespondError::InvalidInputRequests,
            RespondError::NoStateKey,
            RespondError::ClientLacksCapability,
            RespondError::InvalidResult,
            RespondError::InvalidProgress,
        ]);
        same("server::RespondError", respond);
        let d = String::new;
        covered(
            "server::RegisterError",
            &names(&[
                RegisterError::Duplicate,
                RegisterError::InvalidUri { description: d() },
                RegisterError::InvalidTemplate {
                    kind: TemplateParseErrorKind::Other,
                    byte_offset: 0,
                    description: d(),
                },
                RegisterError::Router { description: d() },
                RegisterError::UnknownArgument,
                RegisterError::CoreMethod,
                RegisterError::CoreCapability,
                RegisterError::NotAnObject,
                RegisterError::ToolsByMethod,
                RegisterError::UnknownScope,
            ]),
        );
        same(
            "client::CachePolicy",
            names(&[CachePolicy::PreferCache, CachePolicy::Refresh]),
        );
        same("client::Era", names(&[Era::Modern, Era::Legacy]));
        let client = names(&[
            ClientError::UnknownCall,
            ClientError::NotAwaitingInput,
            ClientError::MissingInputResponse,
            ClientError::UnexpectedInputResponse,
            ClientError::InputResponseNotObject,
            ClientError::Encode,
            ClientError::OwnedMethod,
            ClientError::InvalidMethodName,
            ClientError::ParamsNotObject,
            ClientError::RejectedTool,
            ClientError::NoVersions,
            ClientError::EmptyVersion,
            ClientError::InvalidCapabilities,
            ClientError::ZeroLimit,
        ]);
        covered("client::ClientError", &client);
        covered("client::ConfigError", &client);
        same(
            "client::PeerError",
            names(&[
                PeerErrorKind::Malformed,
                PeerErrorKind::InvalidNotification,
                PeerErrorKind::UnexpectedRequest,
                PeerErrorKind::UnknownSubscription,
                PeerErrorKind::NotificationBeforeAck,
                PeerErrorKind::UnrequestedNotification,
                PeerErrorKind::SubscriptionIdMismatch,
                PeerErrorKind::AckExceedsRequest,
                PeerErrorKind::InvalidCancellation,
                PeerErrorKind::ErrorWithoutId,
                PeerErrorKind::Other,
            ]),
        );
        let cache = names(&[
            CacheError::NotCacheable,
            CacheError::MissingUri,
            CacheError::Retry,
            CacheError::ImmediatelyStale,
            CacheError::TooLarge,
        ]);
        covered("cache::KeyError", &cache);
        covered("cache::Refused", &cache);
        same(
            "cache::ListKind",
            names(&[
                ListKind::Resources,
                ListKind::ResourceTemplates,
                ListKind::Prompts,
                ListKind::Tools,
            ]),
        );
        same("context::Role", names(&[Role::User, Role::Assistant]));
        same(
            "template::ParseErrorKind",
            names(&[
                TemplateParseErrorKind::UnclosedExpression,
                TemplateParseErrorKind::UnexpectedBrace,
                TemplateParseErrorKind::EmptyExpression,
                TemplateParseErrorKind::ReservedOperator,
                TemplateParseErrorKind::InvalidVarName,
                TemplateParseErrorKind::EmptyVarName,
                TemplateParseErrorKind::InvalidPrefix,
                TemplateParseErrorKind::InvalidModifier,
                TemplateParseErrorKind::InvalidLiteral,
                TemplateParseErrorKind::InvalidPercentEncoding,
                TemplateParseErrorKind::CapacityExceeded,
                TemplateParseErrorKind::TooLong,
                TemplateParseErrorKind::Other,
            ]),
        );
    }

    #[test]
    fn enums_with_payloads_spell_the_core_identifiers() {
        let s = String::new;
        same(
            "server::ReadTarget",
            names(&[
                ReadTarget::Resource,
                ReadTarget::Template {
                    id: 0,
                    uri_template: s(),
                    variables: Default::default(),
                },
                ReadTarget::Unlisted,
            ]),
        );
        same(
            "server::CompletionTarget",
            names(&[
                CompletionTarget::Prompt { name: s() },
                CompletionTarget::Template {
                    id: 0,
                    uri_template: s(),
                },
            ]),
        );
        same(
            "server::Failure",
            names(&[
                Failure::NotFound,
                Failure::InvalidParams { message: s() },
                Failure::Internal,
                Failure::Application {
                    code: 0,
                    message: s(),
                },
                Failure::Handler { message: s() },
            ]),
        );
        same(
            "client::ListMode",
            names(&[ListPaging::Page { cursor: None }, ListPaging::All]),
        );
        same(
            "client::CompletionRef",
            names(&[
                CompletionRef::Prompt { name: s() },
                CompletionRef::Resource { uri_template: s() },
            ]),
        );
        same(
            "client::ConnectError",
            names(&[
                ConnectError::NoCommonVersion,
                ConnectError::LegacyDisabled,
                ConnectError::Rejected { code: 0 },
                ConnectError::Timeout,
                ConnectError::InvalidResult { description: s() },
                ConnectError::Closed,
            ]),
        );
        same(
            "client::CallError",
            names(&[
                CallError::Server {
                    error: ServerError::Internal { message: s() },
                },
                CallError::Timeout,
                CallError::Closed,
                CallError::InvalidResult { description: s() },
                CallError::TooManyInputRounds,
                CallError::NotConnected {
                    error: ConnectError::Closed,
                },
                CallError::UnsupportedInEra,
                CallError::CancelledByServer,
                CallError::Unencodable,
                CallError::Undeliverable,
            ]),
        );
        same(
            "client::ServerError",
            names(&[
                ServerError::ResourceNotFound {
                    uri: None,
                    message: s(),
                },
                ServerError::UnsupportedProtocolVersion {
                    supported: vec![],
                    requested: s(),
                },
                ServerError::MissingRequiredClientCapability { required_json: s() },
                ServerError::MethodNotFound { message: s() },
                ServerError::InvalidParams { message: s() },
                ServerError::Internal { message: s() },
                ServerError::Other {
                    code: 0,
                    message: s(),
                    data_json: None,
                },
            ]),
        );
        same(
            "client::Notice",
            names(&[
                Notice::ResourceUpdated { uri: s() },
                Notice::ResourcesListChanged,
                Notice::PromptsListChanged,
                Notice::ToolsListChanged,
            ]),
        );
    }
}
