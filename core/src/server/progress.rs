//! `notifications/progress` for a request that carried `_meta.progressToken` (the public
//! spec, "Progress"; docs/server-machine.md §Progress): sent by handle, on the request's own
//! stream, never without a token, never after the final response, never on a listen stream.
//!
//! On HTTP a progress notification is an SSE event on the POST's response stream: the
//! response becomes `text/event-stream`, and the final response follows as the last event of
//! that stream (the public spec, "Streamable HTTP": the stream carries "notifications related
//! to that request plus the final response").

use super::event::Handle;
use super::io::{BodyKind, Transmit};
use super::machine::Server;
use super::outbox;
use super::reply::RespondError;
use crate::json::float::order_key;
use crate::json::{Encode, EncodeError, JsonSink, Writer};
use crate::jsonrpc::RequestId;

/// The notification's encoding (schema `ProgressNotification`).
struct ProgressNotification<'a> {
    token: RequestId<'a>,
    progress: f64,
    total: Option<f64>,
    message: Option<&'a str>,
}

impl Encode for ProgressNotification<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.begin_object()?;
        w.field("jsonrpc", "2.0")?;
        w.field("method", "notifications/progress")?;
        w.key("params")?;
        w.begin_object()?;
        w.field("progressToken", &self.token)?;
        w.key("progress")?;
        w.f64(self.progress)?;
        if let Some(t) = self.total {
            w.key("total")?;
            w.f64(t)?;
        }
        if let Some(m) = self.message {
            w.field("message", m)?;
        }
        w.end_object()?;
        w.end_object()
    }
}

impl Server {
    /// Reports progress on the request behind `handle`: `notifications/progress` with the
    /// request's `progressToken`, `progress` (which must increase with each call), and the
    /// optional `total` and `message`. On HTTP it turns the request's response into an SSE
    /// stream (the final response becomes its last event).
    ///
    /// Returns `Ok(false)` and sends nothing when the request carried no `progressToken`
    /// (the event's `progress` flag is `false`).
    ///
    /// # Errors
    /// [`RespondError::UnknownHandle`] once the request is answered, cancelled or timed out
    /// (nothing is sent after the final response); [`RespondError::InvalidProgress`] for a
    /// value that is not finite or does not increase; nothing changes.
    pub fn progress(
        &mut self,
        handle: Handle,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> Result<bool, RespondError> {
        let p = self
            .pending
            .get(handle)
            .ok_or(RespondError::UnknownHandle)?;
        let Some(token) = &p.progress else {
            return Ok(false);
        };
        if !progress.is_finite()
            || total.is_some_and(|t| !t.is_finite())
            || p.last_progress
                .is_some_and(|last| order_key(progress) <= order_key(last))
        {
            return Err(RespondError::InvalidProgress);
        }
        let bytes = outbox::encode(&ProgressNotification {
            token: token.as_ref(),
            progress,
            total,
            message,
        })
        .map_err(|_| RespondError::InvalidProgress)?;
        let t = Transmit {
            stream: p.stream,
            bytes,
            http_status: 200,
            kind: BodyKind::Sse,
            end_of_stream: false,
        };
        let transport = p.transport;
        if let Some(p) = self.pending.get_mut(handle) {
            p.last_progress = Some(progress);
        }
        self.out.transmit_request_scoped(t, transport);
        Ok(true)
    }
}
