//! The broker metrics of the Rust host (docs/operations.md "Broker metrics", the core's
//! `fleet::metrics`) on a real Redis (feature `redis`; `redis-server`, the Debian package,
//! started here on a free port) with the OpenTelemetry SDK's in-memory exporter: events
//! published through one instance are delivered on another, and each instance's counters
//! read back under the core's names. One instance reports them explicitly, the other only
//! has an `Otel` sink: starting the broker reports them on that sink's meter.
#![cfg(feature = "redis")]

use std::time::Duration;

mod redis_kit;

use mcp_context::fleet::metrics;
use mcp_context_host::fleet::{RedisBroker, RedisOptions};
use mcp_context_host::telemetry::{Otel, SCOPE};
use mcp_context_host::{App, Host};
use opentelemetry::metrics::MeterProvider as _;
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData, ResourceMetrics};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
use redis_kit::Redis;

struct Instance {
    _host: Host,
    broker: RedisBroker,
    exporter: InMemoryMetricExporter,
    provider: SdkMeterProvider,
}

/// How an instance's broker metrics reach its meter provider.
enum Report {
    /// `RedisBroker::report_metrics` on a meter of the provider.
    Explicit,
    /// Nothing asked: the app has an `Otel` sink on the provider, `start` finds its meter.
    OtelSink,
}

fn instance(url: &str, id: &str, report: Report) -> Instance {
    let exporter = InMemoryMetricExporter::default();
    let provider = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(exporter.clone()).build())
        .build();
    let mut app = App::named("notes", "1.0.0");
    if matches!(report, Report::OtelSink) {
        let tracer = opentelemetry::trace::noop::NoopTracer::new();
        app.sink(Otel::new(tracer, &provider.meter(SCOPE)));
    }
    let host = app.build().unwrap();
    let options = RedisOptions {
        instance_id: Some(id.to_owned()),
        ..RedisOptions::default()
    };
    let broker = RedisBroker::new(url, "metrics", options).unwrap();
    if matches!(report, Report::Explicit) {
        broker.report_metrics(&provider.meter("test"));
    }
    broker.start(host.notifier());
    // a second report (after start, or a second meter) does nothing: no instrument twice
    broker.report_metrics(&provider.meter("again"));
    Instance {
        _host: host,
        broker,
        exporter,
        provider,
    }
}

impl Instance {
    /// The last collection: `(name, reason) -> value` of every broker metric.
    fn collect(&self) -> Vec<(String, Option<String>, u64)> {
        self.exporter.reset();
        self.provider.force_flush().unwrap();
        let rm: Vec<ResourceMetrics> = self.exporter.get_finished_metrics().unwrap();
        let mut out = Vec::new();
        for r in &rm {
            for scope in r.scope_metrics() {
                for m in scope.metrics() {
                    let points: Vec<(Option<String>, u64)> = match m.data() {
                        AggregatedMetrics::U64(MetricData::Sum(s)) => s
                            .data_points()
                            .map(|p| (reason(p.attributes()), p.value()))
                            .collect(),
                        AggregatedMetrics::U64(MetricData::Gauge(g)) => g
                            .data_points()
                            .map(|p| (reason(p.attributes()), p.value()))
                            .collect(),
                        _ => Vec::new(),
                    };
                    for (r, v) in points {
                        out.push((m.name().to_owned(), r, v));
                    }
                }
            }
        }
        out
    }

    fn value(&self, name: &str, reason: Option<&str>) -> u64 {
        let all = self.collect();
        all.iter()
            .find(|(n, r, _)| n == name && r.as_deref() == reason)
            .map(|(_, _, v)| *v)
            .unwrap_or_else(|| panic!("{name} {reason:?} not reported: {all:?}"))
    }
}

fn reason<'a>(mut attrs: impl Iterator<Item = &'a opentelemetry::KeyValue>) -> Option<String> {
    attrs
        .find(|kv| kv.key.as_str() == metrics::REASON)
        .map(|kv| kv.value.as_str().into_owned())
}

async fn until(what: &str, mut ok: impl FnMut() -> bool) {
    for _ in 0..400 {
        if ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("timed out waiting for {what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn published_on_one_instance_delivered_on_another_under_the_cores_names() {
    let redis = Redis::start();
    let a = instance(&redis.url(), "a", Report::Explicit);
    let b = instance(&redis.url(), "b", Report::OtelSink);
    until("both subscribed", || {
        a.broker.stats().connected && b.broker.stats().connected
    })
    .await;
    assert_eq!(a.value(metrics::CONNECTED, None), 1);
    assert_eq!(b.value(metrics::DELIVERED, None), 0);

    a.broker.resource_updated("notes://1");
    a.broker.resource_updated("notes://2");
    a.broker.tools_list_changed();
    // an event no instance can read, straight on the channel
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    redis::cmd("PUBLISH")
        .arg(a.broker.channel())
        .arg("not json")
        .query_async::<i64>(&mut conn)
        .await
        .unwrap();
    until(
        "b applied 3, a saw its echoes and counted its publish",
        || {
            let (sa, sb) = (a.broker.stats(), b.broker.stats());
            sb.applied == 3
                && sa.echoes == 3
                && sa.published == 3
                && sb.rejected == 1
                && sa.rejected == 1
        },
    )
    .await;

    assert_eq!(a.value(metrics::PUBLISHED, None), 3);
    assert_eq!(a.value(metrics::DELIVERED, None), 0);
    assert_eq!(a.value(metrics::SKIPPED, Some("echo")), 3);
    assert_eq!(a.value(metrics::SKIPPED, Some("rejected")), 1);
    assert_eq!(a.value(metrics::DROPPED, None), 0);
    assert_eq!(b.value(metrics::PUBLISHED, None), 0);
    assert_eq!(b.value(metrics::DELIVERED, None), 3);
    assert_eq!(b.value(metrics::SKIPPED, Some("echo")), 0);
    assert_eq!(b.value(metrics::SKIPPED, Some("rejected")), 1);
    assert_eq!(b.value(metrics::SIGNALS, None), 0);
    assert_eq!(b.value(metrics::CONNECTED, None), 1);

    // the broker gone: the instances count the edge, and what A changes now is dropped
    drop(redis);
    until("both down", || {
        !a.broker.stats().connected && !b.broker.stats().connected
    })
    .await;
    a.broker.resource_updated("notes://3");
    assert_eq!(a.value(metrics::DROPPED, None), 1);
    assert_eq!(a.value(metrics::SIGNALS, None), 1);
    assert_eq!(a.value(metrics::CONNECTED, None), 0);
}
