//! The machine's input/output vocabulary (docs/server-machine.md §Run loop): where a message
//! came from ([`Ctx`]), what it was ([`Received`]), and what comes out of
//! [`Server::poll_output`](super::Server::poll_output) ([`Output`], [`Transmit`]).

use alloc::vec::Vec;
use core::net::IpAddr;

use super::event::Event;
use crate::auth::resource_server::ScopeSet;

/// The host's identifier of one output channel: one per HTTP POST (its response body), one
/// for a whole stdio connection. The machine never interprets it beyond equality.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StreamId(pub u64);

/// The transport a stream belongs to. It decides HTTP statuses and framing, and how a
/// subscription is torn down (docs/rules.md §11.4, §19.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Transport {
    /// Newline-delimited JSON-RPC on one shared channel (docs/rules.md §15.2).
    Stdio,
    /// Streamable HTTP: one response stream per POST (docs/rules.md §15.1).
    Http,
}

/// Where a message came from: the stream its answers go to, the caller's authorization
/// context, the transport, and the network peer when the host knows it.
///
/// ```
/// use core::net::{IpAddr, Ipv4Addr};
/// use mcp_context::server::{Ctx, StreamId};
/// let ctx = Ctx::http(StreamId(7), 0).with_peer(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)));
/// assert!(ctx.peer.is_some());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ctx {
    /// The stream every answer to this message is written to.
    pub stream: StreamId,
    /// An opaque caller-context id: the authorization the host resolved for the message
    /// (`0` = anonymous). Lists, visibility and `requestState` bindings may depend on it;
    /// nothing else does (docs/rules.md §1.5).
    pub auth: u64,
    /// The transport of `stream`.
    pub transport: Transport,
    /// The remote address of the connection (HTTP: the socket's peer, or the client address
    /// a trusted proxy reported), `None` when unknown. It only bounds the 2025-11-25 HTTP
    /// sessions one peer may hold ([`ServerConfig::max_sessions_per_peer`](super::ServerConfig));
    /// no peer, no per-peer bound.
    pub peer: Option<IpAddr>,
    /// The scopes of the caller's verified token ([`Server::http_admit`](super::Server::http_admit)),
    /// `None` when no token was verified. Items that require scopes are visible only to a
    /// caller holding them (docs/rules.md §22.4). Read on HTTP only: stdio is
    /// credential-free and its caller holds every scope (the spec: credentials come from
    /// the environment).
    pub scopes: Option<ScopeSet>,
}

impl Ctx {
    /// A message on a stdio connection (stream `stream`, anonymous).
    #[must_use]
    pub const fn stdio(stream: StreamId) -> Self {
        Self {
            stream,
            auth: 0,
            transport: Transport::Stdio,
            peer: None,
            scopes: None,
        }
    }

    /// A message on the HTTP POST whose response stream is `stream`.
    #[must_use]
    pub const fn http(stream: StreamId, auth: u64) -> Self {
        Self {
            stream,
            auth,
            transport: Transport::Http,
            peer: None,
            scopes: None,
        }
    }

    /// The same context for a caller whose verified token grants `scopes`.
    #[must_use]
    pub const fn with_scopes(self, scopes: ScopeSet) -> Self {
        Self {
            scopes: Some(scopes),
            ..self
        }
    }

    /// The scopes this context's caller holds: every scope on stdio, the verified ones on
    /// HTTP (none without a verified token).
    #[must_use]
    pub const fn granted(&self) -> ScopeSet {
        match (self.transport, self.scopes) {
            (Transport::Stdio, _) => ScopeSet::ALL,
            (Transport::Http, Some(s)) => s,
            (Transport::Http, None) => ScopeSet::NONE,
        }
    }

    /// The same context with the remote address `peer` (see [`Ctx::peer`]).
    #[must_use]
    pub const fn with_peer(self, peer: IpAddr) -> Self {
        Self {
            peer: Some(peer),
            ..self
        }
    }
}

/// What [`Server::handle_message`](super::Server::handle_message) received. On HTTP the
/// host answers a [`Received::Notification`] POST with `202 Accepted` and no body
/// (docs/rules.md §15.1, §16.10 rule 64); everything else gets its answer through
/// [`Server::poll_output`](super::Server::poll_output).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Received {
    /// A request: it gets exactly one response (possibly after an [`Event`]).
    Request,
    /// A notification: never answered (docs/rules.md §1.3).
    Notification,
    /// A JSON-RPC response from the client: ignored (a server sends no requests, docs/rules.md §1.3).
    Response,
    /// Not a valid message: an error response was queued.
    Invalid,
}

/// How a transmit's bytes are framed on HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BodyKind {
    /// `Content-Type: application/json`: the response body is exactly these bytes.
    Json,
    /// `Content-Type: text/event-stream`: write `data: <bytes>\n\n` (a listen stream,
    /// docs/rules.md §11.5).
    Sse,
}

/// Bytes to write: one JSON-RPC message (no trailing newline).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transmit {
    /// The stream to write on.
    pub stream: StreamId,
    /// One complete JSON-RPC message, compact, without embedded newlines. On stdio write it
    /// followed by `\n`.
    pub bytes: Vec<u8>,
    /// HTTP only: the status of the POST's response. Meaningful on the first transmit of a
    /// stream (later ones repeat it). 400 for a missing `_meta` key, -32020/-32021/-32022,
    /// and bodies that are not JSON-RPC; 404 for -32601; 200 otherwise (docs/rules.md §15.1, §19.9).
    pub http_status: u16,
    /// HTTP only: JSON body or SSE event.
    pub kind: BodyKind,
    /// HTTP only: the response is complete and the host may close the stream. Always
    /// `false` on stdio, whose single stream is the connection.
    pub end_of_stream: bool,
}

/// One output of the machine.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)] // outputs are moved once, from the queue to the host
pub enum Output {
    /// Write bytes.
    Transmit(Transmit),
    /// The application must act (supply data, note a cancellation or an overflow).
    Event(Event),
}
