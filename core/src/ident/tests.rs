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
            "call_tool",
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
            "tools_listed",
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
