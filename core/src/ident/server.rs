//! Identifiers of the server machine's enums (see [`crate::ident`]).

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
    Self::CallTool(_) => "call_tool",
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
    Self::Tool(_) => "tool",
});

idents!(Failure {
    Self::NotFound => "not_found",
    Self::InvalidParams(_) => "invalid_params",
    Self::Internal => "internal",
    Self::Application { .. } => "application",
    Self::Handler(_) => "handler",
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
    Self::ToolsByMethod => "tools_by_method",
    Self::UnknownScope => "unknown_scope",
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
    Self::InvalidProtection => "invalid_protection",
});
