//! The output queue: transmits and events in the order they were produced, each transmit
//! remembering the listen subscription it belongs to (for queue bounds and coalescing) so
//! a cancelled stream or subscription can be purged before anything more is sent for it
//! (docs/rules.md §12 "MUST NOT send any further messages", §16.9 rule 56).

use alloc::vec::Vec;

use super::event::Event;
use super::io::{BodyKind, Output, StreamId, Transmit, Transport};
use super::subscriptions::{SubKey, Tag};
use super::vecmap::VecSet;
use crate::json::{Encode, EncodeError, Writer};
use crate::wake::WakingQueue;

pub(crate) struct Queued {
    pub(crate) output: Output,
    pub(crate) sub: Option<(SubKey, Tag)>,
}

#[derive(Default)]
pub(crate) struct Outbox {
    q: WakingQueue<Queued>,
    /// HTTP streams whose response became SSE (a request-scoped notification went first):
    /// every later transmit on them is an SSE event, until the one that ends the stream.
    sse: VecSet<StreamId>,
}

impl Outbox {
    pub(crate) fn transmit(&mut self, mut t: Transmit, sub: Option<(SubKey, Tag)>) {
        if !self.sse.is_empty() && self.sse.contains_key(&t.stream) {
            // The status was sent with the first event; later ones repeat it.
            t.kind = BodyKind::Sse;
            t.http_status = 200;
            if t.end_of_stream {
                self.sse.take(&t.stream);
            }
        }
        self.q.push_back(Queued {
            output: Output::Transmit(t),
            sub,
        });
    }

    /// A request-scoped notification (progress) on a request's own stream: on HTTP the
    /// response becomes an SSE stream.
    pub(crate) fn transmit_request_scoped(&mut self, t: Transmit, transport: Transport) {
        if transport == Transport::Http {
            self.sse.add(t.stream);
        }
        self.transmit(t, None);
    }

    /// `stream` will get no final response (its request was cancelled).
    pub(crate) fn forget_stream(&mut self, stream: StreamId) {
        self.sse.take(&stream);
    }

    pub(crate) fn event(&mut self, e: Event) {
        self.q.push_back(Queued {
            output: Output::Event(e),
            sub: None,
        });
    }

    pub(crate) fn pop(&mut self) -> Option<Queued> {
        self.q.pop_front()
    }

    /// Drops every queued transmit for `stream`.
    pub(crate) fn purge_stream(&mut self, stream: StreamId) {
        self.sse.take(&stream);
        self.q
            .retain(|q| !matches!(&q.output, Output::Transmit(t) if t.stream == stream));
    }

    /// Drops every queued transmit of subscription `k`.
    pub(crate) fn purge_subscription(&mut self, k: SubKey) {
        self.q
            .retain(|q| !matches!(&q.sub, Some((s, _)) if *s == k));
    }

    /// Removes and returns the complete JSON answer on `stream` when it is the first transmit
    /// queued for that stream (an answer the machine produced at once).
    pub(crate) fn take_answer(&mut self, stream: StreamId) -> Option<Transmit> {
        let q = self.q.take_first(
            |q| matches!(&q.output, Output::Transmit(t) if t.stream == stream),
            |q| {
                matches!(&q.output, Output::Transmit(t)
                    if t.end_of_stream && t.kind == BodyKind::Json)
            },
        )?;
        match q.output {
            Output::Transmit(t) => Some(t),
            Output::Event(_) => None,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.q.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.q.is_empty()
    }

    pub(crate) fn set_waker(&mut self, waker: core::task::Waker) {
        self.q.set_waker(waker);
    }
}

/// Encodes one message as compact JSON bytes.
pub(crate) fn encode<E: Encode + ?Sized>(e: &E) -> Result<Vec<u8>, EncodeError> {
    let mut out: Vec<u8> = Vec::with_capacity(256);
    let mut w = Writer::new(&mut out);
    e.encode(&mut w)?;
    Ok(out)
}

/// A JSON response (or error) to one request.
pub(crate) fn response(
    stream: StreamId,
    transport: Transport,
    bytes: Vec<u8>,
    http_status: u16,
) -> Transmit {
    Transmit {
        stream,
        bytes,
        http_status,
        kind: BodyKind::Json,
        end_of_stream: transport == Transport::Http,
    }
}

/// A message on a listen stream: an SSE event on HTTP (docs/rules.md §11.5).
pub(crate) fn on_listen_stream(
    stream: StreamId,
    transport: Transport,
    bytes: Vec<u8>,
    end: bool,
) -> Transmit {
    Transmit {
        stream,
        bytes,
        http_status: 200,
        kind: BodyKind::Sse,
        end_of_stream: end && transport == Transport::Http,
    }
}
