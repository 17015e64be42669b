//! Message codec: ours (zero-copy views, lazy iteration, canonical writer) against
//! serde_json into owned structs (the usual SDK approach) and into `serde_json::Value`, in the
//! same run. Decoding includes walking every item and touching its strings, since our views
//! are lazy; encoding writes into a reused buffer.
//!
//! `cargo bench -p mcp-context-benches --bench messages -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_context::json::to_slice;
use mcp_context::messages as m;
use serde::{Deserialize, Serialize};

#[path = "common/message_cases.rs"]
mod cases;
use cases::*;

fn bench_case<S: Serialize + for<'de> Deserialize<'de>>(
    c: &mut Criterion,
    name: &str,
    json: &[u8],
    ours_decode: &Decode,
    ours_into: Option<&Decode>,
    ours_encode: &dyn Fn(&mut [u8]) -> usize,
) {
    let mut scratch = vec![0u8; 1 << 16];
    let mut group = c.benchmark_group(name);
    group.throughput(criterion::Throughput::Bytes(json.len() as u64));
    group.bench_function("decode/ours", |b| {
        b.iter(|| ours_decode(black_box(json), &mut scratch))
    });
    if let Some(into) = ours_into {
        group.bench_function("decode/ours_one_pass", |b| {
            b.iter(|| into(black_box(json), &mut scratch))
        });
    }
    group.bench_function("decode/serde_owned", |b| {
        b.iter(|| serde_json::from_slice::<S>(black_box(json)).unwrap())
    });
    group.bench_function("decode/serde_value", |b| {
        b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(json)).unwrap())
    });
    let mut buf = vec![0u8; json.len() * 2 + 1024];
    group.bench_function("encode/ours", |b| {
        b.iter(|| ours_encode(black_box(&mut buf)))
    });
    let owned: S = serde_json::from_slice(json).unwrap();
    let value: serde_json::Value = serde_json::from_slice(json).unwrap();
    let mut out = Vec::with_capacity(json.len() * 2);
    group.bench_function("encode/serde_owned", |b| {
        b.iter(|| {
            out.clear();
            serde_json::to_writer(&mut out, black_box(&owned)).unwrap();
            out.len()
        })
    });
    group.bench_function("encode/serde_value", |b| {
        b.iter(|| {
            out.clear();
            serde_json::to_writer(&mut out, black_box(&value)).unwrap();
            out.len()
        })
    });
    group.finish();
}

fn messages(c: &mut Criterion) {
    let req = READ_REQUEST.as_bytes();
    let decoded = m::ReadResourceRequest::decode(req).unwrap();
    bench_case::<s::Request<s::ReadParams>>(
        c,
        "read_request",
        req,
        &|b, _| ours_read_request(b),
        None,
        &|buf| to_slice(&decoded, buf).unwrap(),
    );

    let read = read_result();
    let read_json = mcp_context::json::to_string(&read).unwrap();
    bench_case::<s::Response<s::ReadResult>>(
        c,
        "read_result",
        read_json.as_bytes(),
        &ours_read_result,
        Some(&ours_read_result_into),
        &|buf| to_slice(&read, buf).unwrap(),
    );

    let prompt = prompt_result();
    let prompt_json = mcp_context::json::to_string(&prompt).unwrap();
    bench_case::<s::Response<s::GetPromptResult>>(
        c,
        "prompt_get_result_embedded",
        prompt_json.as_bytes(),
        &ours_prompt_result,
        Some(&ours_prompt_result_into),
        &|buf| to_slice(&prompt, buf).unwrap(),
    );

    let list = list_result();
    let list_json = mcp_context::json::to_string(&list).unwrap();
    bench_case::<s::Response<s::ListResourcesResult>>(
        c,
        "resources_list_100",
        list_json.as_bytes(),
        &|b, _| ours_list_result(b),
        Some(&ours_list_result_into),
        &|buf| to_slice(&list, buf).unwrap(),
    );
}

/// The fifth case: decode one `notifications/resources/updated`; encode it for
/// [`FAN_OUT`] subscriptions (ours: once, then a copy per subscription id).
fn fan_out(c: &mut Criterion) {
    let json = updated_json();
    let bytes = json.as_bytes();
    let mut g = c.benchmark_group("resources_updated_fan_out");
    g.bench_function("decode/ours", |b| b.iter(|| ours_updated(black_box(bytes))));
    g.bench_function("decode/serde_owned", |b| {
        b.iter(|| {
            serde_json::from_slice::<s::Notification<s::UpdatedParams>>(black_box(bytes)).unwrap()
        })
    });
    let mut buf = vec![0u8; 4096];
    g.bench_function("encode/ours", |b| {
        b.iter(|| ours_fan_out(black_box(&mut buf)))
    });
    let mut owned: s::Notification<s::UpdatedParams> = serde_json::from_slice(bytes).unwrap();
    let mut out = Vec::with_capacity(1024);
    g.bench_function("encode/serde_owned", |b| {
        b.iter(|| serde_fan_out(black_box(&mut owned), &mut out))
    });
    g.finish();
}

criterion_group!(benches, messages, fan_out);
criterion_main!(benches);
