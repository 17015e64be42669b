//! The broker metrics (docs/operations.md "Broker metrics"): the names every runner's
//! OpenTelemetry sink reports a [`FleetStats`] under, once. A runner registers one
//! observable instrument per entry of [`COUNTERS`] (and the [`CONNECTED`] gauge) and, when
//! the SDK collects, reports [`FleetStats::metrics`]: no allocation, nothing when no one asks.
//!
//! ```
//! use mcp_context::fleet::{FleetStats, metrics};
//!
//! let stats = FleetStats { published: 3, applied: 2, echoes: 3, ..FleetStats::default() };
//! let m = stats.metrics();
//! assert_eq!((m[0].name, m[0].value), ("mcp_context.broker.published", 3));
//! assert_eq!((m[1].name, m[1].value), ("mcp_context.broker.delivered", 2));
//! let echo = m.iter().find(|m| m.reason == Some("echo")).unwrap();
//! assert_eq!((echo.name, echo.value), (metrics::SKIPPED, 3));
//! assert_eq!(m.len(), metrics::COUNTERS.len() + 1); // `skipped` has two reasons
//! ```

use super::FleetStats;
use crate::observe::attr;

/// Counter: events handed to the broker ([`FleetStats::published`]).
pub const PUBLISHED: &str = attr::BROKER_PUBLISHED;
/// Counter: other instances' events applied here ([`FleetStats::applied`]).
pub const DELIVERED: &str = attr::BROKER_DELIVERED;
/// Counter: local events not published, broker down or queue full ([`FleetStats::dropped`]).
pub const DROPPED: &str = "mcp_context.broker.dropped";
/// Counter: received events not applied, by [`REASON`]: `echo` (this instance's own,
/// [`FleetStats::echoes`]) or `rejected` (malformed, newer version or kind,
/// [`FleetStats::rejected`]).
pub const SKIPPED: &str = "mcp_context.broker.skipped";
/// Counter: broker edges at which every listen stream was ended ([`FleetStats::signals`]).
pub const SIGNALS: &str = "mcp_context.broker.signals";
/// Gauge: `1` while the subscriber is subscribed, else `0` ([`FleetStats::connected`]).
pub const CONNECTED: &str = "mcp_context.broker.connected";
/// The attribute of [`SKIPPED`].
pub const REASON: &str = "reason";

/// The counters, as `(name, description)`, in the order of [`FleetStats::metrics`].
pub const COUNTERS: [(&str, &str); 5] = [
    (PUBLISHED, "Fleet events handed to the broker"),
    (DELIVERED, "Other instances' fleet events applied here"),
    (
        DROPPED,
        "Local fleet events not published (broker down, queue full)",
    ),
    (SKIPPED, "Fleet events received and not applied, by reason"),
    (
        SIGNALS,
        "Broker edges at which every listen stream was ended",
    ),
];

/// The description of the [`CONNECTED`] gauge.
pub const CONNECTED_DESCRIPTION: &str = "1 while the fleet's subscriber is subscribed";

/// One value of a counter of [`COUNTERS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrokerMetric {
    /// The counter's name.
    pub name: &'static str,
    /// The [`REASON`] attribute (only on [`SKIPPED`]).
    pub reason: Option<&'static str>,
    /// Its cumulative value.
    pub value: u64,
}

const fn m(name: &'static str, reason: Option<&'static str>, value: u64) -> BrokerMetric {
    BrokerMetric {
        name,
        reason,
        value,
    }
}

impl FleetStats {
    /// The cumulative counter values under their metric names (the [`CONNECTED`] gauge is
    /// [`FleetStats::connected`] as `0`/`1`).
    #[must_use]
    pub const fn metrics(&self) -> [BrokerMetric; 6] {
        [
            m(PUBLISHED, None, self.published),
            m(DELIVERED, None, self.applied),
            m(DROPPED, None, self.dropped),
            m(SKIPPED, Some("echo"), self.echoes),
            m(SKIPPED, Some("rejected"), self.rejected),
            m(SIGNALS, None, self.signals),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_counter_is_reported_and_every_metric_is_a_counter() {
        let s = FleetStats {
            connected: true,
            published: 1,
            applied: 2,
            dropped: 3,
            echoes: 4,
            rejected: 5,
            signals: 6,
        };
        let ms = s.metrics();
        let values: alloc::vec::Vec<u64> = ms.iter().map(|m| m.value).collect();
        assert_eq!(values, [1, 2, 3, 4, 5, 6]);
        for (name, _) in COUNTERS {
            assert!(ms.iter().any(|m| m.name == name), "{name} never reported");
        }
        for m in ms {
            assert!(COUNTERS.iter().any(|(n, _)| *n == m.name));
            assert!(m.name.starts_with("mcp_context.broker."));
            assert_eq!(m.reason.is_some(), m.name == SKIPPED);
        }
    }
}
