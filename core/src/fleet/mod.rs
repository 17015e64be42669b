//! The fleet protocol (docs/rules.md §23, docs/scale-out.md): what the instances of one server
//! tell each other through a broker, sans-IO.
//!
//! MCP 2026-07-28 has no sessions, so any instance answers any request once the instances
//! share their sealing keys (`ServerConfig::state_keys`) and catalogue (cursors). What stays
//! tied to one process is a `subscriptions/listen` stream: the change it waits for may happen
//! on another instance. Each instance therefore publishes its changes on the fleet's channel
//! and applies the others' to its own [`Server`]. This module holds every rule of that
//! exchange once; a runner only moves the bytes between [`Fleet`] and its broker client
//! (Redis pub/sub in every runner):
//!
//! * [`Fleet::local`]: a change made here is applied to this machine at once, then handed out
//!   as the bytes to publish (or dropped and counted while the broker is down);
//! * [`Fleet::receive`]: an event from the channel; this instance's own echo is skipped, a
//!   malformed or newer event is counted and skipped, any other is applied;
//! * [`Fleet::link_up`] / [`Fleet::link_down`]: the broker's edges; at each edge where events
//!   may have been missed every listen stream is ended with its graceful result, the signal
//!   on which clients re-listen and refetch;
//! * [`encode_into`] / [`decode`]: the versioned wire format.
//!
//! ```
//! use mcp_context::fleet::{Change, Fleet, Receipt};
//! use mcp_context::server::{Server, ServerConfig};
//!
//! let mut a = Server::new(ServerConfig::default()).unwrap();
//! let mut fleet_a = Fleet::new("notes", "a1").unwrap();
//! let mut fleet_b = Fleet::new("notes", "b1").unwrap();
//! assert_eq!(fleet_a.channel(), "mcp-context:notes:events");
//! fleet_a.link_up(&mut a);
//! let bytes = fleet_a.local(&mut a, &Change::ResourceUpdated("notes://1".into())).unwrap().to_vec();
//! assert_eq!(fleet_a.receive(&mut a, &bytes), Receipt::Echo);       // own echo: skipped
//! let mut b = Server::new(ServerConfig::default()).unwrap();
//! assert_eq!(fleet_b.receive(&mut b, &bytes), Receipt::Applied);   // another instance
//! ```

pub mod metrics;
pub mod rate;
mod wire;

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::server::Server;

pub use metrics::BrokerMetric;
pub use wire::{MAX_EVENT, Message, Reject, WIRE_VERSION, decode, encode_into};

/// One change an instance tells the fleet about.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Change<'a> {
    /// A resource changed: `notifications/resources/updated` to the listens that asked.
    ResourceUpdated(Cow<'a, str>),
    /// The catalogue's resources or templates changed.
    ResourcesListChanged,
    /// The catalogue's prompts changed.
    PromptsListChanged,
    /// The catalogue's tools changed.
    ToolsListChanged,
}

impl<'a> Change<'a> {
    /// The wire kind (`k`).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Self::ResourceUpdated(_) => "resource_updated",
            Self::ResourcesListChanged => "resources_list_changed",
            Self::PromptsListChanged => "prompts_list_changed",
            Self::ToolsListChanged => "tools_list_changed",
        }
    }

    /// The change named by a wire kind (`uri` for `resource_updated`); `None` for an unknown
    /// kind or a `resource_updated` without `uri`. For bindings that take the kind as text.
    #[must_use]
    pub fn from_kind(kind: &str, uri: Option<&'a str>) -> Option<Self> {
        Some(match kind {
            "resource_updated" => Self::ResourceUpdated(Cow::Borrowed(uri?)),
            "resources_list_changed" => Self::ResourcesListChanged,
            "prompts_list_changed" => Self::PromptsListChanged,
            "tools_list_changed" => Self::ToolsListChanged,
            _ => return None,
        })
    }

    /// The URI of a `resource_updated`.
    #[must_use]
    pub fn uri(&self) -> Option<&str> {
        match self {
            Self::ResourceUpdated(u) => Some(u),
            _ => None,
        }
    }

    /// Applies the change to `server`: the notifications its listens asked for.
    pub fn apply(&self, server: &mut Server) {
        match self {
            Self::ResourceUpdated(uri) => server.resource_updated(uri),
            Self::ResourcesListChanged => server.resources_list_changed(),
            Self::PromptsListChanged => server.prompts_list_changed(),
            Self::ToolsListChanged => server.tools_list_changed(),
        }
    }
}

/// A fleet name or instance id that cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FleetError {
    /// The fleet name is empty, over 128 bytes, or holds `:`, a space, a control character
    /// or a glob character (`*?[]`).
    Name,
    /// The instance id is empty, over 64 bytes, or not `[A-Za-z0-9._-]`.
    Origin,
}

impl fmt::Display for FleetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Name => {
                "fleet name: 1-128 bytes without ':', spaces, controls or glob characters"
            }
            Self::Origin => "instance id: 1-64 bytes of A-Z a-z 0-9 . _ -",
        })
    }
}

/// What [`Fleet::receive`] did with an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Receipt {
    /// Another instance's change, applied to the machine.
    Applied,
    /// This instance's own event, back from the broker: already applied by [`Fleet::local`].
    Echo,
    /// Not applied (counted in [`FleetStats::rejected`]).
    Rejected(Reject),
}

/// The broker link as the fleet sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    /// No attempt reported yet.
    Never,
    Up,
    Down,
}

/// Counters of one instance's fleet traffic (what a runner's `stats`/metrics report).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FleetStats {
    /// The subscriber is subscribed now.
    pub connected: bool,
    /// Events handed to the broker (reported by the runner, [`Fleet::published`]).
    pub published: u64,
    /// Other instances' events applied here.
    pub applied: u64,
    /// Own events seen back and skipped.
    pub echoes: u64,
    /// Local events not published: broker down, or the runner's queue full or flushed.
    pub dropped: u64,
    /// Received events not applied (malformed, newer version or kind).
    pub rejected: u64,
    /// Edges at which every listen stream was ended.
    pub signals: u64,
}

/// One instance's end of the fleet protocol. Owns no I/O: the runner feeds it the broker's
/// bytes and edges, and publishes what it returns.
#[derive(Clone, Debug)]
pub struct Fleet {
    origin: String,
    channel: String,
    link: Link,
    stats: FleetStats,
    scratch: Vec<u8>,
}

impl Fleet {
    /// The fleet `name` (its channel is `mcp-context:<name>:events`; two fleets on one broker
    /// never see each other's events) and this instance's id `origin` (unique in the fleet;
    /// a runner draws a random one per process).
    ///
    /// # Errors
    /// [`FleetError`] for a name or id outside the allowed forms.
    pub fn new(name: &str, origin: &str) -> Result<Self, FleetError> {
        let bad_name =
            |c: char| c == ':' || c.is_whitespace() || c.is_control() || "*?[]".contains(c);
        if name.is_empty() || name.len() > 128 || name.contains(bad_name) {
            return Err(FleetError::Name);
        }
        let ok_origin = |b: u8| b.is_ascii_alphanumeric() || b"._-".contains(&b);
        if origin.is_empty() || origin.len() > 64 || !origin.bytes().all(ok_origin) {
            return Err(FleetError::Origin);
        }
        let mut channel = String::with_capacity(name.len() + 19);
        channel.push_str("mcp-context:");
        channel.push_str(name);
        channel.push_str(":events");
        Ok(Self {
            origin: String::from(origin),
            channel,
            link: Link::Never,
            stats: FleetStats::default(),
            scratch: Vec::new(),
        })
    }

    /// The broker channel of the fleet.
    #[must_use]
    pub fn channel(&self) -> &str {
        &self.channel
    }

    /// This instance's id (the `o` of its events).
    #[must_use]
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The counters.
    #[must_use]
    pub fn stats(&self) -> FleetStats {
        self.stats
    }

    /// Whether the broker link is up (events are published).
    #[must_use]
    pub fn is_connected(&self) -> bool {
        self.link == Link::Up
    }

    /// A change made on this instance: applied to `server` at once (local listens never
    /// depend on the broker), then the event to publish, or `None` while the link is down
    /// (counted in `dropped`). The bytes borrow a buffer the next call reuses.
    pub fn local(&mut self, server: &mut Server, change: &Change<'_>) -> Option<&[u8]> {
        change.apply(server);
        if self.link != Link::Up {
            self.stats.dropped += 1;
            return None;
        }
        self.scratch.clear();
        encode_into(&self.origin, change, &mut self.scratch);
        Some(&self.scratch)
    }

    /// The event for `change` made here, without applying it (a runner whose machine is
    /// out of reach at that moment applies the change itself, then publishes these bytes).
    #[must_use]
    pub fn encode(&self, change: &Change<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        encode_into(&self.origin, change, &mut out);
        out
    }

    /// One event from the channel: applied to `server` unless it is this instance's own
    /// echo or cannot be read.
    pub fn receive(&mut self, server: &mut Server, bytes: &[u8]) -> Receipt {
        match decode(bytes) {
            Ok(m) if m.origin == self.origin.as_str() => {
                self.stats.echoes += 1;
                Receipt::Echo
            }
            Ok(m) => {
                m.change.apply(server);
                self.stats.applied += 1;
                Receipt::Applied
            }
            Err(r) => {
                self.stats.rejected += 1;
                Receipt::Rejected(r)
            }
        }
    }

    /// The subscriber is subscribed (the broker confirmed it). Unless this is the first
    /// attempt of the process, events of the fleet may have been missed since the listens
    /// were opened: every listen stream is ended with its graceful result (`true`).
    pub fn link_up(&mut self, server: &mut Server) -> bool {
        let signal = self.link != Link::Never;
        self.link = Link::Up;
        self.stats.connected = true;
        if signal {
            self.signal(server);
        }
        signal
    }

    /// The link is lost (connection broken, no answer to a health check) or an attempt
    /// failed. If it was up, every listen stream is ended with its graceful result
    /// (`true`): their clients re-listen and refetch.
    pub fn link_down(&mut self, server: &mut Server) -> bool {
        let was = self.link == Link::Up;
        self.link = Link::Down;
        self.stats.connected = false;
        if was {
            self.signal(server);
        }
        was
    }

    /// The runner handed `n` events to the broker.
    pub fn published(&mut self, n: u64) {
        self.stats.published += n;
    }

    /// The runner dropped `n` events it got from [`Fleet::local`] (its queue was full, or
    /// flushed when the link went down).
    pub fn dropped(&mut self, n: u64) {
        self.stats.dropped += n;
    }

    fn signal(&mut self, server: &mut Server) {
        self.stats.signals += 1;
        server.shutdown();
    }
}
