//! The application's answers to events: `respond_*` and [`Server::fail`].
//!
//! An answer the machine refuses returns a [`RespondError`]. Either the request is no longer
//! waiting ([`RespondError::is_late`]: nothing to do), or the answer is the application's bug
//! (wrong kind, malformed result or input requests): the machine fails the request with
//! -32603 at once, so the client never waits for the timeout, and returns the error for the
//! host to log (docs/rules.md §20.4).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::config::CacheHint;
use super::event::Handle;
use super::machine::Server;
use super::mrtr::{self, InputRequired};
use super::pending::Owed;
use crate::error_code::ErrorCode;
use crate::http::status_for;
use crate::json::{Encode, EncodeError, JsonSink, JsonStr, Writer};
use alloc::borrow::Cow;

use crate::jsonrpc::ErrorObject;
use crate::messages::owned::{
    AsView, OwnedCompleteResult, OwnedGetPromptResult, OwnedResourceContents,
};
use crate::messages::{
    ClientCapabilities, InputRequiredResult, Map, ReadResourceResult, ResourceContents, Seq,
};

/// Why the application could not answer (see [`Server::fail`]).
///
/// Messages are `Cow`s: a Rust host passes `"literal".into()`, a binding passes the
/// host's own `String`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Failure {
    /// The resource (or prompt) does not exist: -32602, with `data.uri` for a read
    /// (docs/rules.md §7, §16.5 rule 30).
    NotFound,
    /// Bad arguments: -32602 with this message (one concise sentence).
    InvalidParams(Cow<'static, str>),
    /// -32603 (docs/rules.md §16.5 rule 31).
    Internal,
    /// An application-defined error. Codes inside -32768..=-32000 are reserved to JSON-RPC
    /// and MCP (docs/rules.md §1.4) and are sent as -32603 instead.
    Application {
        /// The code.
        code: i32,
        /// The message.
        message: Cow<'static, str>,
    },
    /// The application's handler failed in its own way (a binding: an exception that is
    /// none of the above). A `tools/call` answers a result with `isError: true` and this
    /// message as its text, so the model sees it (docs/rules.md §20.4); any other request
    /// gets -32603 and the message is not sent (it is the host's to log).
    Handler(Cow<'static, str>),
}

impl Failure {
    /// The failure for an application error carrying a JSON-RPC `code` and `message` (what a
    /// binding's exception holds), so no binding re-derives the code ranges
    /// (docs/rules.md §1.4): -32602 is [`Failure::InvalidParams`] with the message; -32002
    /// (the 2025-11-25 "Resource not found") is [`Failure::NotFound`]; any other code inside
    /// -32768..=-32000 is reserved to JSON-RPC and MCP and is [`Failure::Internal`]; every
    /// other code is [`Failure::Application`].
    #[must_use]
    pub fn from_code(code: i32, message: impl Into<Cow<'static, str>>) -> Self {
        if code == ErrorCode::INVALID_PARAMS.code() {
            Self::InvalidParams(message.into())
        } else if code == ErrorCode::LEGACY_RESOURCE_NOT_FOUND.code() {
            Self::NotFound
        } else if RESERVED_CODES.contains(&code) {
            Self::Internal
        } else {
            Self::Application {
                code,
                message: message.into(),
            }
        }
    }
}

/// Error codes reserved to JSON-RPC and MCP (docs/rules.md §1.4).
const RESERVED_CODES: core::ops::RangeInclusive<i32> = -32768..=-32000;

/// Whether `code` is reserved to JSON-RPC and MCP (an application's is sent as -32603).
pub(crate) fn is_reserved(code: i32) -> bool {
    RESERVED_CODES.contains(&code)
}

/// An answer the machine refused (caller error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RespondError {
    /// No such request is waiting: already answered, cancelled or timed out.
    UnknownHandle,
    /// The answer does not fit the request (e.g. prompt messages for a read, or
    /// `input_required` for a completion, docs/rules.md §13).
    WrongKind,
    /// Input requests that are not `elicitation/create` / `sampling/createMessage` /
    /// `roots/list` with object params, or repeat a key, or an `input_required` answer with
    /// neither requests nor a state to seal (docs/rules.md §13).
    InvalidInputRequests,
    /// Application state given but no sealing key configured.
    NoStateKey,
    /// The input requests need a capability the request did not declare: the client got
    /// -32021 with `requiredCapabilities` and the handle is consumed (docs/rules.md §13).
    ClientLacksCapability,
    /// [`Server::respond_result`]: the result is not a JSON object, names a `resultType`
    /// other than `"complete"`, or has a `_meta` that is not an object.
    /// [`Server::respond_list`]: an item's URI is not a valid URI.
    InvalidResult,
    /// [`Server::progress`]: a value that is not finite, or does not increase.
    InvalidProgress,
}

impl fmt::Display for RespondError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::UnknownHandle => "no request is waiting for this handle",
            Self::WrongKind => "this answer does not fit the request",
            Self::InvalidInputRequests => "invalid input requests",
            Self::NoStateKey => "no requestState sealing key configured",
            Self::ClientLacksCapability => "the client did not declare the needed capability",
            Self::InvalidResult => "the result is not a complete result object",
            Self::InvalidProgress => "progress must be finite and increase",
        })
    }
}

impl core::error::Error for RespondError {}

impl RespondError {
    /// The request was no longer waiting for this answer: answered, cancelled or timed out
    /// ([`RespondError::UnknownHandle`]), or answered by the machine itself with -32021
    /// ([`RespondError::ClientLacksCapability`]). A host ignores it; any other refusal of a
    /// `respond_*` is the application's bug, to log (the request already got -32603), and
    /// [`RespondError::InvalidProgress`] leaves the request running (docs/rules.md §20.4).
    #[must_use]
    pub const fn is_late(self) -> bool {
        matches!(self, Self::UnknownHandle | Self::ClientLacksCapability)
    }
}

/// A read's result with its `contents` from elsewhere (see `answer_read_cached`).
struct ReadWith<'r, 'a, 'c>(
    &'r ReadResourceResult<'a>,
    &'r Seq<'c, ResourceContents<'c>>,
);

impl Encode for ReadWith<'_, '_, '_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        self.0.encode_with(w, self.1)
    }
}

impl Server {
    fn owed(&self, h: Handle) -> Result<&Owed, RespondError> {
        self.pending
            .get(h)
            .map(|p| &p.owed)
            .ok_or(RespondError::UnknownHandle)
    }

    /// Answers a [`ReadEvent`](super::ReadEvent) with contents, under the configured cache
    /// hints (the resource's, its template's, or the default).
    ///
    /// # Errors
    /// [`RespondError::UnknownHandle`], [`RespondError::WrongKind`].
    pub fn respond_read(
        &mut self,
        handle: Handle,
        contents: Vec<OwnedResourceContents>,
    ) -> Result<(), RespondError> {
        let r = self.answer_read(handle, Seq::from_source(&contents));
        self.settle(handle, r)
    }

    pub(super) fn answer_read<'c>(
        &mut self,
        handle: Handle,
        contents: Seq<'c, ResourceContents<'c>>,
    ) -> Result<(), RespondError> {
        let Owed::Read { cache, .. } = self.owed(handle)? else {
            return Err(RespondError::WrongKind);
        };
        let hint = *cache;
        self.answer_read_cached(handle, contents, hint)
    }

    /// Answers a [`ReadEvent`](super::ReadEvent) with contents and explicit cache hints
    /// (made private when a visibility filter is installed).
    ///
    /// # Errors
    /// [`RespondError::UnknownHandle`], [`RespondError::WrongKind`].
    pub fn respond_read_cached(
        &mut self,
        handle: Handle,
        contents: Vec<OwnedResourceContents>,
        cache: CacheHint,
    ) -> Result<(), RespondError> {
        let r = self.answer_read_cached(handle, Seq::from_source(&contents), cache);
        self.settle(handle, r)
    }

    pub(super) fn answer_read_cached<'c>(
        &mut self,
        handle: Handle,
        contents: Seq<'c, ResourceContents<'c>>,
        cache: CacheHint,
    ) -> Result<(), RespondError> {
        if !matches!(self.owed(handle)?, Owed::Read { .. }) {
            return Err(RespondError::WrongKind);
        }
        let p = self
            .pending
            .remove(handle)
            .ok_or(RespondError::UnknownHandle)?;
        let hint = self.scoped(cache);
        // The result's own `contents` is a placeholder: the items are written from
        // `contents` (owned items or checked JSON text, `read_json`), whose lifetime is not
        // the machine's.
        let mut shell = ReadResourceResult::new(Seq::from_slice(&[]), hint.ttl_ms, hint.scope);
        shell.meta = self.result_meta();
        let encoded = super::outbox::encode(&crate::jsonrpc::TypedResponse {
            id: p.id.as_ref(),
            result: ReadWith(&shell, &contents),
        });
        self.deliver(p.stream, p.transport, p.id.as_ref(), encoded);
        Ok(())
    }

    /// Answers a [`PromptEvent`](super::PromptEvent). `serverInfo` is added when the result
    /// has none.
    ///
    /// # Errors
    /// [`RespondError::UnknownHandle`], [`RespondError::WrongKind`].
    pub fn respond_prompt(
        &mut self,
        handle: Handle,
        result: OwnedGetPromptResult,
    ) -> Result<(), RespondError> {
        let r = self.answer_prompt(handle, result);
        self.settle(handle, r)
    }

    fn answer_prompt(
        &mut self,
        handle: Handle,
        result: OwnedGetPromptResult,
    ) -> Result<(), RespondError> {
        if !matches!(self.owed(handle)?, Owed::Prompt) {
            return Err(RespondError::WrongKind);
        }
        let p = self
            .pending
            .remove(handle)
            .ok_or(RespondError::UnknownHandle)?;
        if self.embeds_forbidden(&p.ctx(), &result.messages) {
            let err = crate::jsonrpc::ErrorObject::new(
                crate::error_code::ErrorCode::INVALID_REQUEST,
                "Insufficient scope: the prompt embeds a resource the caller may not read",
            );
            self.send_error(p.stream, p.transport, Some(p.id.as_ref()), &err, 403);
            return Ok(());
        }
        let mut view = result.view();
        if view.meta.is_none() {
            view.meta = self.result_meta();
        }
        let encoded = super::outbox::encode(&crate::jsonrpc::TypedResponse {
            id: p.id.as_ref(),
            result: view,
        });
        self.deliver(p.stream, p.transport, p.id.as_ref(), encoded);
        Ok(())
    }

    /// Answers a [`CompletionEvent`](super::CompletionEvent) with candidates in relevance
    /// order; the first 100 are sent, with `total` and `hasMore` (docs/rules.md §10).
    ///
    /// # Errors
    /// [`RespondError::UnknownHandle`], [`RespondError::WrongKind`].
    pub fn respond_completion(
        &mut self,
        handle: Handle,
        values: Vec<String>,
    ) -> Result<(), RespondError> {
        let r = self.answer_completion(handle, values);
        self.settle(handle, r)
    }

    fn answer_completion(
        &mut self,
        handle: Handle,
        values: Vec<String>,
    ) -> Result<(), RespondError> {
        if !matches!(self.owed(handle)?, Owed::Complete) {
            return Err(RespondError::WrongKind);
        }
        let p = self
            .pending
            .remove(handle)
            .ok_or(RespondError::UnknownHandle)?;
        let result = OwnedCompleteResult::from_candidates(values);
        let mut view = result.view();
        view.meta = self.result_meta();
        let encoded = super::outbox::encode(&crate::jsonrpc::TypedResponse {
            id: p.id.as_ref(),
            result: view,
        });
        self.deliver(p.stream, p.transport, p.id.as_ref(), encoded);
        Ok(())
    }

    /// Answers a read or prompt event with `resultType: "input_required"` (docs/rules.md §13): the
    /// input requests, and the application state sealed into `requestState` (bound to the
    /// method, the identifying params and `auth`, expiring after
    /// [`ServerConfig::state_ttl_ms`](super::ServerConfig::state_ttl_ms)). No cache hints
    /// (§16.4 rule 23).
    ///
    /// # Errors
    /// See [`RespondError`].
    pub fn respond_input_required(
        &mut self,
        handle: Handle,
        input: InputRequired,
    ) -> Result<(), RespondError> {
        let r = self.answer_input_required(handle, input);
        self.settle(handle, r)
    }

    fn answer_input_required(
        &mut self,
        handle: Handle,
        input: InputRequired,
    ) -> Result<(), RespondError> {
        let p = self
            .pending
            .get(handle)
            .ok_or(RespondError::UnknownHandle)?;
        if !matches!(
            p.owed,
            Owed::Read { .. } | Owed::Prompt | Owed::Method | Owed::Tool
        ) {
            return Err(RespondError::WrongKind);
        }
        let key = self.config.state_keys.first();
        if mrtr::check_requests(&input.requests).is_err()
            || (input.requests.is_empty() && key.is_none())
        {
            return Err(RespondError::InvalidInputRequests);
        }
        if input.state.is_some() && key.is_none() {
            return Err(RespondError::NoStateKey);
        }
        let missing = mrtr::missing_capabilities(&input.requests, p.caps);
        let p = self
            .pending
            .remove(handle)
            .ok_or(RespondError::UnknownHandle)?;
        let (stream, transport, id) = (p.stream, p.transport, p.id.as_ref());
        if let Some(missing) = missing {
            let required = ClientCapabilities::decode_raw(missing.as_raw(), "requiredCapabilities")
                .unwrap_or_default();
            let err = ErrorObject::missing_required_client_capability(required);
            self.send_error(stream, transport, Some(id), &err, 400);
            return Err(RespondError::ClientLacksCapability);
        }
        let token = match (key, p.binding_data()) {
            (Some(k), Some(b)) => {
                let state = input.state.as_deref().unwrap_or(&[]);
                match mrtr::seal(k, self.now, self.config.state_ttl_ms, &b, p.auth, state) {
                    Some(t) => Some(t),
                    None => {
                        let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Internal error");
                        self.send_error(stream, transport, Some(id), &err, 200);
                        return Ok(());
                    }
                }
            }
            _ => None,
        };
        // A 2025-11-25 client gets the inputs as server-to-client requests (legacy/bridge.rs).
        if self.legacy_ask_client(&p, &input.requests, token.as_deref()) {
            return Ok(());
        }
        let result = InputRequiredResult {
            input_requests: (!input.requests.is_empty()).then(|| Map::from_source(&input.requests)),
            request_state: token.as_deref().map(JsonStr::new),
            meta: self.result_meta(),
        };
        let encoded = super::outbox::encode(&crate::jsonrpc::TypedResponse { id, result });
        self.deliver(stream, transport, id, encoded);
        Ok(())
    }

    /// Answers an event with an error.
    ///
    /// # Errors
    /// [`RespondError::UnknownHandle`].
    pub fn fail(&mut self, handle: Handle, failure: Failure) -> Result<(), RespondError> {
        let p = self
            .pending
            .remove(handle)
            .ok_or(RespondError::UnknownHandle)?;
        if let (Failure::Handler(message), Owed::Tool) = (&failure, &p.owed) {
            let encoded = self.tool_error_bytes(p.id.as_ref(), message);
            self.deliver(p.stream, p.transport, p.id.as_ref(), encoded);
            return Ok(());
        }
        let err = match (&failure, &p.owed) {
            (Failure::NotFound, Owed::Read { uri, .. }) => {
                ErrorObject::resource_not_found(JsonStr::new(uri))
            }
            (Failure::NotFound, Owed::Prompt) => {
                ErrorObject::new(ErrorCode::INVALID_PARAMS, "Unknown prompt")
            }
            (Failure::NotFound, Owed::Complete) => {
                ErrorObject::new(ErrorCode::INVALID_PARAMS, "Unknown completion reference")
            }
            (Failure::NotFound, Owed::List { .. }) => {
                ErrorObject::new(ErrorCode::INVALID_PARAMS, "Invalid cursor")
            }
            (Failure::NotFound, Owed::Method) => {
                ErrorObject::new(ErrorCode::INVALID_PARAMS, "Not found")
            }
            (Failure::NotFound, Owed::Tool) => {
                ErrorObject::new(ErrorCode::INVALID_PARAMS, "Unknown tool")
            }
            (Failure::InvalidParams(m), _) => ErrorObject::new(ErrorCode::INVALID_PARAMS, m),
            (Failure::Application { code, message: m }, _) if !RESERVED_CODES.contains(code) => {
                ErrorObject::new(ErrorCode(*code), m)
            }
            _ => ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Internal error"),
        };
        let status = status_for(err.code);
        self.send_error(p.stream, p.transport, Some(p.id.as_ref()), &err, status);
        Ok(())
    }

    /// Every `respond_*` ends here: an answer refused for any reason but
    /// [`RespondError::is_late`] fails the request with -32603 now (docs/rules.md §20.4).
    pub(super) fn settle(
        &mut self,
        handle: Handle,
        r: Result<(), RespondError>,
    ) -> Result<(), RespondError> {
        if let Err(e) = r
            && !e.is_late()
        {
            let _ = self.fail(handle, Failure::Internal);
        }
        r
    }

    pub(crate) fn deliver(
        &mut self,
        stream: super::io::StreamId,
        transport: super::io::Transport,
        id: crate::jsonrpc::RequestId<'_>,
        encoded: Result<Vec<u8>, crate::json::EncodeError>,
    ) {
        match encoded {
            Ok(bytes) => self
                .out
                .transmit(super::outbox::response(stream, transport, bytes, 200), None),
            Err(_) => {
                let err = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "Internal error");
                self.send_error(stream, transport, Some(id), &err, 200);
            }
        }
    }
}
