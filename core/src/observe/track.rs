//! The machine's observation table (on only when the host asked): requests in flight by
//! stream and id, finished observations waiting for the host.

use alloc::collections::VecDeque;
use alloc::vec::Vec;

use super::record::{Observation, Outcome, Refusal, RequestObservation, ResultKind};
use crate::jsonrpc::{Message, OwnedRequestId, RequestId};
use crate::server::StreamId;

/// Finished observations kept for a host that does not drain them; the oldest go first.
pub(crate) const MAX_DONE: usize = 4096;

struct Inflight {
    id: OwnedRequestId,
    rec: RequestObservation,
}

#[derive(Default)]
pub(crate) struct Observer {
    inflight: Vec<Inflight>,
    done: VecDeque<Observation>,
    /// Observations dropped because the host did not drain them.
    pub(crate) dropped: u64,
}

impl Observer {
    pub(crate) fn start(&mut self, id: OwnedRequestId, rec: RequestObservation) {
        self.inflight.push(Inflight { id, rec });
    }

    fn finish(&mut self, i: usize, outcome: Outcome) {
        let mut f = self.inflight.swap_remove(i);
        f.rec.outcome = outcome;
        self.push(Observation::Request(f.rec));
    }

    fn push(&mut self, o: Observation) {
        if self.done.len() >= MAX_DONE {
            self.done.pop_front();
            self.dropped += 1;
        }
        self.done.push_back(o);
    }

    fn find(&self, stream: StreamId, id: &RequestId<'_>) -> Option<usize> {
        self.inflight
            .iter()
            .position(|f| f.rec.stream == stream && f.id.as_ref() == *id)
    }

    /// A message left the machine on `stream`: when it is the answer to a request in
    /// flight there, that request is finished.
    pub(crate) fn transmitted(&mut self, stream: StreamId, bytes: &[u8]) {
        if !self.inflight.iter().any(|f| f.rec.stream == stream) {
            return;
        }
        let (id, outcome) = match Message::decode(bytes) {
            Ok(Message::Response(r)) => (r.id, Outcome::Result(result_kind(r.result))),
            Ok(Message::Error(e)) => match e.id {
                Some(id) => (id, Outcome::Error(e.error.code.code())),
                None => return,
            },
            _ => return,
        };
        if let Some(i) = self.find(stream, &id) {
            self.finish(i, outcome);
        }
    }

    /// The client cancelled request `id` on `stream`: it gets no answer.
    pub(crate) fn cancelled(&mut self, stream: StreamId, id: &RequestId<'_>) {
        if let Some(i) = self.find(stream, id) {
            self.finish(i, Outcome::Cancelled);
        }
    }

    /// `stream` closed: what was in flight on it gets no answer.
    pub(crate) fn closed(&mut self, stream: StreamId) {
        while let Some(i) = self.inflight.iter().position(|f| f.rec.stream == stream) {
            self.finish(i, Outcome::Cancelled);
        }
    }

    /// The request in flight on `stream` belongs to the 2025-11-25 session `id` (an
    /// `initialize` that created it).
    pub(crate) fn session(&mut self, stream: StreamId, id: &str) {
        for f in self.inflight.iter_mut().filter(|f| f.rec.stream == stream) {
            f.rec.session_id = Some(id.into());
        }
        for o in &mut self.done {
            if let Observation::Request(r) = o
                && r.stream == stream
                && r.session_id.is_none()
            {
                r.session_id = Some(id.into());
            }
        }
    }

    /// Adds an annotation to request `id` in flight on `stream`.
    pub(crate) fn annotate(
        &mut self,
        stream: StreamId,
        id: &RequestId<'_>,
        key: &str,
        value: &str,
    ) {
        if let Some(i) = self.find(stream, id)
            && let Some(f) = self.inflight.get_mut(i)
        {
            f.rec.annotations.push((key.into(), value.into()));
        }
    }

    /// The caller of request `id` in flight on `stream` (`0` when unknown).
    pub(crate) fn caller_on(&self, stream: StreamId, id: &RequestId<'_>) -> u64 {
        self.find(stream, id)
            .and_then(|i| self.inflight.get(i))
            .map_or(0, |f| f.rec.caller)
    }

    pub(crate) fn refused(&mut self, r: Refusal) {
        self.push(Observation::Refused(r));
    }

    pub(crate) fn pop(&mut self, now_ms: u64) -> Option<Observation> {
        let mut o = self.done.pop_front()?;
        if let Observation::Request(r) = &mut o {
            r.end_ms = now_ms.max(r.start_ms);
        }
        Some(o)
    }

    pub(crate) fn in_flight(&self) -> usize {
        self.inflight.len()
    }
}

fn result_kind(result: crate::json::RawJson<'_>) -> ResultKind {
    if result
        .get("isError")
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
    {
        ResultKind::ToolError
    } else if result
        .get("resultType")
        .and_then(|v| v.as_str())
        .is_some_and(|t| t.eq_str("input_required"))
    {
        ResultKind::InputRequired
    } else {
        ResultKind::Complete
    }
}
