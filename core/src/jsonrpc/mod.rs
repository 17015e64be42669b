//! JSON-RPC 2.0 as MCP 2026-07-28 uses it (docs/rules.md §1): the envelope, ids, methods, error
//! objects, typed-message wrappers, and the decode errors of every layer.
//!
//! * [`Message::decode`] classifies bytes as a request, notification, result or error,
//!   strictly: `jsonrpc` must be `"2.0"`, ids are strings or integers and never `null`,
//!   batches are refused, duplicate envelope members are refused.
//! * [`RequestId`] keeps the id's JSON type, and integers beyond 2^53 exactly.
//! * [`TypedRequest`], [`TypedNotification`], [`TypedResponse`] pair the envelope with a
//!   typed view from [`crate::messages`].
//! * Errors by layer: [`JsonError`](crate::json::JsonError) → `-32700`,
//!   [`EnvelopeError`] → `-32600`, [`ParamsError`] → `-32602`, all wrapped by
//!   [`DecodeError`].

mod envelope;
mod error;
mod error_object;
mod id;
mod method;
mod typed;
#[cfg(test)]
mod typed_tests;

pub use envelope::{ErrorResponse, Message, Notification, Request, Response, recover_id};
pub use error::{DecodeError, EnvelopeError, ParamsError, ParamsErrorKind};
pub use error_object::{ErrorData, ErrorObject};
#[cfg(feature = "alloc")]
pub use id::OwnedRequestId;
pub use id::RequestId;
pub use method::Method;
pub use typed::{
    DecodeInto, FromJson, MethodParams, TypedNotification, TypedRequest, TypedResponse,
};
