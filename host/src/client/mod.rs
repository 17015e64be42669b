//! An async MCP client: the core's client machine (`mcp_context::client::Client`) driven on
//! tokio, over a child process's stdio ([`McpClient::spawn`]), any reader/writer pair
//! ([`McpClient::over_io`]) or Streamable HTTP ([`McpClient::http`]).
//!
//! Every call returns the machine's typed reply (`Reply<K>`: the raw JSON with a typed view
//! on demand); a subscription is a [`Subscription`], a `Stream` of notices. The machine
//! negotiates the era (a 2025-11-25 server gets `initialize`), pages, retries versions and
//! caches; this module moves bytes and keeps time.
//!
//! ```no_run
//! # async fn demo() -> Result<(), mcp_context_host::client::Error> {
//! use mcp_context_host::client::McpClient;
//! let client = McpClient::spawn(tokio::process::Command::new("target/debug/demo-server"))?;
//! let read = client.read_resource("notes://acme/1").await?;
//! println!("{}", read.json());
//! # Ok(()) }
//! ```

mod auth;
mod http;
mod stdio;

use std::collections::HashMap;
use std::fmt;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Poll, ready};
use std::time::Instant;

use futures_util::Stream;
use mcp_context::client::reply::{self, Listing, Reply};
use mcp_context::client::{
    CachePolicy, CallError, CallId, Client, ClientConfig, CompletionRef, ConnectError, EndReason,
    Event, ListMode, Notice, Output, Session, Transmit,
};
use mcp_context::messages::owned::{OwnedInputRequest, OwnedJson, OwnedSubscriptionFilter};
use tokio::sync::{Notify, mpsc, oneshot};
use tokio_util::sync::CancellationToken;

pub use auth::{OAuth, Redirect, UserAgent};
pub use http::HttpTransport;

/// Why a call gave no result.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The call failed (server error, timeout, closed transport…).
    Call(CallError),
    /// The era/version negotiation failed.
    Connect(ConnectError),
    /// The server asked for input (`input_required`); this client fulfils none, so the
    /// call was abandoned. The requests are given for the caller to inspect.
    InputRequired(Vec<(String, OwnedInputRequest)>),
    /// The client is closed.
    Closed,
    /// The transport could not start.
    Io(std::io::Error),
    /// The configuration was refused.
    Config(mcp_context::client::ConfigError),
    /// The machine refused the call before sending it (a method it owns, params that are
    /// not an object, a tool rejected from `tools/list`).
    Refused(mcp_context::client::ClientError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Call(e) => write!(f, "{e}"),
            Self::Connect(e) => write!(f, "{e}"),
            Self::InputRequired(r) => write!(f, "the server asked for {} input(s)", r.len()),
            Self::Closed => f.write_str("client closed"),
            Self::Io(e) => write!(f, "{e}"),
            Self::Config(e) => write!(f, "{e}"),
            Self::Refused(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

/// Where the machine's transmits go.
pub(crate) enum Wire {
    /// Lines to a writer task.
    Lines(mpsc::UnboundedSender<Vec<u8>>),
    /// One POST per message.
    Http(HttpTransport),
}

struct State {
    client: Client,
    calls: HashMap<CallId, oneshot::Sender<Event>>,
    listens: HashMap<CallId, mpsc::UnboundedSender<Event>>,
    connect: Vec<oneshot::Sender<Result<Session, ConnectError>>>,
    session: Option<Result<Session, ConnectError>>,
    armed: Option<u64>,
    closed: bool,
}

pub(crate) struct Inner {
    state: Mutex<State>,
    start: Instant,
    timer: Notify,
    wire: Wire,
    stop: CancellationToken,
}

/// An async MCP client. Cheap to clone; clones share the connection.
#[derive(Clone)]
pub struct McpClient {
    inner: Arc<Inner>,
}

impl fmt::Debug for McpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpClient").finish_non_exhaustive()
    }
}

/// The default configuration: named `mcp-context-primitives-host`, the core's defaults.
#[must_use]
pub fn default_config() -> ClientConfig {
    ClientConfig::new("mcp-context-host", env!("CARGO_PKG_VERSION"))
}

impl Inner {
    fn now(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `f` on the machine, drains it (events to their waiters), then sends the
    /// transmits it produced.
    pub(crate) fn input<R>(self: &Arc<Self>, f: impl FnOnce(&mut Client, u64) -> R) -> R {
        self.input_with(|st, now| f(&mut st.client, now))
    }

    fn input_with<R>(self: &Arc<Self>, f: impl FnOnce(&mut State, u64) -> R) -> R {
        let mut sends = Vec::new();
        let (r, wake) = {
            let mut st = self.lock();
            let r = f(&mut st, self.now());
            while let Some(out) = st.client.poll_output() {
                match out {
                    Output::Transmit(t) => sends.push(Outgoing::Transmit(t)),
                    Output::CloseStream { id } => sends.push(Outgoing::Close(id)),
                    Output::Event(e) => st.route(e),
                }
            }
            let deadline = st.client.poll_timeout();
            let wake = match (deadline, st.armed) {
                (Some(d), Some(a)) => d < a,
                (Some(_), None) => true,
                (None, _) => false,
            };
            if wake {
                st.armed = deadline;
            }
            (r, wake)
        };
        if wake {
            self.timer.notify_one();
        }
        for s in sends {
            match (s, &self.wire) {
                (Outgoing::Transmit(t), Wire::Lines(tx)) => {
                    let _ = tx.send(t.bytes);
                }
                (Outgoing::Transmit(t), Wire::Http(h)) => h.post(self, t),
                (Outgoing::Close(id), Wire::Http(h)) => h.close(id),
                (Outgoing::Close(_), Wire::Lines(_)) => {}
            }
        }
        r
    }

    async fn run_timer(self: Arc<Self>) {
        loop {
            let notified = self.timer.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let deadline = {
                let mut st = self.lock();
                st.armed = st.client.poll_timeout();
                st.armed
            };
            let sleep = crate::timer::sleep_until_deadline(self.start, deadline);
            tokio::select! {
                () = self.stop.cancelled() => return,
                () = &mut notified => {}
                () = sleep => self.input(|c, now| c.handle_timeout(now)),
            }
        }
    }

    /// The transport ended: every call fails, subscriptions end.
    pub(crate) fn transport_closed(self: &Arc<Self>) {
        self.input_with(|st, now| {
            st.closed = true;
            st.client.handle_close(now);
        });
        self.stop.cancel();
    }
}

enum Outgoing {
    Transmit(Transmit),
    Close(i64),
}

impl State {
    fn route(&mut self, e: Event) {
        match e {
            Event::Connected(s) => {
                for w in self.connect.drain(..) {
                    let _ = w.send(Ok(s.clone()));
                }
                self.session = Some(Ok(s));
            }
            Event::ConnectFailed(err) => {
                for w in self.connect.drain(..) {
                    let _ = w.send(Err(err));
                }
                self.session = Some(Err(err));
            }
            Event::Acknowledged { call, .. }
            | Event::Notified {
                subscription: Some(call),
                ..
            } => {
                if let Some(tx) = self.listens.get(&call) {
                    let _ = tx.send(e);
                }
            }
            Event::SubscriptionEnded { call, .. } => {
                if let Some(tx) = self.listens.remove(&call) {
                    let _ = tx.send(e);
                }
            }
            Event::Discovered { call, .. }
            | Event::ResourcesListed { call, .. }
            | Event::TemplatesListed { call, .. }
            | Event::PromptsListed { call, .. }
            | Event::ToolsListed { call, .. }
            | Event::ResourceRead { call, .. }
            | Event::PromptFetched { call, .. }
            | Event::Completed { call, .. }
            | Event::Responded { call, .. }
            | Event::InputRequired { call, .. }
            | Event::Failed { call, .. } => {
                if let Some(tx) = self.calls.remove(&call) {
                    let _ = tx.send(e);
                } else if let Some(tx) = self.listens.remove(&call) {
                    let _ = tx.send(e);
                }
            }
            _ => {}
        }
    }
}

/// Cancels the call if the caller stops waiting.
struct CallGuard<'a> {
    inner: &'a Arc<Inner>,
    call: Option<CallId>,
}

impl Drop for CallGuard<'_> {
    fn drop(&mut self) {
        if let Some(call) = self.call.take() {
            self.inner.input_with(|st, now| {
                st.calls.remove(&call);
                let _ = st.client.cancel(call, None, now);
            });
        }
    }
}

macro_rules! expect_event {
    ($ev:expr, $variant:ident, $field:ident) => {
        match $ev {
            Event::$variant { $field, .. } => Ok($field),
            other => Err(unexpected(other)),
        }
    };
}

fn unexpected(e: Event) -> Error {
    match e {
        Event::Failed { error, .. } => Error::Call(error),
        Event::InputRequired { requests, .. } => Error::InputRequired(requests),
        _ => Error::Closed,
    }
}

impl McpClient {
    pub(crate) fn start(config: ClientConfig, wire: Wire) -> Result<Self, Error> {
        let client = Client::new(config).map_err(Error::Config)?;
        let inner = Arc::new(Inner {
            state: Mutex::new(State {
                client,
                calls: HashMap::new(),
                listens: HashMap::new(),
                connect: Vec::new(),
                session: None,
                armed: None,
                closed: false,
            }),
            start: Instant::now(),
            timer: Notify::new(),
            wire,
            stop: CancellationToken::new(),
        });
        tokio::spawn(inner.clone().run_timer());
        Ok(Self { inner })
    }

    pub(crate) fn inner(&self) -> &Arc<Inner> {
        &self.inner
    }

    /// Negotiates the era and version now (calls do it on demand) and returns the session.
    ///
    /// # Errors
    /// [`Error::Connect`] when negotiation fails.
    pub async fn connect(&self) -> Result<Session, Error> {
        let (tx, rx) = oneshot::channel();
        let ready = self.inner.input_with(|st, now| match &st.session {
            Some(s) => Some(s.clone()),
            None => {
                st.connect.push(tx);
                st.client.connect(now);
                None
            }
        });
        let session = match ready {
            Some(s) => s,
            None => rx.await.map_err(|_| Error::Closed)?,
        };
        session.map_err(Error::Connect)
    }

    async fn call(&self, start: impl FnOnce(&mut Client, u64) -> CallId) -> Result<Event, Error> {
        self.try_call(|c, now| Ok(start(c, now))).await
    }

    async fn try_call(
        &self,
        start: impl FnOnce(&mut Client, u64) -> Result<CallId, Error>,
    ) -> Result<Event, Error> {
        let (tx, rx) = oneshot::channel();
        let call = self.inner.input_with(|st, now| {
            if st.closed {
                return Err(Error::Closed);
            }
            let call = start(&mut st.client, now)?;
            st.calls.insert(call, tx);
            Ok(call)
        })?;
        let mut guard = CallGuard {
            inner: &self.inner,
            call: Some(call),
        };
        let event = rx.await.map_err(|_| Error::Closed);
        guard.call = None;
        let event = event?;
        if let Event::InputRequired { call, .. } = &event {
            let call = *call;
            self.inner.input(|c, now| {
                let _ = c.cancel(call, None, now);
            });
        }
        Ok(event)
    }

    /// `server/discover` (modern servers).
    ///
    /// # Errors
    /// The call failed.
    pub async fn discover(&self) -> Result<Reply<reply::Discover>, Error> {
        let e = self
            .call(|c, now| c.discover(CachePolicy::Refresh, now))
            .await?;
        expect_event!(e, Discovered, reply)
    }

    /// Every page of `resources/list`.
    ///
    /// # Errors
    /// The call failed.
    pub async fn list_resources(&self) -> Result<Listing<reply::ResourceList>, Error> {
        let e = self
            .call(|c, now| c.list_resources(ListMode::All, CachePolicy::Refresh, now))
            .await?;
        expect_event!(e, ResourcesListed, listing)
    }

    /// Every page of `resources/templates/list`.
    ///
    /// # Errors
    /// The call failed.
    pub async fn list_resource_templates(&self) -> Result<Listing<reply::TemplateList>, Error> {
        let e = self
            .call(|c, now| c.list_resource_templates(ListMode::All, CachePolicy::Refresh, now))
            .await?;
        expect_event!(e, TemplatesListed, listing)
    }

    /// Every page of `prompts/list`.
    ///
    /// # Errors
    /// The call failed.
    pub async fn list_prompts(&self) -> Result<Listing<reply::PromptList>, Error> {
        let e = self
            .call(|c, now| c.list_prompts(ListMode::All, CachePolicy::Refresh, now))
            .await?;
        expect_event!(e, PromptsListed, listing)
    }

    /// Every page of `tools/list`, paged and screened by the core's client machine (tools it
    /// rejects, e.g. a malformed `x-mcp-header`, are left out).
    ///
    /// # Errors
    /// The call failed.
    pub async fn list_tools(&self) -> Result<Listing<reply::ToolList>, Error> {
        let e = self
            .call(|c, now| c.list_tools(ListMode::All, CachePolicy::Refresh, now))
            .await?;
        expect_event!(e, ToolsListed, listing)
    }

    /// `resources/read` of `uri` (always asks the server; see
    /// [`McpClient::read_resource_cached`]).
    ///
    /// # Errors
    /// The call failed (a missing resource is [`CallError::Server`] with -32602).
    pub async fn read_resource(&self, uri: &str) -> Result<Reply<reply::Read>, Error> {
        let e = self
            .call(|c, now| c.read_resource(uri, CachePolicy::Refresh, now))
            .await?;
        expect_event!(e, ResourceRead, reply)
    }

    /// `resources/read` of `uri`, answered from the cache while the server's hints allow.
    ///
    /// # Errors
    /// The call failed.
    pub async fn read_resource_cached(&self, uri: &str) -> Result<Reply<reply::Read>, Error> {
        let e = self
            .call(|c, now| c.read_resource(uri, CachePolicy::PreferCache, now))
            .await?;
        expect_event!(e, ResourceRead, reply)
    }

    /// `prompts/get` of `name` with `arguments`.
    ///
    /// # Errors
    /// The call failed.
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: &[(&str, &str)],
    ) -> Result<Reply<reply::Prompt>, Error> {
        let e = self
            .call(|c, now| c.get_prompt(name, arguments, now))
            .await?;
        expect_event!(e, PromptFetched, reply)
    }

    /// `completion/complete` of `argument` (name, partial value) for `reference`, with the
    /// arguments already resolved in `context`.
    ///
    /// # Errors
    /// The call failed.
    pub async fn complete(
        &self,
        reference: CompletionRef,
        argument: (&str, &str),
        context: Option<&[(&str, &str)]>,
    ) -> Result<Reply<reply::Completion>, Error> {
        let e = self
            .call(|c, now| c.complete(reference, argument, context, now))
            .await?;
        expect_event!(e, Completed, reply)
    }

    /// Any other method (`tools/list`, `tools/call`, a vendor method) with `params` (an
    /// object); the machine adds `_meta`, the id and the deadline, retries versions and
    /// runs the `input_required` loop. Returns the `result` object.
    ///
    /// # Errors
    /// [`Error::Refused`] for a method the machine owns or params that are not an object;
    /// otherwise the call failed.
    pub async fn request(&self, method: &str, params: OwnedJson) -> Result<OwnedJson, Error> {
        let e = self
            .try_call(|c, now| c.request(method, params, now).map_err(Error::Refused))
            .await?;
        expect_event!(e, Responded, result)
    }

    /// `subscriptions/listen` with `filter`; resolves once the server acknowledged it.
    ///
    /// # Errors
    /// The listen request failed.
    pub async fn listen(&self, filter: OwnedSubscriptionFilter) -> Result<Subscription, Error> {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let call = self.inner.input_with(|st, now| {
            if st.closed {
                return None;
            }
            let call = st.client.listen(filter, now);
            st.listens.insert(call, tx);
            Some(call)
        });
        let call = call.ok_or(Error::Closed)?;
        match rx.recv().await {
            Some(Event::Acknowledged {
                honoured, refused, ..
            }) => Ok(Subscription {
                client: self.clone(),
                call,
                rx,
                honoured,
                refused,
                ended: None,
            }),
            Some(other) => Err(unexpected(other)),
            None => Err(Error::Closed),
        }
    }

    /// Closes the transport: pending calls fail with [`CallError::Closed`]; over HTTP, a
    /// 2025-11-25 session is ended with a `DELETE`.
    pub fn close(&self) {
        // On stdio, dropping the writer's sender is not possible while clones exist; the
        // machine is closed instead and the transport ends with the last clone.
        if let Wire::Http(h) = &self.inner.wire
            && let Some(headers) = self.inner.input(|c, _| c.end_session())
        {
            h.end_session(headers);
        }
        self.inner.transport_closed();
    }
}

/// An open `subscriptions/listen`: a `Stream` of [`Notice`]s that ends when the
/// subscription does ([`Subscription::end_reason`]). Dropping it cancels the subscription.
pub struct Subscription {
    client: McpClient,
    call: CallId,
    rx: mpsc::UnboundedReceiver<Event>,
    honoured: OwnedSubscriptionFilter,
    refused: OwnedSubscriptionFilter,
    ended: Option<EndReason>,
}

impl fmt::Debug for Subscription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Subscription")
            .field("honoured", &self.honoured)
            .field("refused", &self.refused)
            .finish_non_exhaustive()
    }
}

impl Subscription {
    /// What the server honours.
    #[must_use]
    pub fn honoured(&self) -> &OwnedSubscriptionFilter {
        &self.honoured
    }

    /// What was asked for and refused (empty: nothing).
    #[must_use]
    pub fn refused(&self) -> &OwnedSubscriptionFilter {
        &self.refused
    }

    /// How the subscription ended, once the stream has.
    #[must_use]
    pub fn end_reason(&self) -> Option<&EndReason> {
        self.ended.as_ref()
    }
}

impl Stream for Subscription {
    type Item = Notice;

    fn poll_next(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> Poll<Option<Notice>> {
        loop {
            match ready!(self.rx.poll_recv(cx)) {
                Some(Event::Notified { notice, .. }) => return Poll::Ready(Some(notice)),
                Some(Event::SubscriptionEnded { reason, .. }) => {
                    self.ended = Some(reason);
                    return Poll::Ready(None);
                }
                Some(Event::Failed { .. }) | None => return Poll::Ready(None),
                Some(_) => {}
            }
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        if self.ended.is_none() {
            let call = self.call;
            self.client.inner.input_with(|st, now| {
                st.listens.remove(&call);
                let _ = st.client.cancel(call, None, now);
            });
        }
    }
}
