//! The `messages` comparison measured to resist a busy machine (as `expand_quiet`): for each
//! message, ours and serde_json (owned structs, `Value`) decode and encode in short bursts,
//! interleaved, many times; each keeps its fastest burst. Prints Markdown rows with the
//! ratios ours / serde_json.
//!
//! Run: `cargo bench -p mcp-context-benches --bench messages_quiet` (under a minute).

#[path = "common/message_cases.rs"]
mod cases;

use std::hint::black_box;
use std::time::Instant;

use cases::*;
use mcp_context::json::to_slice;
use mcp_context::messages as m;
use serde::{Deserialize, Serialize};

/// Rounds per case; `MCP_QUIET_ROUNDS` lowers it (e.g. to 20 under callgrind).
fn rounds() -> u32 {
    std::env::var("MCP_QUIET_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1500)
}

fn quiet(fns: &mut [&mut dyn FnMut() -> usize], burst: u32) -> Vec<f64> {
    let mut best = vec![f64::MAX; fns.len()];
    for _ in 0..rounds() {
        for (f, slot) in fns.iter_mut().zip(best.iter_mut()) {
            let start = Instant::now();
            for _ in 0..burst {
                black_box(f());
            }
            *slot = slot.min(start.elapsed().as_secs_f64() * 1e9 / f64::from(burst));
        }
    }
    best
}

fn ns(t: f64) -> String {
    if t >= 1000.0 {
        format!("{:.2} µs", t / 1000.0)
    } else {
        format!("{t:.0} ns")
    }
}

fn case<S: Serialize + for<'de> Deserialize<'de>>(
    name: &str,
    json: &[u8],
    ours_decode: &Decode,
    ours_into: Option<&Decode>,
    ours_encode: &dyn Fn(&mut [u8]) -> usize,
) {
    let burst = (20_000 / json.len().max(1)).clamp(2, 100) as u32;
    let mut scratch = vec![0u8; 1 << 16];
    let mut scratch2 = vec![0u8; 1 << 16];
    let mut buf = vec![0u8; json.len() * 2 + 1024];
    let owned: S = serde_json::from_slice(json).unwrap();
    let value: serde_json::Value = serde_json::from_slice(json).unwrap();
    let mut out = Vec::with_capacity(json.len() * 2);
    let mut out2 = Vec::with_capacity(json.len() * 2);
    let into = ours_into.unwrap_or(&|_, _| 0);
    let t = quiet(
        &mut [
            &mut || ours_decode(black_box(json), &mut scratch),
            &mut || into(black_box(json), &mut scratch2),
            &mut || {
                let v = serde_json::from_slice::<S>(black_box(json)).unwrap();
                std::mem::size_of_val(&v)
            },
            &mut || match serde_json::from_slice::<serde_json::Value>(black_box(json)).unwrap() {
                serde_json::Value::Object(o) => o.len(),
                _ => 0,
            },
            &mut || ours_encode(black_box(&mut buf)),
            &mut || {
                out.clear();
                serde_json::to_writer(&mut out, black_box(&owned)).unwrap();
                out.len()
            },
            &mut || {
                out2.clear();
                serde_json::to_writer(&mut out2, black_box(&value)).unwrap();
                out2.len()
            },
        ],
        burst,
    );
    let (into_t, into_ratio) = match ours_into {
        Some(_) => (ns(t[1]), format!("**{:.2}**", t[1] / t[2])),
        None => ("—".into(), "—".into()),
    };
    println!(
        "| {name} | {} | {into_t} | {} | **{:.2}** | {into_ratio} | {:.2} | {} | {} | **{:.2}** | {:.2} |",
        ns(t[0]),
        ns(t[2]),
        t[0] / t[2],
        t[0] / t[3],
        ns(t[4]),
        ns(t[5]),
        t[4] / t[5],
        t[4] / t[6],
    );
}

fn main() {
    println!(
        "| message | decode ours (lazy) | decode ours (one pass) | decode serde owned | lazy / owned | one pass / owned | lazy / Value | encode ours | encode serde owned | ours / owned | ours / Value |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let req = READ_REQUEST.as_bytes();
    let decoded = m::ReadResourceRequest::decode(req).unwrap();
    case::<s::Request<s::ReadParams>>(
        "`resources/read` request",
        req,
        &|b, _| ours_read_request(b),
        None,
        &|buf| to_slice(&decoded, buf).unwrap(),
    );
    let read = read_result();
    let read_json = mcp_context::json::to_string(&read).unwrap();
    case::<s::Response<s::ReadResult>>(
        "`resources/read` result",
        read_json.as_bytes(),
        &ours_read_result,
        Some(&ours_read_result_into),
        &|buf| to_slice(&read, buf).unwrap(),
    );
    let prompt = prompt_result();
    let prompt_json = mcp_context::json::to_string(&prompt).unwrap();
    case::<s::Response<s::GetPromptResult>>(
        "`prompts/get` result, embedded resource",
        prompt_json.as_bytes(),
        &ours_prompt_result,
        Some(&ours_prompt_result_into),
        &|buf| to_slice(&prompt, buf).unwrap(),
    );
    let list = list_result();
    let list_json = mcp_context::json::to_string(&list).unwrap();
    case::<s::Response<s::ListResourcesResult>>(
        "100-entry `resources/list` result",
        list_json.as_bytes(),
        &|b, _| ours_list_result(b),
        Some(&ours_list_result_into),
        &|buf| to_slice(&list, buf).unwrap(),
    );
    fan_out();
    reencode();
}

/// Re-encoding a decoded `resources/read` request (its strings' bodies copied as read)
/// against encoding the same request built from `&str` values (every string escaped again).
fn reencode() {
    let req = READ_REQUEST.as_bytes();
    let decoded = m::ReadResourceRequest::decode(req).unwrap();
    let meta = m::RequestMeta {
        client_info: Some(m::Implementation::new("ExampleClient", "1.0.0")),
        ..m::RequestMeta::new("2026-07-28", m::ClientCapabilities::default())
    };
    let built = m::ReadResourceRequest {
        id: decoded.id,
        params: m::ReadResourceParams::new(meta, "file:///project/src/main.rs"),
    };
    let mut a = vec![0u8; 1024];
    let mut b = vec![0u8; 1024];
    let (na, nb) = (
        to_slice(&decoded, &mut a).unwrap(),
        to_slice(&built, &mut b).unwrap(),
    );
    assert_eq!(a[..na], b[..nb]);
    let t = quiet(
        &mut [
            &mut || to_slice(black_box(&decoded), &mut a).unwrap(),
            &mut || to_slice(black_box(&built), &mut b).unwrap(),
        ],
        100,
    );
    println!(
        "\nre-encode the decoded `resources/read` request: {} (bodies copied), built from &str: {} (escaped again): {:.2}",
        ns(t[0]),
        ns(t[1]),
        t[0] / t[1]
    );
}

/// The fifth case: decode one `notifications/resources/updated`; encode it for
/// [`FAN_OUT`] subscriptions (ours: once, then a copy per subscription id; serde_json: the
/// owned notification, or the `Value`, serialised for each).
fn fan_out() {
    let json = updated_json();
    let bytes = json.as_bytes();
    let mut owned: s::Notification<s::UpdatedParams> = serde_json::from_slice(bytes).unwrap();
    let mut value: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    let mut buf = vec![0u8; 4096];
    let mut out = Vec::with_capacity(1024);
    let mut value_out = Vec::with_capacity(1024);
    let t = quiet(
        &mut [
            &mut || ours_updated(black_box(bytes)),
            &mut || {
                let v: s::Notification<s::UpdatedParams> =
                    serde_json::from_slice(black_box(bytes)).unwrap();
                v.params.uri.len()
            },
            &mut || match serde_json::from_slice::<serde_json::Value>(black_box(bytes)).unwrap() {
                serde_json::Value::Object(o) => o.len(),
                _ => 0,
            },
            &mut || ours_fan_out(black_box(&mut buf)),
            &mut || serde_fan_out(black_box(&mut owned), &mut out),
            &mut || {
                (0..FAN_OUT)
                    .map(|k| {
                        value["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] =
                            subscription_id(k).into();
                        value_out.clear();
                        serde_json::to_writer(&mut value_out, black_box(&value)).unwrap();
                        value_out.len()
                    })
                    .sum()
            },
        ],
        10,
    );
    println!(
        "| `notifications/resources/updated`: decode one, encode for {FAN_OUT} subscriptions | {} | — | {} | **{:.2}** | — | {:.2} | {} | {} | **{:.2}** | {:.2} |",
        ns(t[0]),
        ns(t[1]),
        t[0] / t[1],
        t[0] / t[2],
        ns(t[3]),
        ns(t[4]),
        t[3] / t[4],
        t[3] / t[5],
    );
}
