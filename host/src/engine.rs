//! The engine: one [`Server`] machine behind a mutex, drained after every input, its events
//! handed to the application's handlers, its transmits routed to the stream they name, and
//! its timer honoured by a task.
//!
//! Drain rule (`docs/server-machine.md` §Run loop): every call into the machine goes through
//! [`Engine::input`], which polls outputs until `None` before it lets go of the lock. A
//! handler's answer is such an input, so it is on its way to the transport as soon as the
//! handler returns; nothing waits for the next message or the request deadline.
//!
//! Handlers run without the lock. A handler future is polled once in place: one that is
//! ready at once (a lookup in memory) is answered without a task; one that waits is spawned
//! on tokio, raced against the request's cancellation.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Poll, Waker};
use std::time::Instant;

use futures_util::FutureExt;
use mcp_context::server::{
    CompletionTarget, Event, Handle, Output, ReadTarget, RespondError, Server, StreamId, Transmit,
};
use tokio::sync::{Notify, mpsc};
use tokio_util::sync::CancellationToken;

use crate::app::Handlers;
use crate::handler::{
    BoxFuture, CompleteRequest, Context, HandlerResult, ListPage, ListRequest, MethodReply,
    MethodRequest, PromptReply, PromptRequest, ReadReply, ReadRequest, ToolReply, ToolRequest,
};
use crate::ids::IdMap;
use crate::telemetry::Call;

mod gate;
mod layers;

/// Where the transmits of one stream go.
pub(crate) enum Sink {
    /// One channel per stream (HTTP).
    Channel(mpsc::UnboundedSender<Transmit>),
    /// Lines appended to one buffer that the writer takes whole (stdio).
    Lines(Arc<crate::stdio::LineOut>),
    /// Kept in place until the transport claims them ([`Engine::claim`]): an HTTP POST,
    /// whose answer is usually ready before its response is built (no channel then).
    Held(Vec<Transmit>),
}

impl From<mpsc::UnboundedSender<Transmit>> for Sink {
    fn from(tx: mpsc::UnboundedSender<Transmit>) -> Self {
        Self::Channel(tx)
    }
}

impl Sink {
    /// Routes `t`; `true` if the sink keeps it in place (the stream stays until claimed).
    fn send(&mut self, t: Transmit) -> bool {
        match self {
            // A receiver that is gone closes the stream through its own guard.
            Self::Channel(tx) => {
                let _ = tx.send(t);
                false
            }
            Self::Lines(out) => {
                out.push(&t.bytes);
                false
            }
            Self::Held(held) => {
                held.push(t);
                true
            }
        }
    }
}

/// A held stream's transmits so far, and the channel of the rest unless they ended it.
pub(crate) type Claimed = (Vec<Transmit>, Option<mpsc::UnboundedReceiver<Transmit>>);

/// What the mutex guards.
pub(crate) struct State {
    pub(crate) server: Server,
    sinks: IdMap<StreamId, Sink>,
    tokens: IdMap<Handle, CancellationToken>,
    /// The deadline the timer task sleeps until.
    pub(super) armed: Option<u64>,
    /// HTTP `traceparent` headers by stream, kept while a sink wants them.
    trace_headers: IdMap<StreamId, String>,
}

pub(crate) struct Engine {
    state: Mutex<State>,
    handlers: Handlers,
    start: Instant,
    /// Wall-clock milliseconds (UNIX epoch) at `start`: the machine's clock reads the wall
    /// clock, advanced monotonically, so that `requestState` sealed by one instance of a fleet
    /// expires on another's clock as on its own (docs/scale-out.md).
    epoch: u64,
    timer: Notify,
    timer_started: AtomicBool,
    idle: Notify,
    next_stream: AtomicU64,
    stop: CancellationToken,
    /// Verified callers by `auth` id (the latest of each), for [`Context::principal`].
    callers: Mutex<HashMap<u64, Arc<mcp_context::auth::resource_server::Caller>>>,
}

/// Verified callers remembered at most; past it the table starts over (a caller seen again
/// is remembered again on its next request).
const MAX_CALLERS: usize = 4096;

impl Engine {
    pub(crate) fn new(server: Server, handlers: Handlers) -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(State {
                server,
                sinks: IdMap::default(),
                tokens: IdMap::default(),
                armed: None,
                trace_headers: IdMap::default(),
            }),
            handlers,
            start: Instant::now(),
            epoch: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0)),
            timer: Notify::new(),
            timer_started: AtomicBool::new(false),
            idle: Notify::new(),
            next_stream: AtomicU64::new(1),
            stop: CancellationToken::new(),
            callers: Mutex::new(HashMap::new()),
        })
    }

    /// The machine's clock: wall-clock milliseconds when the engine was built, plus the
    /// monotonic time since.
    pub(crate) fn now(&self) -> u64 {
        let elapsed = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.epoch.saturating_add(elapsed)
    }

    /// Remembers the verified caller of `auth`.
    pub(crate) fn remember_caller(
        &self,
        auth: u64,
        caller: mcp_context::auth::resource_server::Caller,
    ) {
        let mut callers = self.callers.lock().unwrap_or_else(PoisonError::into_inner);
        if callers.len() >= MAX_CALLERS && !callers.contains_key(&auth) {
            callers.clear();
        }
        callers.insert(auth, Arc::new(caller));
    }

    /// The verified caller of `auth`, if one was seen.
    pub(crate) fn caller(
        &self,
        auth: u64,
    ) -> Option<Arc<mcp_context::auth::resource_server::Caller>> {
        let callers = self.callers.lock().unwrap_or_else(PoisonError::into_inner);
        callers.get(&auth).cloned()
    }

    /// A stream id never handed out before.
    pub(crate) fn new_stream(&self) -> StreamId {
        StreamId(self.next_stream.fetch_add(1, Ordering::Relaxed))
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `f` on the machine without changing it (nothing to drain).
    pub(crate) fn read<R>(&self, f: impl FnOnce(&Server) -> R) -> R {
        f(&self.lock().server)
    }

    /// Transmits for `stream` go to `sink` until the machine ends the stream or
    /// [`Engine::close_stream`] is called.
    pub(crate) fn open_stream(&self, stream: StreamId, sink: impl Into<Sink>) {
        self.lock().sinks.insert(stream, sink.into());
    }

    /// Takes what a [`Sink::Held`] stream got so far: its transmits, and unless they end
    /// the stream, a channel that gets the rest (the stream's sink from now on).
    pub(crate) fn claim(&self, stream: StreamId) -> Claimed {
        let mut st = self.lock();
        match st.sinks.remove(&stream) {
            Some(Sink::Held(held)) if held.last().is_some_and(|t| t.end_of_stream) => (held, None),
            Some(Sink::Held(held)) => {
                let (tx, rx) = mpsc::unbounded_channel();
                st.sinks.insert(stream, Sink::Channel(tx));
                (held, Some(rx))
            }
            Some(other) => {
                st.sinks.insert(stream, other);
                (Vec::new(), None)
            }
            None => (Vec::new(), None),
        }
    }

    /// Stops routing `stream`'s transmits (its sink is dropped) without telling the machine.
    pub(crate) fn forget_stream(&self, stream: StreamId) {
        let mut st = self.lock();
        st.sinks.remove(&stream);
        st.trace_headers.remove(&stream);
    }

    /// The transport closed `stream`: the machine ends its subscriptions and cancels its
    /// requests (`Server::stream_closed`).
    pub(crate) fn close_stream(self: &Arc<Self>, stream: StreamId) {
        self.input(|st, _| {
            if st.sinks.remove(&stream).is_some() {
                st.server.stream_closed(stream);
            }
            st.trace_headers.remove(&stream);
        });
    }

    /// Runs `f` on the machine with the current time, drains it, then hands the events it
    /// produced to their handlers (outside the lock).
    /// The meters of the telemetry sinks, in order ([`crate::telemetry::Sink::meter`]).
    #[cfg(feature = "redis")] // for the broker
    pub(crate) fn meters(&self) -> Vec<opentelemetry::metrics::Meter> {
        let sinks = &self.handlers.layers.sinks;
        sinks.iter().filter_map(|s| s.meter()).collect()
    }

    pub(crate) fn input<R>(self: &Arc<Self>, f: impl FnOnce(&mut State, u64) -> R) -> R {
        self.input_with(f, None)
    }

    /// Completes once no request waits for the application.
    pub(crate) async fn idle(&self) {
        loop {
            let notified = self.idle.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.lock().server.pending_requests() == 0 {
                return;
            }
            notified.await;
        }
    }

    /// Starts the task that honours the machine's timer (`poll_timeout` → `handle_timeout`),
    /// once per engine. Needs a tokio runtime.
    pub(crate) fn start_timer(self: &Arc<Self>) {
        if self.timer_started.swap(true, Ordering::AcqRel) {
            return;
        }
        let engine = self.clone();
        tokio::spawn(async move { engine.run_timer().await });
    }

    async fn run_timer(self: Arc<Self>) {
        loop {
            let notified = self.timer.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let deadline = {
                let mut st = self.lock();
                st.armed = st.server.poll_timeout();
                st.armed
            };
            let deadline = deadline.map(|d| d.saturating_sub(self.epoch));
            let sleep = crate::timer::sleep_until_deadline(self.start, deadline);
            tokio::select! {
                () = self.stop.cancelled() => return,
                () = &mut notified => {}
                () = sleep => {
                    self.input(|st, now| st.server.handle_timeout(now));
                }
            }
        }
    }

    /// Stops the timer task.
    pub(crate) fn stop(&self) {
        self.stop.cancel();
    }

    fn context(self: &Arc<Self>, handle: Handle, auth: u64, token: CancellationToken) -> Context {
        Context {
            engine: self.clone(),
            handle,
            auth,
            capabilities: mcp_context::server::DeclaredCapabilities::default(),
            cancel: token,
        }
    }

    fn dispatch(
        self: &Arc<Self>,
        event: Event,
        token: CancellationToken,
        gated: &mut Option<Call>,
    ) {
        match event {
            Event::ReadResource(e) => {
                let (handler, template) = match &e.target {
                    ReadTarget::Resource => (self.handlers.resources.get(&e.uri), None),
                    ReadTarget::Template { id, .. } => match self.handlers.templates.get(id) {
                        Some((t, h)) => (Some(h), Some(t)),
                        None => (None, None),
                    },
                    ReadTarget::Unlisted => (self.handlers.unlisted.as_ref(), None),
                };
                let Some(handler) = handler else {
                    return self.finish::<ReadReply>(
                        e.handle,
                        Err(crate::Error::not_found()),
                        |_, _, _| Ok(()),
                    );
                };
                let template = template.cloned();
                let variables = match e.target {
                    ReadTarget::Template { variables, .. } => variables,
                    _ => Vec::new(),
                };
                let Ok(call) = self.admit::<ReadReply>(
                    gated,
                    e.handle,
                    e.auth,
                    "resources/read",
                    Some(&e.uri),
                ) else {
                    return;
                };
                let mut cx = self.context(e.handle, e.auth, token.clone());
                cx.capabilities = e.capabilities;
                let fut = handler(
                    ReadRequest {
                        uri: e.uri,
                        template,
                        variables,
                        retry: e.retry,
                    },
                    cx,
                );
                self.run(e.handle, token, fut, answer_read, call);
            }
            Event::GetPrompt(e) => {
                let Some(handler) = self.handlers.prompts.get(&e.name) else {
                    return self.finish::<PromptReply>(
                        e.handle,
                        Err(crate::Error::not_found()),
                        |_, _, _| Ok(()),
                    );
                };
                let Ok(call) = self.admit::<PromptReply>(
                    gated,
                    e.handle,
                    e.auth,
                    "prompts/get",
                    Some(&e.name),
                ) else {
                    return;
                };
                let mut cx = self.context(e.handle, e.auth, token.clone());
                cx.capabilities = e.capabilities;
                let fut = handler(
                    PromptRequest {
                        name: e.name,
                        arguments: e.arguments,
                        retry: e.retry,
                    },
                    cx,
                );
                self.run(e.handle, token, fut, answer_prompt, call);
            }
            Event::CallTool(e) => {
                let Some(handler) = self.handlers.tools.get(&e.name) else {
                    return self.finish::<ToolReply>(
                        e.handle,
                        Err(crate::Error::not_found()),
                        |_, _, _| Ok(()),
                    );
                };
                let Ok(call) =
                    self.admit::<ToolReply>(gated, e.handle, e.auth, "tools/call", Some(&e.name))
                else {
                    return;
                };
                let mut cx = self.context(e.handle, e.auth, token.clone());
                cx.capabilities = e.capabilities;
                let fut = handler(
                    ToolRequest {
                        name: e.name,
                        arguments: e.arguments,
                        progress: e.progress,
                        retry: e.retry,
                    },
                    cx,
                );
                self.run(e.handle, token, fut, answer_tool, call);
            }
            Event::Complete(e) => {
                let handler = match &e.target {
                    CompletionTarget::Prompt(name) => self.handlers.complete_prompt.get(name),
                    CompletionTarget::Template(id) => self.handlers.complete_template.get(id),
                };
                let Some(handler) = handler else {
                    // No handler: no candidates, as the machine answers without events.
                    return self.finish(e.handle, Ok(Vec::new()), answer_complete);
                };
                let Ok(call) =
                    self.admit::<Vec<String>>(gated, e.handle, e.auth, "completion/complete", None)
                else {
                    return;
                };
                let cx = self.context(e.handle, e.auth, token.clone());
                let fut = handler(
                    CompleteRequest {
                        argument: e.argument,
                        value: e.value,
                        context: e.context,
                    },
                    cx,
                );
                self.run(e.handle, token, fut, answer_complete, call);
            }
            Event::Request(e) => {
                let Some(handler) = self.handlers.methods.get(&e.method) else {
                    return self.finish::<MethodReply>(
                        e.handle,
                        Err(crate::Error::not_found()),
                        |_, _, _| Ok(()),
                    );
                };
                let Ok(call) = self.admit::<MethodReply>(gated, e.handle, e.auth, &e.method, None)
                else {
                    return;
                };
                let mut cx = self.context(e.handle, e.auth, token.clone());
                cx.capabilities = e.capabilities;
                let fut = handler(
                    MethodRequest {
                        method: e.method,
                        params: e.params,
                        progress: e.progress,
                        retry: e.retry,
                    },
                    cx,
                );
                self.run(e.handle, token, fut, answer_method, call);
            }
            Event::ListResources(e) => {
                let Some(handler) = &self.handlers.list else {
                    // Dynamic lists turned on without a handler: no more pages.
                    return self.finish(e.handle, Ok(ListPage::default()), answer_list);
                };
                let Ok(call) =
                    self.admit::<ListPage>(gated, e.handle, e.auth, "resources/list", None)
                else {
                    return;
                };
                let cx = self.context(e.handle, e.auth, token.clone());
                let fut = handler(ListRequest { cursor: e.cursor }, cx);
                self.run(e.handle, token, fut, answer_list, call);
            }
            // Cancellations are handled in `drain`; overflows need nothing from the host
            // (the machine already told the client).
            _ => {}
        }
    }

    /// Polls `fut` once in place; answers now if it is ready, else spawns it.
    fn run<T: Send + 'static>(
        self: &Arc<Self>,
        handle: Handle,
        token: CancellationToken,
        mut fut: BoxFuture<HandlerResult<T>>,
        answer: Answer<T>,
        call: Option<Call>,
    ) {
        if let Some(span) = call.as_ref().and_then(|c| c.span.clone()) {
            fut = Box::pin(opentelemetry::trace::FutureExt::with_context(fut, span));
        }
        let mut cx = std::task::Context::from_waker(Waker::noop());
        match std::panic::catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(&mut cx))) {
            Ok(Poll::Ready(r)) => self.answered(handle, r, answer, call.as_ref()),
            Err(_) => self.answered(handle, Err(crate::Error::internal()), answer, call.as_ref()),
            Ok(Poll::Pending) => {
                // A cancellation the machine reported before this point found no token;
                // then the answer is refused as late, which is harmless.
                self.lock().tokens.insert(handle, token.clone());
                let engine = self.clone();
                tokio::spawn(async move {
                    tokio::select! {
                        biased;
                        () = token.cancelled() => {}
                        r = AssertUnwindSafe(fut).catch_unwind() => {
                            let r = r.unwrap_or_else(|_| Err(crate::Error::internal()));
                            engine.answered(handle, r, answer, call.as_ref());
                        }
                    }
                });
            }
        }
    }

    /// Gives the handler's answer to the machine (and drains).
    fn finish<T>(self: &Arc<Self>, handle: Handle, r: HandlerResult<T>, answer: Answer<T>) {
        self.input(|st, _| {
            st.tokens.remove(&handle);
            // An error is late (nothing left to answer) or a refused answer the machine
            // already failed with -32603 (docs/rules.md §20.4 rules 5-6): nothing to send.
            let _ = match r {
                Ok(v) => answer(&mut st.server, handle, v),
                Err(e) => st.server.fail(handle, e.into_failure()),
            };
        });
    }
}

type Answer<T> = fn(&mut Server, Handle, T) -> Result<(), RespondError>;

fn answer_read(s: &mut Server, h: Handle, r: ReadReply) -> Result<(), RespondError> {
    match r {
        ReadReply::Contents(c) => s.respond_read(h, c),
        ReadReply::Cached(c, hint) => s.respond_read_cached(h, c, hint),
        ReadReply::InputRequired(i) => s.respond_input_required(h, i),
    }
}

fn answer_prompt(s: &mut Server, h: Handle, r: PromptReply) -> Result<(), RespondError> {
    match r {
        PromptReply::Messages(m) => s.respond_prompt(h, m),
        PromptReply::InputRequired(i) => s.respond_input_required(h, i),
    }
}

fn answer_method(s: &mut Server, h: Handle, r: MethodReply) -> Result<(), RespondError> {
    match r {
        MethodReply::Result(j) => s.respond_result(h, j, None),
        MethodReply::Cached(j, hint) => s.respond_result(h, j, Some(hint)),
        MethodReply::InputRequired(i) => s.respond_input_required(h, i),
    }
}

fn answer_tool(s: &mut Server, h: Handle, r: ToolReply) -> Result<(), RespondError> {
    match r {
        ToolReply::Result(j) => s.respond_tool(h, j),
        ToolReply::InputRequired(i) => s.respond_input_required(h, i),
    }
}

fn answer_list(s: &mut Server, h: Handle, page: ListPage) -> Result<(), RespondError> {
    s.respond_list(h, page.resources, page.next_cursor)
}

fn answer_complete(s: &mut Server, h: Handle, v: Vec<String>) -> Result<(), RespondError> {
    s.respond_completion(h, v)
}

impl State {
    /// Transmits for `stream` go to `sink` (see [`Engine::open_stream`]).
    pub(crate) fn open(&mut self, stream: StreamId, sink: impl Into<Sink>) {
        self.sinks.insert(stream, sink.into());
    }

    /// Polls every output: transmits to their stream's sink, cancellations to the handler's
    /// token, events (with a fresh token) to `events`.
    fn drain(&mut self, events: &mut Vec<(Event, CancellationToken)>) {
        while let Some(out) = self.server.poll_output() {
            match out {
                Output::Transmit(t) => {
                    let (stream, end) = (t.stream, t.end_of_stream);
                    let held = self.sinks.get_mut(&stream).is_some_and(|sink| sink.send(t));
                    if end && !held {
                        self.sinks.remove(&stream);
                    }
                }
                Output::Event(Event::Cancelled { handle, .. }) => {
                    if let Some(token) = self.tokens.remove(&handle) {
                        token.cancel();
                    }
                }
                // The token is registered only if the handler has to wait (`Engine::run`):
                // one that answers in place cannot be cancelled meanwhile.
                Output::Event(e) => events.push((e, CancellationToken::new())),
            }
        }
    }
}
