//! `Fleet`: the core's fleet protocol (`mcp_context::fleet`, docs/rules.md §23) for the
//! package's Redis broker (`mcp-context-primitives/redis`), which only moves its bytes.

use mcp_context::fleet::{Change, Fleet as CoreFleet, Receipt, Reject, metrics};
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;

use crate::server::ServerMachine;

/// One instance's end of the fleet protocol: `new Fleet(fleet, instanceId)`. Each method that
/// takes `machine` runs on that `ServerMachine` (drain it afterwards).
#[napi]
pub struct Fleet {
    inner: CoreFleet,
}

/// The counters of a fleet end.
#[napi(object)]
pub struct FleetStats {
    /// The link is up.
    pub connected: bool,
    /// Events handed to the broker.
    pub published: f64,
    /// Other instances' events applied here.
    pub applied: f64,
    /// Own events seen back and skipped.
    pub echoes: f64,
    /// Local events not published (broker down, queue full or flushed).
    pub dropped: f64,
    /// Received events not applied (malformed, newer version or kind).
    pub rejected: f64,
    /// Edges at which every listen stream was ended.
    pub signals: f64,
}

/// One value of a broker metric (the core's `fleet::metrics`, docs/operations.md).
#[napi(object)]
pub struct BrokerMetric {
    /// The counter's name (`mcp_context.broker.*`).
    pub name: String,
    /// The `reason` attribute (`echo` or `rejected`, on `mcp_context.broker.skipped` only).
    pub reason: Option<String>,
    /// Its cumulative value.
    pub value: f64,
}

/// A metric's name and description.
#[napi(object)]
#[allow(unreachable_pub)]
pub struct BrokerInstrument {
    /// `mcp_context.broker.*`.
    pub name: String,
    /// What it counts.
    pub description: String,
}

/// The broker metrics' names, once (the core's `fleet::metrics`).
#[napi(object)]
#[allow(unreachable_pub)]
pub struct BrokerMetricNames {
    /// The counters, in the order of `Fleet.metrics()`.
    pub counters: Vec<BrokerInstrument>,
    /// The `connected` gauge (1 while subscribed).
    pub connected: BrokerInstrument,
    /// The attribute of `mcp_context.broker.skipped`.
    pub reason: String,
}

fn instrument((name, description): (&str, &str)) -> BrokerInstrument {
    BrokerInstrument {
        name: name.to_owned(),
        description: description.to_owned(),
    }
}

/// The broker metrics' names and descriptions (docs/operations.md "Broker metrics").
#[napi(catch_unwind)]
#[allow(unreachable_pub)]
pub fn broker_metric_names() -> BrokerMetricNames {
    BrokerMetricNames {
        counters: metrics::COUNTERS.into_iter().map(instrument).collect(),
        connected: instrument((metrics::CONNECTED, metrics::CONNECTED_DESCRIPTION)),
        reason: metrics::REASON.to_owned(),
    }
}

/// The core's Redis token bucket (`fleet::rate`), run by every runner's Redis rate limit.
#[napi(object)]
#[allow(unreachable_pub)]
pub struct RedisRateBucket {
    /// The Lua script: `KEYS[1]` the caller's key, `ARGV` rate (per second) and burst;
    /// returns 0 (a token taken) or the milliseconds until one is back.
    pub script: String,
    /// The default key prefix (`mcp:rate:`); the key is the prefix then the caller.
    pub key_prefix: String,
    /// Whether a request is refused when Redis cannot answer, by default (`false`: fail
    /// open; the core's `fleet::rate::OnFailure`).
    pub fail_closed: bool,
    /// The refusal's message when Redis cannot answer and the limit fails closed.
    pub unavailable_message: String,
    /// The annotation on a request whose limit could not reach Redis (`open` or `closed`).
    pub failure_annotation: String,
}

/// The core's Redis token bucket: `{script, keyPrefix}` (docs/rules.md §23.5) and its
/// failure policy (§23.6).
#[napi(catch_unwind)]
#[allow(unreachable_pub)]
pub fn redis_rate_bucket() -> RedisRateBucket {
    RedisRateBucket {
        script: mcp_context::fleet::rate::REDIS_TOKEN_BUCKET.to_owned(),
        key_prefix: mcp_context::fleet::rate::RATE_KEY_PREFIX.to_owned(),
        fail_closed: mcp_context::fleet::rate::FAIL_CLOSED_BY_DEFAULT,
        unavailable_message: mcp_context::fleet::rate::RATE_UNAVAILABLE_MESSAGE.to_owned(),
        failure_annotation: mcp_context::fleet::rate::RATE_FAILURE_ANNOTATION.to_owned(),
    }
}

fn err(msg: String) -> napi::Error {
    napi::Error::new(napi::Status::InvalidArg, msg)
}

#[napi]
impl Fleet {
    /// `fleet`: the fleet's name; `instanceId`: this instance (unique in the fleet).
    #[napi(constructor, catch_unwind)]
    pub fn new(fleet: String, instance_id: String) -> napi::Result<Self> {
        CoreFleet::new(&fleet, &instance_id)
            .map(|inner| Self { inner })
            .map_err(|e| err(e.to_string()))
    }

    /// `mcp-context:<fleet>:events`.
    #[napi(getter, catch_unwind)]
    pub fn channel(&self) -> String {
        self.inner.channel().to_owned()
    }

    /// This instance's id.
    #[napi(getter, catch_unwind)]
    pub fn instance_id(&self) -> String {
        self.inner.origin().to_owned()
    }

    /// Whether the link is up.
    #[napi(getter, catch_unwind)]
    pub fn connected(&self) -> bool {
        self.inner.is_connected()
    }

    /// A change made here (`kind`: `resource_updated` with `uri`, `resources_list_changed`,
    /// `prompts_list_changed`, `tools_list_changed`): applied to `machine`, then the event to
    /// publish, or `null` while the link is down.
    #[napi(catch_unwind)]
    pub fn local(
        &mut self,
        machine: &mut ServerMachine,
        kind: String,
        uri: Option<String>,
    ) -> napi::Result<Option<Buffer>> {
        let change = Change::from_kind(&kind, uri.as_deref())
            .ok_or_else(|| err(format!("unknown event kind {kind:?}")))?;
        Ok(self
            .inner
            .local(machine.inner.machine(), &change)
            .map(|b| Buffer::from(b.to_vec())))
    }

    /// One event from the channel: `applied`, `echo` (own, skipped), or `malformed` /
    /// `version` / `kind` (not applied).
    #[napi(catch_unwind)]
    pub fn receive(&mut self, machine: &mut ServerMachine, event: Buffer) -> &'static str {
        match self.inner.receive(machine.inner.machine(), &event) {
            Receipt::Applied => "applied",
            Receipt::Echo => "echo",
            Receipt::Rejected(Reject::Version) => "version",
            Receipt::Rejected(Reject::Kind) => "kind",
            Receipt::Rejected(_) => "malformed",
        }
    }

    /// The subscriber is subscribed; `true` when every listen was ended (not the first link).
    #[napi(catch_unwind)]
    pub fn link_up(&mut self, machine: &mut ServerMachine) -> bool {
        self.inner.link_up(machine.inner.machine())
    }

    /// The link is lost or an attempt failed; `true` when every listen was ended.
    #[napi(catch_unwind)]
    pub fn link_down(&mut self, machine: &mut ServerMachine) -> bool {
        self.inner.link_down(machine.inner.machine())
    }

    /// `n` events were handed to the broker.
    #[napi(catch_unwind)]
    pub fn published(&mut self, n: u32) {
        self.inner.published(u64::from(n));
    }

    /// `n` events from `local` were dropped by the runner (queue full or flushed).
    #[napi(catch_unwind)]
    pub fn dropped(&mut self, n: u32) {
        self.inner.dropped(u64::from(n));
    }

    /// The counters.
    #[napi(catch_unwind)]
    #[allow(clippy::cast_precision_loss)] // counters far below 2^53
    pub fn stats(&self) -> FleetStats {
        let s = self.inner.stats();
        FleetStats {
            connected: s.connected,
            published: s.published as f64,
            applied: s.applied as f64,
            echoes: s.echoes as f64,
            dropped: s.dropped as f64,
            rejected: s.rejected as f64,
            signals: s.signals as f64,
        }
    }

    /// The counters as broker metrics: `{name, reason, value}`, the counters of
    /// `brokerMetricNames().counters` in their order.
    #[napi(catch_unwind)]
    #[allow(clippy::cast_precision_loss)] // counters far below 2^53
    pub fn metrics(&self) -> Vec<BrokerMetric> {
        self.inner
            .stats()
            .metrics()
            .iter()
            .map(|m| BrokerMetric {
                name: m.name.to_owned(),
                reason: m.reason.map(str::to_owned),
                value: m.value as f64,
            })
            .collect()
    }
}
