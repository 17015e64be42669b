//! Scale-out on Redis (feature `redis`; docs/scale-out.md): the fleet's change events through
//! Redis pub/sub with the `redis` crate, so a Rust instance joins a fleet of Python, Node and
//! Rust instances of the same server.
//!
//! ```no_run
//! # async fn run(host: mcp_context_host::Host) {
//! use mcp_context_host::fleet::{RedisBroker, RedisOptions};
//!
//! let broker = RedisBroker::new("redis://10.0.0.5:6379/0", "notes", RedisOptions::default()).unwrap();
//! broker.start(host.notifier());
//! // in a handler, after a change: every listen of the fleet that asked for it is told
//! broker.resource_updated("notes://note-1");
//! // its counters as OpenTelemetry metrics (mcp_context.broker.*): automatic with an `Otel`
//! // sink on the app (on its meter); otherwise, on a meter of your choice
//! broker.report_metrics(&opentelemetry::global::meter(mcp_context_host::telemetry::SCOPE));
//! # }
//! ```
//!
//! Every rule (wire format, own echoes skipped, what a remote event does to the machine, the
//! listens ended at the broker's edges) is the core's `mcp_context::fleet`; this module moves
//! its bytes: one subscriber connection on `mcp-context:<fleet>:events`, one publisher
//! connection fed by a bounded queue (pipelined, in order), a `PING` after `health` of silence
//! that must be answered within `health` more, a retry every `retry`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use futures_util::StreamExt;
use mcp_context::fleet::{Change, Fleet, FleetError, FleetStats, metrics};
use opentelemetry::KeyValue;
use opentelemetry::metrics::Meter;
use tokio::sync::mpsc;
use tokio::time::timeout;

use crate::Notifier;

/// Timings and bounds of a [`RedisBroker`] (defaults as the Python broker's).
#[derive(Clone, Debug)]
pub struct RedisOptions {
    /// Between two connection attempts (0.5 s).
    pub retry: Duration,
    /// Silence before a `PING`, and the `PING`'s deadline (5 s): a silent broker is found
    /// within twice this.
    pub health: Duration,
    /// Events waiting for the publisher (10 000); beyond, dropped and counted.
    pub queue_max: usize,
    /// This instance's id (default: 16 random hex digits).
    pub instance_id: Option<String>,
}

impl Default for RedisOptions {
    fn default() -> Self {
        Self {
            retry: Duration::from_millis(500),
            health: Duration::from_secs(5),
            queue_max: 10_000,
            instance_id: None,
        }
    }
}

/// The fleet's event bus on one Redis: publish this instance's changes, apply the others'.
/// Cheap to clone; every clone is the same broker.
#[derive(Clone)]
pub struct RedisBroker {
    inner: Arc<Inner>,
}

struct Inner {
    url: String,
    options: RedisOptions,
    fleet: Mutex<Fleet>,
    notifier: OnceLock<Notifier>,
    queue: Mutex<Option<mpsc::Sender<Vec<u8>>>>,
    /// The metrics were reported on a meter ([`RedisBroker::report_metrics`]).
    reported: AtomicBool,
}

impl std::fmt::Debug for RedisBroker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisBroker")
            .field("url", &self.inner.url)
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

fn random_id() -> String {
    let mut b = [0u8; 8];
    if getrandom::getrandom(&mut b).is_err() {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        b = (t as u64 ^ u64::from(std::process::id())).to_be_bytes();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

impl RedisBroker {
    /// A broker for fleet `fleet` on the Redis at `url` (`redis://`, `rediss://` with
    /// credentials for ACLs). Nothing connects before [`RedisBroker::start`].
    ///
    /// # Errors
    /// The core's [`FleetError`] for a fleet name or instance id it refuses.
    pub fn new(url: &str, fleet: &str, options: RedisOptions) -> Result<Self, FleetError> {
        let id = options.instance_id.clone().unwrap_or_else(random_id);
        let fleet = Fleet::new(fleet, &id)?;
        Ok(Self {
            inner: Arc::new(Inner {
                url: url.to_owned(),
                options,
                fleet: Mutex::new(fleet),
                notifier: OnceLock::new(),
                queue: Mutex::new(None),
                reported: AtomicBool::new(false),
            }),
        })
    }

    /// Runs the broker for the server behind `notifier` (a task on the current tokio runtime,
    /// for ever: reconnects after every loss). Call once. When the server has an
    /// [`crate::telemetry::Otel`] sink, the broker metrics are reported on its meter
    /// ([`RedisBroker::report_metrics`]; not again if they were reported already).
    pub fn start(&self, notifier: Notifier) -> tokio::task::JoinHandle<()> {
        if let Some(meter) = notifier.meters().first() {
            self.report_metrics(meter);
        }
        let _ = self.inner.notifier.set(notifier);
        let inner = Arc::clone(&self.inner);
        tokio::spawn(async move { inner.run().await })
    }

    /// The channel (`mcp-context:<fleet>:events`).
    #[must_use]
    pub fn channel(&self) -> String {
        self.inner.fleet().channel().to_owned()
    }

    /// This instance's id.
    #[must_use]
    pub fn instance_id(&self) -> String {
        self.inner.fleet().origin().to_owned()
    }

    /// The counters (`connected`, `published`, `applied`, `echoes`, `dropped`, `rejected`,
    /// `signals`).
    #[must_use]
    pub fn stats(&self) -> FleetStats {
        self.inner.fleet().stats()
    }

    /// Reports the broker metrics (docs/operations.md, the core's `fleet::metrics`) on
    /// `meter`: observable counters of `published`, `delivered`, `dropped`,
    /// `skipped{reason}` and `signals`, and the `connected` gauge, read from
    /// [`RedisBroker::stats`] when the SDK collects, on one meter (an SDK provider's
    /// `meter(telemetry::SCOPE)`, or `opentelemetry::global::meter`): the first call (or
    /// [`RedisBroker::start`] on a server with an `Otel` sink) chooses it, later calls do
    /// nothing.
    pub fn report_metrics(&self, meter: &Meter) {
        if self.inner.reported.swap(true, Ordering::Relaxed) {
            return;
        }
        for (name, description) in metrics::COUNTERS {
            let inner = Arc::clone(&self.inner);
            meter
                .u64_observable_counter(name)
                .with_description(description)
                .with_callback(move |o| {
                    for m in inner.fleet().stats().metrics() {
                        if m.name == name {
                            match m.reason {
                                Some(r) => o.observe(m.value, &[KeyValue::new(metrics::REASON, r)]),
                                None => o.observe(m.value, &[]),
                            }
                        }
                    }
                })
                .build();
        }
        let inner = Arc::clone(&self.inner);
        meter
            .u64_observable_gauge(metrics::CONNECTED)
            .with_description(metrics::CONNECTED_DESCRIPTION)
            .with_callback(move |o| o.observe(u64::from(inner.fleet().stats().connected), &[]))
            .build();
    }

    /// `uri` changed here: applied to this instance's listens, then published.
    pub fn resource_updated(&self, uri: &str) {
        self.inner.local(&Change::ResourceUpdated(uri.into()));
    }

    /// The resource list changed here.
    pub fn resources_list_changed(&self) {
        self.inner.local(&Change::ResourcesListChanged);
    }

    /// The prompt list changed here.
    pub fn prompts_list_changed(&self) {
        self.inner.local(&Change::PromptsListChanged);
    }

    /// The tool list changed here.
    pub fn tools_list_changed(&self) {
        self.inner.local(&Change::ToolsListChanged);
    }
}

type Failed = Box<dyn std::error::Error + Send + Sync>;

impl Inner {
    fn fleet(&self) -> MutexGuard<'_, Fleet> {
        self.fleet
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn queue(&self) -> MutexGuard<'_, Option<mpsc::Sender<Vec<u8>>>> {
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `f` on the machine with the core's fleet end (lock order: machine, then fleet).
    fn on_machine<R>(
        &self,
        f: impl FnOnce(&mut Fleet, &mut mcp_context::server::Server) -> R,
    ) -> Option<R> {
        let n = self.notifier.get()?;
        Some(n.with_server(|s| f(&mut self.fleet(), s)))
    }

    fn local(&self, change: &Change<'_>) {
        let bytes = self.on_machine(|f, s| f.local(s, change).map(<[u8]>::to_vec));
        let Some(Some(bytes)) = bytes else { return };
        let sent = self
            .queue()
            .as_ref()
            .is_some_and(|q| q.try_send(bytes).is_ok());
        if !sent {
            self.fleet().dropped(1);
        }
    }

    async fn run(self: Arc<Self>) {
        loop {
            let (tx, mut rx) = mpsc::channel(self.options.queue_max.max(1));
            if let Err(e) = self.session(tx, &mut rx).await
                && self.fleet().is_connected()
            {
                eprintln!("mcp-context fleet: broker {} lost: {e}", self.url);
            }
            *self.queue() = None;
            let flushed = rx.len() as u64;
            rx.close();
            self.on_machine(|f, s| f.link_down(s));
            self.fleet().dropped(flushed);
            tokio::time::sleep(self.options.retry).await;
        }
    }

    /// One connection's life: subscribe, then receive and publish until a failure.
    async fn session(
        &self,
        tx: mpsc::Sender<Vec<u8>>,
        rx: &mut mpsc::Receiver<Vec<u8>>,
    ) -> Result<(), Failed> {
        let health = self.options.health;
        let channel = self.fleet().channel().to_owned();
        let client = redis::Client::open(self.url.as_str())?;
        let pubsub = timeout(2 * health, client.get_async_pubsub()).await??;
        let (mut sink, mut stream) = pubsub.split();
        // connected = the broker confirmed the subscription
        timeout(2 * health, sink.subscribe(&channel)).await??;
        let mut conn = timeout(2 * health, client.get_multiplexed_async_connection()).await??;
        *self.queue() = Some(tx);
        // back (not the first attempt): what happened meanwhile was not seen here
        self.on_machine(|f, s| f.link_up(s));
        let publisher = async {
            let mut batch = Vec::new();
            loop {
                if rx.recv_many(&mut batch, 512).await == 0 {
                    return Ok::<(), Failed>(());
                }
                let mut pipe = redis::pipe();
                for data in &batch {
                    pipe.publish(&channel, data.as_slice()).ignore();
                }
                pipe.query_async::<()>(&mut conn).await?;
                self.fleet().published(batch.len() as u64);
                batch.clear();
            }
        };
        let receiver = async {
            loop {
                match timeout(health, stream.next()).await {
                    Ok(Some(msg)) => {
                        let data = msg.get_payload_bytes();
                        self.on_machine(|f, s| f.receive(s, data));
                    }
                    Ok(None) => {
                        return Err::<(), Failed>("the broker closed the connection".into());
                    }
                    Err(_) => {
                        // silence: the broker must answer a PING within `health`
                        timeout(health, sink.ping::<redis::Value>())
                            .await
                            .map_err(|_| "no answer to PING")??;
                    }
                }
            }
        };
        tokio::select! {
            r = publisher => r,
            r = receiver => r,
        }
    }
}
