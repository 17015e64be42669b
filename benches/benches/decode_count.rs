//! Instruction counts for `valgrind --tool=callgrind`: runs one case of `messages_quiet`
//! `N` times, so a run with `N` minus a run with 0, divided by `N`, is the cost of one.
//!
//! `cargo bench -p mcp-context-benches --bench decode_count --no-run`, then
//! `valgrind --tool=callgrind <bench binary> <case> <N>`, where case is one of
//! `request result prompt list updated`, with `-serde` (serde_json owned decode) or
//! `-encode` (our encode) appended for the other sides, or `-into` (ours, the items kept
//! in slots while decoding) for `result prompt list`.

#[path = "common/message_cases.rs"]
mod cases;
#[path = "common/count.rs"]
mod count;

use std::hint::black_box;

use cases::*;
use count::run;
use mcp_context::json::to_slice;
use mcp_context::messages as m;

fn main() {
    let (case, n) = count::args("list");
    let mut scratch = vec![0u8; 1 << 16];
    let mut buf = vec![0u8; 1 << 20];
    let read = read_result();
    let prompt = prompt_result();
    let list = list_result();
    let read_json = mcp_context::json::to_string(&read).unwrap();
    let prompt_json = mcp_context::json::to_string(&prompt).unwrap();
    let list_json = mcp_context::json::to_string(&list).unwrap();
    let updated = updated_json();
    let req = READ_REQUEST.as_bytes();
    let decoded = m::ReadResourceRequest::decode(req).unwrap();
    match case.as_str() {
        "request" => run(n, || ours_read_request(black_box(req))),
        "result" => run(n, || {
            ours_read_result(black_box(read_json.as_bytes()), &mut scratch)
        }),
        "prompt" => run(n, || {
            ours_prompt_result(black_box(prompt_json.as_bytes()), &mut scratch)
        }),
        "list" => run(n, || ours_list_result(black_box(list_json.as_bytes()))),
        "result-into" => run(n, || {
            ours_read_result_into(black_box(read_json.as_bytes()), &mut scratch)
        }),
        "prompt-into" => run(n, || {
            ours_prompt_result_into(black_box(prompt_json.as_bytes()), &mut scratch)
        }),
        "list-into" => run(n, || {
            ours_list_result_into(black_box(list_json.as_bytes()), &mut scratch)
        }),
        "updated" => run(n, || ours_updated(black_box(updated.as_bytes()))),
        "request-serde" => run(n, || {
            let v: s::Request<s::ReadParams> = serde_json::from_slice(black_box(req)).unwrap();
            v.params.uri.len()
        }),
        "result-serde" => run(n, || {
            let v: s::Response<s::ReadResult> =
                serde_json::from_slice(black_box(read_json.as_bytes())).unwrap();
            v.result.contents.len()
        }),
        "prompt-serde" => run(n, || {
            let v: s::Response<s::GetPromptResult> =
                serde_json::from_slice(black_box(prompt_json.as_bytes())).unwrap();
            v.result.messages.len()
        }),
        "list-serde" => run(n, || {
            let v: s::Response<s::ListResourcesResult> =
                serde_json::from_slice(black_box(list_json.as_bytes())).unwrap();
            v.result.resources.len()
        }),
        "updated-serde" => run(n, || {
            let v: s::Notification<s::UpdatedParams> =
                serde_json::from_slice(black_box(updated.as_bytes())).unwrap();
            v.params.uri.len()
        }),
        "request-encode" => run(n, || to_slice(black_box(&decoded), &mut buf).unwrap()),
        "result-encode" => run(n, || to_slice(black_box(&read), &mut buf).unwrap()),
        "prompt-encode" => run(n, || to_slice(black_box(&prompt), &mut buf).unwrap()),
        "list-encode" => run(n, || to_slice(black_box(&list), &mut buf).unwrap()),
        other => panic!("unknown case {other}"),
    }
}
