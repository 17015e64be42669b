//! The machine's side of [`crate::observe`]: turning observations on, recording requests,
//! answers and refusals, and handing them to the host (docs/rules.md §26).

use alloc::boxed::Box;
use alloc::string::{String, ToString};

use super::Server;
use super::io::Ctx;
use crate::jsonrpc::{Method, Request, RequestId};
use crate::messages::PROTOCOL_VERSION_KEY;
use crate::observe::track::Observer;
use crate::observe::{Era, Limit, Observation, Outcome, Refusal, RequestObservation, ResultKind};

impl Server {
    /// Turns observations on (`true`) or off. Off (the default), the machine records
    /// nothing. Turning them off drops what was not drained.
    pub fn observe(&mut self, on: bool) {
        match (on, self.observer.is_some()) {
            (true, false) => self.observer = Some(Box::default()),
            (false, true) => self.observer = None,
            _ => {}
        }
    }

    /// Whether observations are on.
    #[must_use]
    pub fn observing(&self) -> bool {
        self.observer.is_some()
    }

    /// The next observation, oldest first; `None` when there is none (or observations are
    /// off). `now_ms` is the host's clock: a finished request's
    /// [`end_ms`](RequestObservation::end_ms). Drain it right after the outputs (the drain
    /// rule), so the end is when the answer left.
    pub fn poll_observation(&mut self, now_ms: u64) -> Option<Observation> {
        self.observer.as_deref_mut()?.pop(now_ms)
    }

    /// Observations dropped because the host did not drain them (over
    /// `4096` waiting), since observations were turned on.
    #[must_use]
    pub fn observations_dropped(&self) -> u64 {
        self.observer.as_deref().map_or(0, |o| o.dropped)
    }

    /// Requests received and not yet answered, cancelled or closed (observations on;
    /// a listen counts until it ends).
    #[must_use]
    pub fn observed_in_flight(&self) -> usize {
        self.observer.as_deref().map_or(0, Observer::in_flight)
    }

    /// Caps the size of an answer (`None`, the default: no cap). A response whose bytes
    /// exceed `max` is replaced by the error [`RESPONSE_TOO_LARGE`](crate::observe::RESPONSE_TOO_LARGE)
    /// with the same id, and the refusal is observed as [`Limit::Response`]
    /// (docs/rules.md §26.6). Notifications on a listen stream are not capped (the stream's
    /// queue bounds them).
    pub fn limit_responses(&mut self, max: Option<usize>) {
        self.response_cap = max;
    }

    /// Adds `key = value` to the observation of the request behind `handle` (an event
    /// the application is answering): a middleware's annotation reaches the span and the
    /// log line. Ignored when observations are off or the request is no longer pending.
    pub fn annotate(&mut self, handle: super::Handle, key: &str, value: &str) {
        let (Some(obs), Some(p)) = (self.observer.as_deref_mut(), self.pending.get(handle)) else {
            return;
        };
        obs.annotate(p.stream, &p.id.as_ref(), key, value);
    }

    /// An output is leaving the machine (observations on, or a response cap): the cap
    /// first, then the observation of the answer.
    pub(crate) fn leaving(&mut self, t: &mut super::Transmit) {
        if let Some(max) = self.response_cap
            && t.bytes.len() > max
            && t.kind == super::BodyKind::Json
        {
            self.cap(t, max);
        }
        if let Some(obs) = self.observer.as_deref_mut() {
            obs.transmitted(t.stream, &t.bytes);
        }
    }

    fn cap(&mut self, t: &mut super::Transmit, max: usize) {
        use crate::jsonrpc::{ErrorObject, ErrorResponse, Message};
        let Ok(Message::Response(r)) = Message::decode(&t.bytes) else {
            return;
        };
        let msg = alloc::format!("Response too large: over the limit of {max} bytes");
        let error = ErrorObject::new(
            crate::error_code::ErrorCode(crate::observe::RESPONSE_TOO_LARGE),
            &msg,
        );
        let Ok(bytes) = super::outbox::encode(&ErrorResponse {
            id: Some(r.id),
            error,
        }) else {
            return;
        };
        let caller = self
            .observer
            .as_deref()
            .map_or(0, |o| o.caller_on(t.stream, &r.id));
        t.bytes = bytes;
        if let Some(obs) = self.observer.as_deref_mut() {
            obs.refused(Refusal {
                limit: Limit::Response,
                caller,
                stream: t.stream,
                at_ms: self.now,
            });
        }
    }

    /// Records request `r` from `ctx` (observations on), with the annotations the gate
    /// admitted it with ([`Server::gate_admit`]).
    pub(crate) fn observe_request(&mut self, r: &Request<'_>, ctx: Ctx) {
        if self.observer.is_none() {
            return;
        }
        let mut rec = self.start_record(r, ctx, self.legacy.current.as_deref());
        if let Some(a) = self.admitted.take()
            && a.stream == ctx.stream
            && a.id.as_ref() == r.id
        {
            rec.annotations = a.annotations;
        }
        if let Some(obs) = self.observer.as_deref_mut() {
            obs.start(r.id.to_owned_id(), rec);
        }
    }

    /// What is known of request `r` from `ctx` when it arrives (`session`: the 2025-11-25
    /// HTTP session it names): the observation's fields, its outcome not yet known.
    pub(crate) fn start_record(
        &self,
        r: &Request<'_>,
        ctx: Ctx,
        session: Option<&str>,
    ) -> RequestObservation {
        let params = r.params;
        let meta = params.and_then(|p| p.get("_meta"));
        let text = |v: Option<crate::json::RawJson<'_>>| {
            v.and_then(|v| v.as_str()).map(|s| s.to_cow().into_owned())
        };
        let target_key = match r.method {
            Method::ToolsCall | Method::PromptsGet => Some("name"),
            Method::ResourcesRead | Method::ResourcesSubscribe | Method::ResourcesUnsubscribe => {
                Some("uri")
            }
            _ => None,
        };
        let protocol_version = text(meta.and_then(|m| m.get(PROTOCOL_VERSION_KEY)));
        let legacy = protocol_version.is_none()
            && (r.method == Method::Initialize
                || session.is_some()
                || self.legacy.is_legacy(ctx.stream));
        RequestObservation {
            method: String::from(r.method.as_str()),
            request_id: id_text(&r.id),
            target: text(target_key.and_then(|k| params.and_then(|p| p.get(k)))),
            caller: ctx.auth,
            stream: ctx.stream,
            transport: ctx.transport,
            era: if legacy { Era::Legacy } else { Era::Modern },
            protocol_version,
            session_id: session.map(String::from),
            traceparent: text(meta.and_then(|m| m.get("traceparent"))),
            tracestate: text(meta.and_then(|m| m.get("tracestate"))),
            annotations: alloc::vec::Vec::new(),
            outcome: Outcome::Result(ResultKind::Complete),
            start_ms: self.now,
            end_ms: self.now,
        }
    }

    /// A limit refused a request from `ctx` (observations on).
    pub(crate) fn observe_refusal(&mut self, limit: Limit, ctx: &Ctx) {
        let at_ms = self.now;
        if let Some(obs) = self.observer.as_deref_mut() {
            obs.refused(Refusal {
                limit,
                caller: ctx.auth,
                stream: ctx.stream,
                at_ms,
            });
        }
    }
}

fn id_text(id: &RequestId<'_>) -> String {
    match id {
        RequestId::Str(s) => s.to_cow().into_owned(),
        RequestId::Int(i) => i.to_string(),
        RequestId::BigInt(d) => String::from(*d),
    }
}
