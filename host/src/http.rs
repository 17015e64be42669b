//! Streamable HTTP on axum: a [`Router`] that hands every request to the core's HTTP entry
//! point (`Server::http_head` before the body is read, then `Server::handle_http`) and
//! streams the machine's answer back as one JSON body or as server-sent events.
//!
//! The host never parses JSON-RPC: the core validates the head (path, `Host`/`Origin`,
//! method, `Content-Type`, `Accept`, `Content-Length` against the body limit) and refuses
//! with the status it chose *before* the body is read, so a 64 MiB POST costs nothing;
//! then it checks headers against the body and runs the machine. A body that turns out
//! longer than the limit (chunked) is cut at the limit and refused with 413.
//!
//! Answers produced at once come back whole. Otherwise the POST's stream stays open: the
//! first transmit gives the status and kind (`application/json` body, or
//! `text/event-stream` for a listen or a request with progress), SSE streams get a comment
//! line every [`HttpOptions::keepalive`], and the response ends with the machine's
//! `end_of_stream`. A client that goes away is reported to the machine
//! (`Server::stream_closed`): its subscriptions end and its handlers are cancelled.
//!
//! The peer address (axum's `ConnectInfo<SocketAddr>`, which [`Host::serve_http`] installs;
//! a router served another way passes it with `into_make_service_with_connect_info`) goes
//! to the core as `Ctx::peer`, for its per-peer bound on 2025-11-25 sessions.

use std::borrow::Cow;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::Response;
use axum::routing::any;
use axum::serve::ListenerExt;
use futures_util::Stream;
use mcp_context::auth::resource_server::ScopeSet;
use mcp_context::http::{HeadCheck, HeadFields, HttpResponse, HttpStart, Refusal, sse};
use mcp_context::server::{BodyKind, Ctx, Gate, StreamId, Transmit};
use tokio::sync::mpsc;

use crate::engine::{Claimed, Engine, Sink};
use crate::host::Host;
use crate::protect::{TokenVerifier, caller_id, epoch_ms};

/// Resolves the caller of a request from its head: `Ok(auth id)` (`0` = anonymous, the
/// value handlers see as [`crate::Context::caller`]), or `Err(response)` to refuse it
/// (e.g. 401 with `WWW-Authenticate`).
pub type AuthFn = Arc<dyn Fn(&Parts) -> Result<u64, Response> + Send + Sync>;

/// Options of the HTTP service.
#[derive(Clone)]
pub struct HttpOptions {
    /// Who is calling (default: everyone is anonymous, `0`). With a [`Self::verifier`]
    /// this is not consulted.
    pub auth: Option<AuthFn>,
    /// Verifies bearer tokens for a protected endpoint (`ServerConfig::protection`,
    /// docs/rules.md §22): the core reads the token and decides every 401/403, this
    /// resolves the token to a caller ([`crate::protect`]). The caller's `auth` id is
    /// [`crate::protect::caller_id`]. Without one, a presented token is refused.
    pub verifier: Option<Arc<dyn TokenVerifier>>,
    /// How often an idle event stream gets a `:` comment line (default the core's
    /// [`sse::KEEPALIVE_INTERVAL_MS`], 15 s).
    pub keepalive: Duration,
    /// 2025-11-25 sessions shared with a fleet (feature `redis`; docs/scale-out.md).
    #[cfg(feature = "redis")]
    pub sessions: Option<crate::sessions_redis::RedisSessionStore>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            auth: None,
            verifier: None,
            keepalive: Duration::from_millis(sse::KEEPALIVE_INTERVAL_MS),
            #[cfg(feature = "redis")]
            sessions: None,
        }
    }
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("auth", &self.auth.is_some())
            .field("verifier", &self.verifier.is_some())
            .field("keepalive", &self.keepalive)
            .finish()
    }
}

struct Service {
    engine: Arc<Engine>,
    options: HttpOptions,
}

impl Host {
    /// The Streamable HTTP endpoint as an axum [`Router`], at the configured path
    /// (`ServerConfig::http.path`, default `/mcp`). Merge it into an application
    /// (`Router::merge`); every method on that path reaches the core, which answers 405 to
    /// what it does not serve.
    pub fn router(&self) -> Router {
        self.router_with(HttpOptions::default())
    }

    /// [`Host::router`] with options.
    pub fn router_with(&self, options: HttpOptions) -> Router {
        self.engine.start_timer();
        // A fleet's sessions: the table is loaded and kept from the start (an instance that
        // has had no request yet is subscribed too, and ready as soon as it is).
        #[cfg(feature = "redis")]
        if let Some(store) = &options.sessions {
            store.start(&self.engine);
        }
        let path = self.engine.read(endpoint_path);
        let service = Arc::new(Service {
            engine: self.engine.clone(),
            options,
        });
        let mut router = Router::new().route(&path, any(handle));
        // A protected endpoint's metadata (RFC 9728 §3.1): the core answers these paths.
        for p in self.engine.read(metadata_paths) {
            router = router.route(&p, any(handle));
        }
        router.with_state(service)
    }

    /// Serves the router on `listener` (with `TCP_NODELAY`) until `shutdown` completes, then
    /// closes gracefully:
    /// every subscription gets its final result (its event stream ends), and axum waits for
    /// the responses in flight.
    ///
    /// # Errors
    /// The listener fails.
    pub async fn serve_http(
        &self,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        self.serve_http_with(listener, HttpOptions::default(), shutdown)
            .await
    }

    /// [`Host::serve_http`] with options (a protected endpoint's
    /// [`HttpOptions::verifier`], the keepalive).
    ///
    /// # Errors
    /// The listener fails.
    pub async fn serve_http_with(
        &self,
        listener: tokio::net::TcpListener,
        options: HttpOptions,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let router = self.router_with(options);
        let notifier = self.notifier();
        let engine = self.engine.clone();
        // Small answers go out at once (no Nagle delay behind an unacknowledged segment).
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            shutdown.await;
            notifier.shutdown();
        })
        .await?;
        engine.stop();
        Ok(())
    }
}

fn metadata_paths(s: &mcp_context::server::Server) -> Vec<String> {
    let Some(p) = &s.config().protection else {
        return Vec::new();
    };
    let mut paths = vec![mcp_context::auth::resource_server::WELL_KNOWN.to_owned()];
    paths.extend(p.metadata_path());
    paths
}

fn endpoint_path(s: &mcp_context::server::Server) -> String {
    s.config()
        .http
        .path
        .clone()
        .unwrap_or_else(|| "/mcp".to_owned())
}

/// The request's header lines for the core's one mapping ([`HeadFields`]): bytes that are
/// not UTF-8 are replaced, so the core sees (and refuses) invalid characters; the URI's
/// authority (HTTP/2) is offered as `:authority`.
fn header_lines(parts: &Parts) -> Vec<(&str, Cow<'_, str>)> {
    let mut lines: Vec<(&str, Cow<'_, str>)> = parts
        .headers
        .iter()
        .map(|(n, v)| (n.as_str(), String::from_utf8_lossy(v.as_bytes())))
        .collect();
    if let Some(a) = parts.uri.authority() {
        lines.push((":authority", Cow::Borrowed(a.as_str())));
    }
    lines
}

fn header_str<'p>(parts: &'p Parts, name: &str) -> Option<&'p str> {
    parts.headers.get(name).and_then(|v| v.to_str().ok())
}

fn respond(r: HttpResponse) -> Response {
    let mut builder = Response::builder().status(r.status);
    for (name, value) in &r.headers {
        builder = builder.header(*name, value);
    }
    builder
        .body(Body::from(r.body))
        .unwrap_or_else(|_| internal())
}

fn internal() -> Response {
    let mut r = Response::new(Body::empty());
    *r.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    r
}

async fn handle(State(svc): State<Arc<Service>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let lines = header_lines(&parts);
    let fields = HeadFields::new(lines.iter().map(|(n, v)| (*n, v.as_ref())));
    let head = fields.head(parts.method.as_str(), parts.uri.path());
    let gate = svc
        .engine
        .read(|s| s.http_authenticate(&head, fields.authorization()));
    let (auth, scopes) = match gate {
        Gate::Respond(r) => return respond(r),
        Gate::Verify(token) => match admit(&svc, token).await {
            Ok(admitted) => admitted,
            Err(r) => return respond(r),
        },
        Gate::Proceed => match &svc.options.auth {
            Some(resolve) if svc.options.verifier.is_none() => match resolve(&parts) {
                Ok(auth) => (auth, None),
                Err(refusal) => return refusal,
            },
            _ => (0, None),
        },
    };
    #[cfg(feature = "redis")]
    let shared = svc.options.sessions.clone();
    #[cfg(feature = "redis")]
    if let Some(store) = &shared {
        // A fleet's sessions: this instance takes the stored state first.
        store.start(&svc.engine);
        if let Some(id) = head.session_id {
            store.refresh(&svc.engine, id).await;
        }
    }
    let limit = match svc.engine.read(|s| s.http_head(&head)) {
        HeadCheck::ReadBody { limit } => limit,
        HeadCheck::Respond(r) => return respond(r),
    };
    let bytes: Bytes = match axum::body::to_bytes(body, limit).await {
        Ok(b) => b,
        // Longer than the limit (a chunked body) or cut off: refused as too large.
        Err(_) => return respond(Refusal::PayloadTooLarge.response("POST")),
    };
    let stream = svc.engine.new_stream();
    let mut ctx = Ctx::http(stream, auth);
    if let Some(s) = scopes {
        ctx = ctx.with_scopes(s);
    }
    if let Some(ConnectInfo(addr)) = parts.extensions.get::<ConnectInfo<SocketAddr>>() {
        ctx = ctx.with_peer(addr.ip());
    }
    // The answer is held in place: a handler ready at once has answered when `input` returns.
    let traceparent = header_str(&parts, "traceparent");
    let start = svc.engine.http(&head, &bytes, ctx, traceparent, |st| {
        st.open(stream, Sink::Held(Vec::new()));
        st.trace_header(stream, header_str(&parts, "traceparent"));
    });
    #[cfg(feature = "redis")]
    if let Some(store) = &shared {
        store.flush(&svc.engine).await; // stored before the answer goes
        if let (HttpStart::EventStream { response, .. }, Some(id)) = (&start, head.session_id) {
            let last = fields.last_event_id().map(String::from);
            return crate::sessions_redis::event_stream(
                store.clone(),
                svc.engine.clone(),
                String::from(id),
                last,
                stream,
                svc.engine.claim(stream),
                response.clone(),
                svc.options.keepalive,
            )
            .await;
        }
    }
    match start {
        HttpStart::Respond(r) => {
            svc.engine.forget_stream(stream);
            respond(r)
        }
        HttpStart::Stream(_) => {
            let guard = Guard {
                engine: svc.engine.clone(),
                stream,
                ended: false,
            };
            answer(guard, svc.engine.claim(stream), svc.options.keepalive).await
        }
        // A 2025-11-25 session's GET stream: the head now, then the session's events.
        HttpStart::EventStream { response, .. } => {
            let (held, rx) = svc.engine.claim(stream);
            let guard = Guard {
                engine: svc.engine.clone(),
                stream,
                ended: false,
            };
            let mut builder = Response::builder().status(response.status);
            for (name, value) in &response.headers {
                builder = builder.header(*name, value);
            }
            let events = Events {
                first: None,
                held: held.into_iter(),
                rx,
                guard,
                keepalive: keepalive(svc.options.keepalive),
            };
            builder
                .body(Body::from_stream(events))
                .unwrap_or_else(|_| internal())
        }
    }
}

/// The verifier's verdict on `token`, then the core's checks: the caller's `auth` id and
/// scopes, or the 401/403 to write.
async fn admit(svc: &Service, token: &str) -> Result<(u64, Option<ScopeSet>), HttpResponse> {
    let Some(verifier) = &svc.options.verifier else {
        return Err(svc
            .engine
            .read(|s| s.http_reject("no verifier is configured")));
    };
    match verifier.verify(token).await {
        Err(why) => Err(svc.engine.read(|s| s.http_reject(&why))),
        Ok(caller) => {
            let scopes = svc.engine.read(|s| s.http_admit(&caller, epoch_ms()))?;
            let auth = caller_id(&caller);
            svc.engine.remember_caller(auth, caller);
            Ok((auth, Some(scopes)))
        }
    }
}

/// Reports the stream closed to the machine when the response is dropped before the
/// machine ended it (the client went away).
struct Guard {
    engine: Arc<Engine>,
    stream: StreamId,
    ended: bool,
}

impl Drop for Guard {
    fn drop(&mut self) {
        if !self.ended {
            self.engine.close_stream(self.stream);
        }
    }
}

async fn answer(mut guard: Guard, (held, mut rx): Claimed, keepalive: Duration) -> Response {
    let mut held = held.into_iter();
    let first = match held.next() {
        Some(t) => Some(t),
        None => match rx.as_mut() {
            Some(rx) => rx.recv().await,
            None => None,
        },
    };
    let Some(first) = first else {
        guard.ended = true;
        return internal();
    };
    let mut builder = Response::builder().status(first.http_status);
    if let Some(headers) = builder.headers_mut() {
        for (name, value) in first.http_headers() {
            if let Ok(name) = axum::http::HeaderName::from_bytes(name.as_bytes()) {
                headers.insert(name, axum::http::HeaderValue::from_static(value));
            }
        }
    }
    if first.kind == BodyKind::Json {
        guard.ended = first.end_of_stream;
        return builder
            .body(Body::from(first.bytes))
            .unwrap_or_else(|_| internal());
    }
    guard.ended = first.end_of_stream;
    let events = Events {
        first: Some(first),
        held,
        rx,
        guard,
        keepalive: self::keepalive(keepalive),
    };
    builder
        .body(Body::from_stream(events))
        .unwrap_or_else(|_| internal())
}

fn keepalive(every: Duration) -> tokio::time::Interval {
    tokio::time::interval_at(tokio::time::Instant::now() + every, every)
}

/// The event stream of one POST (or legacy session GET): `data:` events from the machine, `:` comments while idle.
struct Events {
    first: Option<Transmit>,
    /// Transmits the machine produced before the response was built.
    held: std::vec::IntoIter<Transmit>,
    /// The rest, unless the held ones ended the stream.
    rx: Option<mpsc::UnboundedReceiver<Transmit>>,
    guard: Guard,
    keepalive: tokio::time::Interval,
}

fn event(t: &Transmit) -> Bytes {
    Bytes::from(sse::data_event(&t.bytes))
}

impl Stream for Events {
    type Item = Result<Bytes, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Option<Self::Item>> {
        if let Some(t) = self.first.take() {
            return Poll::Ready(Some(Ok(event(&t))));
        }
        if self.guard.ended {
            return Poll::Ready(None);
        }
        let next = match self.held.next() {
            Some(t) => Poll::Ready(Some(t)),
            None => match self.rx.as_mut() {
                Some(rx) => rx.poll_recv(cx),
                None => Poll::Ready(None),
            },
        };
        match next {
            Poll::Ready(Some(t)) => {
                if t.end_of_stream {
                    self.guard.ended = true;
                }
                return Poll::Ready(Some(Ok(event(&t))));
            }
            Poll::Ready(None) => {
                // The machine dropped the stream's sink: nothing more will come.
                self.guard.ended = true;
                return Poll::Ready(None);
            }
            Poll::Pending => {}
        }
        match self.keepalive.poll_tick(cx) {
            Poll::Ready(_) => Poll::Ready(Some(Ok(Bytes::from_static(sse::KEEPALIVE)))),
            Poll::Pending => Poll::Pending,
        }
    }
}
