//! `input_required` and the multi-round-trip retry (docs/rules.md §13, §16.8 rule 47): the event
//! carries the server's input requests; the host's answers go back in a retry with a new
//! id, the original params, `inputResponses` under the same keys, and `requestState`
//! echoed as the exact token received (omitted if none). Rounds are bounded.

use alloc::string::String;
use alloc::vec::Vec;

use super::call::{CallId, Retry};
use super::error::{CallError, ClientError};
use super::event::Event;
use super::machine::{Client, Stage};
use crate::jsonrpc::Method;
use crate::messages::InputRequiredResult;
use crate::messages::owned::{OwnedInputRequest, OwnedJson};

impl Client {
    /// The server answered `call` with `input_required`. Returns `true` when the call is
    /// retried at once (no `inputRequests`: "the client MAY retry immediately").
    pub(crate) fn on_input_required(
        &mut self,
        call: CallId,
        ir: &InputRequiredResult<'_>,
        _now_ms: u64,
    ) -> bool {
        let max = self.config.max_input_rounds;
        let Some(state) = self.calls.get_mut(&call) else {
            return false;
        };
        state.round = state.round.saturating_add(1);
        if state.round > max {
            self.fail(call, CallError::TooManyInputRounds);
            return false;
        }
        // The token as received, quotes and escapes included: echoed byte-exact.
        let state_token = ir.request_state.map(|s| {
            let mut t = String::with_capacity(s.source().len() + 2);
            t.push('"');
            t.push_str(s.source());
            t.push('"');
            t
        });
        let mut requests = Vec::new();
        for (key, request) in ir.input_requests.iter().flat_map(|m| m.iter()) {
            let method = match request.method {
                Method::ElicitationCreate => Method::ElicitationCreate,
                Method::SamplingCreateMessage => Method::SamplingCreateMessage,
                _ => Method::RootsList,
            };
            let params = request
                .params
                .and_then(|p| OwnedJson::parse(p.as_text()).ok());
            requests.push((
                key.to_cow().into_owned(),
                OwnedInputRequest { method, params },
            ));
        }
        if requests.is_empty() {
            state.retry = Some(Retry {
                responses: Vec::new(),
                state_token,
            });
            state.stage = Stage::Queued;
            return true;
        }
        state.stage = Stage::AwaitingInput {
            keys: requests.iter().map(|(k, _)| k.clone()).collect(),
            state_token,
        };
        let round = state.round;
        self.emit(Event::InputRequired {
            call,
            round,
            requests,
        });
        false
    }

    /// Answers the input requests of `call` (one response per requested key, each the plain
    /// result object: `ElicitResult`, `CreateMessageResult`, `ListRootsResult`) and retries
    /// the request with a new id. The retry's result is never cached (docs/rules.md §4).
    ///
    /// # Errors
    /// [`ClientError`] when the call is not waiting for input or the keys do not match the
    /// request exactly; nothing is sent then.
    pub fn respond_input(
        &mut self,
        call: CallId,
        responses: Vec<(String, OwnedJson)>,
        now_ms: u64,
    ) -> Result<(), ClientError> {
        let state = self.calls.get_mut(&call).ok_or(ClientError::UnknownCall)?;
        let Stage::AwaitingInput { keys, state_token } = &state.stage else {
            return Err(ClientError::NotAwaitingInput);
        };
        for (i, (k, v)) in responses.iter().enumerate() {
            if !keys.contains(k) || responses.iter().take(i).any(|(p, _)| p == k) {
                return Err(ClientError::UnexpectedInputResponse);
            }
            if v.as_raw().object().is_none() {
                return Err(ClientError::InputResponseNotObject);
            }
        }
        if keys.iter().any(|k| !responses.iter().any(|(r, _)| r == k)) {
            return Err(ClientError::MissingInputResponse);
        }
        state.retry = Some(Retry {
            responses,
            state_token: state_token.clone(),
        });
        state.stage = Stage::Queued;
        self.advance(call, now_ms);
        Ok(())
    }
}
