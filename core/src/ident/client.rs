//! Identifiers of the client machine's and the cache store's enums (see [`crate::ident`]).

use crate::cache::Lookup;
use crate::client::{
    CachePolicy, CallError, ClientError, CompletionRef, ConfigError, ConnectError, EndReason, Era,
    Event, ListMode, Notice, Output, PeerError, ServerError, Transport,
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
    Self::ToolsListed { .. } => "tools_listed",
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
