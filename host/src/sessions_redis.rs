//! 2025-11-25 sessions across the instances of a fleet, in Redis (feature `redis`;
//! docs/scale-out.md "2025-11-25 sessions across instances"): the same keys, channel and
//! behaviour as the Python runner's `mcp_context._session_store`, so Rust and Python
//! instances can share one fleet's sessions.
//!
//! ```no_run
//! # async fn run(host: mcp_context_host::Host, listener: tokio::net::TcpListener) {
//! use mcp_context_host::http::HttpOptions;
//! use mcp_context_host::sessions_redis::RedisSessionStore;
//!
//! let sessions = RedisSessionStore::new("redis://10.0.0.5:6379/0", "notes").unwrap();
//! let options = HttpOptions { sessions: Some(sessions), ..HttpOptions::default() };
//! host.serve_http_with(listener, options, std::future::pending()).await.unwrap();
//! # }
//! ```
//!
//! The core decides what a session is and encodes it (`Server::export_session`,
//! `import_session`, `take_session_changes`, the GET stream's event ids and replay rule);
//! this module moves the bytes: `HGET` before a request naming a session, `MULTI` (`HSET` or
//! `HDEL`, `PUBLISH`) before the answer, the fleet's table kept from the channel, each GET
//! stream event stored (`ZADD`, trimmed, expiring) before it is written, and replayed on a
//! `GET` with `Last-Event-ID`.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::response::Response;
use futures_util::StreamExt;
use mcp_context::http::{HttpResponse, sse};
use mcp_context::server::{SessionChange, SessionMessage, StreamId, Transmit, session_event_seq};
use redis::aio::MultiplexedConnection;
use tokio::time::timeout;

use crate::engine::Engine;

/// Redis operations' deadline: an unreachable Redis costs a request at most this.
const DEADLINE: Duration = Duration::from_secs(2);

/// The fleet's 2025-11-25 sessions and GET stream events on one Redis. Cheap to clone.
#[derive(Clone)]
pub struct RedisSessionStore {
    inner: Arc<Inner>,
}

struct Inner {
    client: redis::Client,
    key: String,
    events_prefix: String,
    instance: [u8; 16],
    events_max: isize,
    events_ttl_ms: i64,
    retry: Duration,
    conn: tokio::sync::Mutex<Option<MultiplexedConnection>>,
    started: AtomicBool,
    connected: AtomicBool,
    dropped: AtomicU64,
    events: AtomicU64,
    engine: Mutex<Option<Arc<Engine>>>,
}

impl std::fmt::Debug for RedisSessionStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisSessionStore")
            .field("key", &self.inner.key)
            .field("connected", &self.connected())
            .finish_non_exhaustive()
    }
}

impl RedisSessionStore {
    /// A store on `url` for the fleet `fleet` (the keys' name part, as the Python store's):
    /// 1 000 events kept per session for 30 minutes after the last one.
    ///
    /// # Errors
    /// `url` is not a Redis URL, or `fleet` is empty or holds `:`, spaces or glob characters.
    pub fn new(url: &str, fleet: &str) -> redis::RedisResult<Self> {
        if fleet.is_empty() || fleet.contains([':', '*', '?', '[', ']', ' ']) {
            return Err((
                redis::ErrorKind::InvalidClientConfig,
                "fleet: a non-empty name without ':', spaces or glob characters",
            )
                .into());
        }
        let mut instance = [0u8; 16];
        for (i, chunk) in instance.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_usize(i);
            h.write_u32(std::process::id());
            h.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos()),
            );
            chunk.copy_from_slice(&h.finish().to_le_bytes());
        }
        Ok(Self {
            inner: Arc::new(Inner {
                client: redis::Client::open(url)?,
                key: format!("mcp-context:{fleet}:sessions"),
                events_prefix: format!("mcp-context:{fleet}:events:"),
                instance,
                events_max: 1000,
                events_ttl_ms: 30 * 60 * 1000,
                retry: Duration::from_millis(500),
                conn: tokio::sync::Mutex::new(None),
                started: AtomicBool::new(false),
                connected: AtomicBool::new(false),
                dropped: AtomicU64::new(0),
                events: AtomicU64::new(0),
                engine: Mutex::new(None),
            }),
        })
    }

    /// Whether the channel is subscribed (the fleet's table is being kept).
    #[must_use]
    pub fn connected(&self) -> bool {
        self.inner.connected.load(Ordering::Relaxed)
    }

    /// Session changes and events not stored because Redis was unreachable.
    #[must_use]
    pub fn dropped(&self) -> u64 {
        self.inner.dropped.load(Ordering::Relaxed)
    }

    /// GET stream events stored.
    #[must_use]
    pub fn events(&self) -> u64 {
        self.inner.events.load(Ordering::Relaxed)
    }

    /// When the router is built (and, idempotent, on each request): the machine shares its
    /// sessions, the channel task starts.
    pub(crate) fn start(&self, engine: &Arc<Engine>) {
        if self.inner.started.swap(true, Ordering::AcqRel) {
            return;
        }
        let instance = self.inner.instance;
        engine.input(|st, _| st.server.share_sessions(Some(&instance)));
        *self
            .inner
            .engine
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(engine.clone());
        let me = self.clone();
        tokio::spawn(async move { me.keep_table().await });
    }

    async fn conn(&self) -> Option<MultiplexedConnection> {
        let mut slot = self.inner.conn.lock().await;
        if slot.is_none() {
            let c = timeout(
                DEADLINE,
                self.inner.client.get_multiplexed_async_connection(),
            )
            .await;
            *slot = c.ok().and_then(Result::ok);
        }
        slot.clone()
    }

    async fn lost(&self) {
        *self.inner.conn.lock().await = None;
    }

    /// Before a request naming `session`: takes the store's state, or forgets the session
    /// (ended elsewhere). Redis unreachable: the local copy serves.
    pub(crate) async fn refresh(&self, engine: &Arc<Engine>, session: &str) {
        let Some(mut c) = self.conn().await else {
            return;
        };
        let got = timeout(
            DEADLINE,
            redis::cmd("HGET")
                .arg(&self.inner.key)
                .arg(session)
                .query_async::<Option<Vec<u8>>>(&mut c),
        )
        .await;
        match got {
            Ok(Ok(state)) => apply(engine, session, state.as_deref()),
            _ => self.lost().await,
        }
    }

    /// After a request: stores what the core reports changed, before the answer goes.
    pub(crate) async fn flush(&self, engine: &Arc<Engine>) {
        let changes = engine.input(|st, _| {
            let mut out = Vec::new();
            st.server.take_session_changes(&mut out);
            out
        });
        if changes.is_empty() {
            return;
        }
        let mut pipe = redis::pipe();
        pipe.atomic();
        for change in &changes {
            let (id, state) = match change {
                SessionChange::Stored { id, state } => {
                    pipe.cmd("HSET").arg(&self.inner.key).arg(id).arg(state);
                    (id, Some(state.as_slice()))
                }
                SessionChange::Ended { id } => {
                    pipe.cmd("HDEL").arg(&self.inner.key).arg(id);
                    pipe.cmd("DEL")
                        .arg(format!("{}{id}", self.inner.events_prefix));
                    (id, None)
                }
            };
            let message = SessionMessage {
                origin: &self.inner.instance,
                id,
                state,
            };
            pipe.cmd("PUBLISH")
                .arg(&self.inner.key)
                .arg(message.encode());
        }
        let stored = match self.conn().await {
            Some(mut c) => matches!(
                timeout(DEADLINE, pipe.query_async::<()>(&mut c)).await,
                Ok(Ok(()))
            ),
            None => false,
        };
        engine.input(|st, _| {
            // in flight until now: a table load kept their state
            for c in &changes {
                let (SessionChange::Stored { id, .. } | SessionChange::Ended { id }) = c;
                st.server.session_change_settled(id);
            }
        });
        if !stored {
            self.lost().await;
            self.inner
                .dropped
                .fetch_add(changes.len() as u64, Ordering::Relaxed);
        }
    }

    /// A GET stream of `session` opened here: the stored events after `last_event_id` (the
    /// core's replay rule) to send first; the next events are numbered after every stored one.
    async fn opened(
        &self,
        engine: &Arc<Engine>,
        session: &str,
        last_event_id: Option<&str>,
        stream: StreamId,
    ) -> Vec<Vec<u8>> {
        let key = format!("{}{session}", self.inner.events_prefix);
        let after = last_event_id.and_then(session_event_seq);
        let Some(mut c) = self.conn().await else {
            return Vec::new();
        };
        let top = timeout(
            DEADLINE,
            redis::cmd("ZRANGE")
                .arg(&key)
                .arg(-1)
                .arg(-1)
                .arg("WITHSCORES")
                .query_async::<Vec<(Vec<u8>, f64)>>(&mut c),
        )
        .await;
        let top = match top {
            Ok(Ok(v)) => v.first().map_or(0, |(_, s)| *s as u64),
            _ => return Vec::new(),
        };
        engine.input(|st, _| st.server.session_stream_floor(stream, top));
        let Some(after) = after else {
            return Vec::new();
        };
        let replay = timeout(
            DEADLINE,
            redis::cmd("ZRANGEBYSCORE")
                .arg(&key)
                .arg(format!("({after}"))
                .arg("+inf")
                .query_async::<Vec<Vec<u8>>>(&mut c),
        )
        .await;
        replay.ok().and_then(Result::ok).unwrap_or_default()
    }

    /// Stores one framed event of a session's GET stream.
    async fn record(&self, session: &str, seq: u64, event: &[u8]) {
        let key = format!("{}{session}", self.inner.events_prefix);
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("ZADD")
            .arg(&key)
            .arg(seq)
            .arg(event)
            .cmd("ZREMRANGEBYRANK")
            .arg(&key)
            .arg(0)
            .arg(-(self.inner.events_max + 1))
            .cmd("PEXPIRE")
            .arg(&key)
            .arg(self.inner.events_ttl_ms);
        let ok = match self.conn().await {
            Some(mut c) => matches!(
                timeout(DEADLINE, pipe.query_async::<()>(&mut c)).await,
                Ok(Ok(()))
            ),
            None => false,
        };
        if ok {
            self.inner.events.fetch_add(1, Ordering::Relaxed);
        } else {
            self.lost().await;
            self.inner.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// For the server's lifetime: loads the fleet's table, then keeps it from the channel;
    /// reconnects every `retry` after a loss.
    async fn keep_table(self) {
        loop {
            // A lost channel is retried; `connected()` says whether it is subscribed.
            let _ = self.subscribed().await;
            self.inner.connected.store(false, Ordering::Relaxed);
            tokio::time::sleep(self.inner.retry).await;
        }
    }

    async fn subscribed(&self) -> redis::RedisResult<()> {
        let engine = self
            .inner
            .engine
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let Some(engine) = engine else {
            return Ok(());
        };
        let mut pubsub = timeout(DEADLINE, self.inner.client.get_async_pubsub())
            .await
            .unwrap_or_else(|_| timed_out())?;
        timeout(DEADLINE, pubsub.subscribe(&self.inner.key))
            .await
            .unwrap_or_else(|_| timed_out())?;
        let mut c = timeout(
            DEADLINE,
            self.inner.client.get_multiplexed_async_connection(),
        )
        .await
        .unwrap_or_else(|_| timed_out())?;
        self.load(&engine, &mut c).await?;
        self.inner.connected.store(true, Ordering::Relaxed);
        let (mut sink, mut stream) = pubsub.split();
        loop {
            match timeout(Duration::from_secs(5), stream.next()).await {
                Ok(Some(msg)) => {
                    let Some(m) = SessionMessage::decode(msg.get_payload_bytes()) else {
                        continue;
                    };
                    if *m.origin != self.inner.instance {
                        apply(&engine, m.id, m.state);
                    }
                }
                Ok(None) => return Ok(()),
                // A silent Redis (a partition): a PING must come back.
                Err(_) => {
                    timeout(Duration::from_secs(5), sink.ping::<redis::Value>())
                        .await
                        .unwrap_or_else(|_| timed_out())?;
                }
            }
        }
    }
}

impl RedisSessionStore {
    /// Loads the fleet's table: takes every state in it, and forgets the sessions held here
    /// that it lacks (ended elsewhere while the channel was down), except those whose change
    /// is newer here (the core's `session_load_begin`/`session_load_end`).
    async fn load(
        &self,
        engine: &Arc<Engine>,
        c: &mut MultiplexedConnection,
    ) -> redis::RedisResult<()> {
        engine.input(|st, _| st.server.session_load_begin());
        let table = timeout(
            DEADLINE,
            redis::cmd("HGETALL")
                .arg(&self.inner.key)
                .query_async::<HashMap<String, Vec<u8>>>(c),
        )
        .await
        .unwrap_or_else(|_| timed_out());
        let table = match table {
            Ok(table) => table,
            Err(e) => {
                engine.input(|st, _| st.server.session_load_abort());
                return Err(e);
            }
        };
        let load = engine.input(|st, now| {
            let rows = table.iter().map(|(id, s)| (id.as_str(), s.as_slice()));
            st.server.session_load_end(rows, now)
        });
        // `load.malformed`: states this core does not read stay as they were here (as `apply`)
        for stream in load.closed {
            engine.forget_stream(stream);
        }
        Ok(())
    }
}

/// A Redis operation past [`DEADLINE`] (a silent Redis), as the client's own errors.
fn timed_out<T>() -> redis::RedisResult<T> {
    Err((redis::ErrorKind::Io, "timed out").into())
}

/// Takes `state` for `session`, or forgets the session (`None`) and ends its GET stream here.
fn apply(engine: &Arc<Engine>, session: &str, state: Option<&[u8]>) {
    match state {
        Some(state) => {
            let _ = engine.input(|st, now| st.server.import_session(session, state, now));
        }
        None => {
            if let Some(stream) = engine.input(|st, _| st.server.forget_session(session)) {
                engine.forget_stream(stream);
            }
        }
    }
}

/// A session's GET stream with its events stored: the replayed events, then the machine's,
/// each framed by the core with its id and stored before it is written; keepalive comments
/// while idle. The stream ends when the machine drops its sink (the session ended).
#[allow(clippy::too_many_arguments)] // the GET's parts, handed over whole
pub(crate) async fn event_stream(
    store: RedisSessionStore,
    engine: Arc<Engine>,
    session: String,
    last_event_id: Option<String>,
    stream: StreamId,
    (held, rx): crate::engine::Claimed,
    response: HttpResponse,
    keepalive: Duration,
) -> Response {
    let replay: VecDeque<Vec<u8>> = store
        .opened(&engine, &session, last_event_id.as_deref(), stream)
        .await
        .into();
    let guard = Closer {
        engine: engine.clone(),
        stream,
    };
    let tick = tokio::time::interval_at(tokio::time::Instant::now() + keepalive, keepalive);
    let held: VecDeque<Transmit> = held.into();
    let state = (store, engine, rx, replay, held, tick, guard);
    let body = futures_util::stream::unfold(state, |mut s| async move {
        let (store, engine, rx, replay, held, tick, _) = &mut s;
        if let Some(e) = replay.pop_front() {
            return Some((Ok::<Bytes, std::convert::Infallible>(Bytes::from(e)), s));
        }
        // What the stream got before it was claimed, then the channel (none: it ended).
        let next = match held.pop_front() {
            Some(t) => t,
            None => {
                let rx = rx.as_mut()?;
                tokio::select! {
                    t = rx.recv() => t?,
                    _ = tick.tick() => {
                        return Some((Ok(Bytes::from_static(sse::KEEPALIVE)), s));
                    }
                }
            }
        };
        let framed = engine.input(|st, _| st.server.session_event(next.stream, &next.bytes));
        let chunk = match framed {
            Some(ev) => {
                store.record(&ev.session, ev.seq, &ev.bytes).await;
                Bytes::from(ev.bytes)
            }
            None => Bytes::from(sse::data_event(&next.bytes)),
        };
        Some((Ok(chunk), s))
    });
    let mut builder = Response::builder().status(response.status);
    for (name, value) in &response.headers {
        builder = builder.header(*name, value);
    }
    builder
        .body(Body::from_stream(body))
        .unwrap_or_else(|_| Response::new(Body::empty()))
}

/// Reports the GET stream closed to the machine when the response is dropped.
struct Closer {
    engine: Arc<Engine>,
    stream: StreamId,
}

impl Drop for Closer {
    fn drop(&mut self) {
        self.engine.close_stream(self.stream);
    }
}
