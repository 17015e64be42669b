//! The stdio line policy end to end: a runner's loop over `stdio::LineSplitter` and the
//! server machine (docs/rules.md §15.2 item 2).

use mcp_context::server::{Ctx, Output, Server, ServerConfig, StreamId};
use mcp_context::stdio::{Line, LineSplitter};
use serde_json::{Value, json};

/// What a runner does with what it read: lines to the machine, every answer drained.
fn run(server: &mut Server, splitter: &mut LineSplitter, chunk: &[u8]) -> Vec<Value> {
    let ctx = Ctx::stdio(StreamId(1));
    splitter.feed(chunk, |line| match line {
        Line::Message(m) => drop(server.handle_message(m, 0, ctx)),
        Line::TooLong { head } => server.handle_line_too_long(head, 0, ctx),
    });
    let mut out = Vec::new();
    while let Some(o) = server.poll_output() {
        if let Output::Transmit(t) = o {
            assert!(!t.bytes.contains(&b'\n'));
            out.push(serde_json::from_slice(&t.bytes).unwrap());
        }
    }
    out
}

fn discover(id: u64) -> Vec<u8> {
    let mut line = serde_json::to_vec(
        &json!({"jsonrpc":"2.0","id":id,"method":"server/discover","params":{"_meta":{
        "io.modelcontextprotocol/protocolVersion":"2026-07-28",
        "io.modelcontextprotocol/clientCapabilities":{}}}}),
    )
    .unwrap();
    line.push(b'\n');
    line
}

#[test]
fn a_20_mib_line_gets_32600_with_its_id_and_the_next_line_is_served() {
    let config = ServerConfig::default();
    assert_eq!(config.max_line, mcp_context::http::DEFAULT_MAX_BODY);
    let mut splitter = LineSplitter::new(config.max_line);
    let mut server = Server::new(config).unwrap();
    // A 20 MiB request fed in 64 KiB reads, as a runner reads it.
    let mut big =
        br#"{"jsonrpc":"2.0","id":"big-1","method":"resources/read","params":{"uri":"x","pad":""#
            .to_vec();
    big.resize(20 << 20, b'a');
    let mut answers = Vec::new();
    for chunk in big.chunks(64 << 10) {
        answers.extend(run(&mut server, &mut splitter, chunk));
    }
    assert_eq!(
        answers.len(),
        1,
        "answered once, as soon as the bound is crossed"
    );
    assert_eq!(answers[0]["id"], "big-1");
    assert_eq!(answers[0]["error"]["code"], -32600);
    assert!(
        answers[0]["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Message too large")
    );
    // The next line, in the same read as the long line's end, is served.
    let mut tail = b"aaaa\"}}\n".to_vec();
    tail.extend(discover(2));
    let next = run(&mut server, &mut splitter, &tail);
    assert_eq!(next.len(), 1);
    assert_eq!(next[0]["id"], 2);
    assert!(next[0]["result"]["supportedVersions"].is_array());
}

#[test]
fn an_id_after_the_head_is_null() {
    let mut splitter = LineSplitter::new(64);
    let mut server = Server::new(ServerConfig::default()).unwrap();
    let mut line = br#"{"jsonrpc":"2.0","method":"x","params":{"pad":""#.to_vec();
    line.resize(3000, b'a');
    line.extend_from_slice(b"\"},\"id\":3}\n");
    let answers = run(&mut server, &mut splitter, &line);
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0]["id"], Value::Null);
    assert_eq!(answers[0]["error"]["code"], -32600);
}
