//! The host over an in-memory stdio connection (`Host::serve`, the loop `serve_stdio`
//! runs), driven by raw lines and by the crate's async client.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use mcp_context::client::{CompletionRef, Notice};
use mcp_context::messages::ResourceContents;
use mcp_context::messages::owned::{
    OwnedGetPromptResult, OwnedPrompt, OwnedResourceContents, OwnedResourceTemplate,
    OwnedSubscriptionFilter,
};
use mcp_context::server::ServerConfig;
use mcp_context_host::client::McpClient;
use mcp_context_host::{App, Context, Error, Host, PromptRequest, ReadRequest};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, WriteHalf};

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn read_line(id: u32, uri: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"resources/read","params":{{{META},"uri":"{uri}"}}}}"#
    )
}

/// A server with a sleeping template, a never-answering one, a panicking one and a prompt.
fn app(config: ServerConfig) -> (App, Arc<AtomicBool>) {
    let dropped = Arc::new(AtomicBool::new(false));
    let mut app = App::with_config(config);
    app.template(
        OwnedResourceTemplate::new("sleep://{ms}", "sleep"),
        |req: ReadRequest, _cx: Context| async move {
            let ms: u64 = req
                .var("ms")
                .and_then(|v| v.parse().ok())
                .ok_or(Error::not_found())?;
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok(OwnedResourceContents::text(
                &req.uri,
                None,
                format!("slept {ms}"),
            ))
        },
    );
    let flag = dropped.clone();
    app.template(
        OwnedResourceTemplate::new("never://{x}", "never"),
        move |_req: ReadRequest, _cx: Context| {
            let guard = DropFlag(flag.clone());
            async move {
                let _guard = guard;
                std::future::pending::<Result<OwnedResourceContents, Error>>().await
            }
        },
    );
    app.template(
        OwnedResourceTemplate::new("panic://{x}", "panic"),
        |_req: ReadRequest, _cx: Context| async move {
            if true {
                panic!("handler bug");
            }
            Ok(Vec::<OwnedResourceContents>::new())
        },
    );
    app.template(
        OwnedResourceTemplate::new("note://{id}", "note"),
        |req: ReadRequest, cx: Context| async move {
            Ok(OwnedResourceContents::text(
                &req.uri,
                Some("text/plain"),
                format!(
                    "note {} for caller {}",
                    req.var("id").unwrap_or_default(),
                    cx.caller()
                ),
            ))
        },
    );
    app.prompt(
        OwnedPrompt {
            name: "greet".into(),
            ..Default::default()
        },
        |req: PromptRequest, _cx: Context| async move {
            tokio::task::yield_now().await;
            Ok(OwnedGetPromptResult {
                description: Some(format!("hello from {}", req.name)),
                ..Default::default()
            })
        },
    );
    app.complete_template("note://{id}", |req, _cx| async move {
        Ok(["1", "2", "12"]
            .iter()
            .filter(|v| v.starts_with(&req.value))
            .map(|v| (*v).to_owned())
            .collect())
    });
    (app, dropped)
}

struct DropFlag(Arc<AtomicBool>);
impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

struct Raw {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
}

impl Raw {
    fn start(host: &Host) -> Self {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let (r, w) = tokio::io::split(theirs);
        let host = host.clone();
        tokio::spawn(async move { host.serve(r, w).await });
        let (r, write) = tokio::io::split(ours);
        Self {
            write,
            lines: BufReader::new(r).lines(),
        }
    }

    async fn send(&mut self, line: &str) {
        self.write.write_all(line.as_bytes()).await.unwrap();
        self.write.write_all(b"\n").await.unwrap();
    }

    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(5), self.lines.next_line())
            .await
            .expect("an answer within 5 s")
            .unwrap()
            .expect("a line");
        serde_json::from_str(&line).unwrap()
    }
}

#[tokio::test]
async fn an_answer_given_after_10_ms_of_async_work_is_on_the_wire_within_100_ms() {
    let host = app(ServerConfig::default()).0.build().unwrap();
    let mut raw = Raw::start(&host);
    for id in 1..=5 {
        let t0 = Instant::now();
        raw.send(&read_line(id, "sleep://10")).await;
        let v = raw.next().await;
        let took = t0.elapsed();
        assert_eq!(v["id"], id);
        assert_eq!(v["result"]["contents"][0]["text"], "slept 10", "{v}");
        assert!(took >= Duration::from_millis(10), "{took:?}");
        assert!(took < Duration::from_millis(100), "answered after {took:?}");
    }
}

#[tokio::test]
async fn the_machine_timer_fails_an_unanswered_request_and_drops_its_handler() {
    let config = ServerConfig {
        request_timeout_ms: 150,
        ..ServerConfig::default()
    };
    let (app, dropped) = app(config);
    let host = app.build().unwrap();
    let mut raw = Raw::start(&host);
    let t0 = Instant::now();
    raw.send(&read_line(1, "never://x")).await;
    let v = raw.next().await;
    assert_eq!(v["error"]["code"], -32603, "{v}");
    let took = t0.elapsed();
    assert!(
        took >= Duration::from_millis(150) && took < Duration::from_secs(2),
        "{took:?}"
    );
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert!(
        dropped.load(Ordering::SeqCst),
        "the handler's future was dropped"
    );
}

#[tokio::test]
async fn a_cancelled_request_drops_its_handler() {
    let (app, dropped) = app(ServerConfig::default());
    let host = app.build().unwrap();
    let mut raw = Raw::start(&host);
    raw.send(&read_line(1, "never://x")).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert!(!dropped.load(Ordering::SeqCst));
    raw.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#)
        .await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(
        dropped.load(Ordering::SeqCst),
        "cancellation reached the handler"
    );
    // The connection still serves.
    raw.send(&read_line(2, "note://7")).await;
    assert_eq!(raw.next().await["id"], 2);
}

#[tokio::test]
async fn a_panicking_handler_answers_internal_error() {
    let host = app(ServerConfig::default()).0.build().unwrap();
    let mut raw = Raw::start(&host);
    raw.send(&read_line(1, "panic://x")).await;
    let v = raw.next().await;
    assert_eq!(v["error"]["code"], -32603, "{v}");
    raw.send(&read_line(2, "note://1")).await;
    assert_eq!(raw.next().await["id"], 2);
}

#[tokio::test]
async fn a_20_mib_line_gets_32600_with_its_id_and_the_next_line_is_served() {
    let host = app(ServerConfig::default()).0.build().unwrap();
    let mut raw = Raw::start(&host);
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":"big","method":"x","params":{{"pad":"{}"}}}}"#,
        "a".repeat(20 << 20)
    );
    raw.send(&big).await;
    let v = raw.next().await;
    assert_eq!(v["error"]["code"], -32600, "{v}");
    assert_eq!(v["id"], "big", "the id read from the line's start");
    raw.send(&read_line(2, "note://1")).await;
    assert_eq!(raw.next().await["id"], 2);
}

/// In-memory pipe: our async client against the host.
fn pair(host: &Host) -> McpClient {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (r, w) = tokio::io::split(theirs);
    let host = host.clone();
    tokio::spawn(async move { host.serve(r, w).await });
    let (r, w) = tokio::io::split(ours);
    McpClient::over_io(r, w, mcp_context_host::client::default_config()).unwrap()
}

#[tokio::test]
async fn the_async_client_reads_prompts_completes_and_listens() {
    let host = app(ServerConfig::default()).0.build().unwrap();
    let client = pair(&host);
    let session = client.connect().await.unwrap();
    assert_eq!(session.version, "2026-07-28");

    let read = client.read_resource("note://42").await.unwrap();
    let view = read.view().unwrap();
    match view.contents.iter().next().unwrap() {
        ResourceContents::Text(t) => assert_eq!(t.text.to_cow(), "note 42 for caller 0"),
        other => panic!("{other:?}"),
    }
    let err = client.read_resource("nothing://here").await.unwrap_err();
    assert!(
        err.to_string().contains("not found") || err.to_string().contains("-32602"),
        "{err}"
    );

    let prompt = client.get_prompt("greet", &[]).await.unwrap();
    assert!(
        prompt.json().contains("hello from greet"),
        "{}",
        prompt.json()
    );

    let done = client
        .complete(
            CompletionRef::Resource("note://{id}".into()),
            ("id", "1"),
            None,
        )
        .await
        .unwrap();
    assert!(
        done.json().contains(r#""values":["1","12"]"#),
        "{}",
        done.json()
    );

    let templates = client.list_resource_templates().await.unwrap();
    assert!(format!("{templates:?}").contains("note://{id}"));

    let filter = OwnedSubscriptionFilter {
        resource_subscriptions: Some(vec!["note://7".into()]),
        ..Default::default()
    };
    let mut sub = client.listen(filter).await.unwrap();
    host.notifier().resource_updated("note://7");
    let notice = tokio::time::timeout(Duration::from_secs(5), sub.next())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        notice,
        Notice::ResourceUpdated {
            uri: "note://7".into()
        }
    );
    host.notifier().shutdown();
    let end = tokio::time::timeout(Duration::from_secs(5), sub.next())
        .await
        .unwrap();
    assert!(end.is_none());
    assert!(sub.end_reason().is_some());
}

#[tokio::test]
async fn two_hundred_concurrent_reads_through_the_async_client() {
    let host = app(ServerConfig::default()).0.build().unwrap();
    let client = pair(&host);
    let mut tasks = Vec::new();
    for i in 0..200 {
        let c = client.clone();
        tasks.push(tokio::spawn(async move {
            c.read_resource(&format!("sleep://{}", i % 7))
                .await
                .map(|r| r.json().to_owned())
        }));
    }
    for (i, t) in tasks.into_iter().enumerate() {
        let json = t.await.unwrap().unwrap();
        assert!(json.contains(&format!("slept {}", i % 7)), "{json}");
    }
}

#[tokio::test]
async fn extension_methods_serve_tools() {
    use mcp_context::messages::owned::OwnedJson;
    use mcp_context_host::MethodRequest;
    let mut app = App::named("tools", "1.0.0");
    app.capability(
        "tools",
        OwnedJson::parse(r#"{"listChanged":false}"#).unwrap(),
    );
    app.method(
        "tools/list",
        |_req: MethodRequest, _cx: Context| async move {
            Ok(OwnedJson::parse(
                r#"{"tools":[{"name":"add","inputSchema":{"type":"object"}}]}"#,
            )?)
        },
    );
    app.method(
        "tools/call",
        |req: MethodRequest, _cx: Context| async move {
            let v: Value = serde_json::from_str(req.params.as_raw().as_text())?;
            let sum = v["arguments"]["a"].as_i64().unwrap_or(0)
                + v["arguments"]["b"].as_i64().unwrap_or(0);
            tokio::time::sleep(Duration::from_millis(5)).await;
            Ok(OwnedJson::parse(format!(
                r#"{{"content":[{{"type":"text","text":"{sum}"}}]}}"#
            ))?)
        },
    );
    let host = app.build().unwrap();
    let mut raw = Raw::start(&host);
    raw.send(&format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{META}}}}}"#
    ))
    .await;
    let v = raw.next().await;
    assert_eq!(
        v["result"]["capabilities"]["tools"]["listChanged"], false,
        "{v}"
    );
    raw.send(&format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{{META},"name":"add","arguments":{{"a":2,"b":40}}}}}}"#
    ))
    .await;
    let v = raw.next().await;
    assert_eq!(v["result"]["content"][0]["text"], "42", "{v}");
    assert_eq!(v["result"]["resultType"], "complete", "{v}");
    raw.send(&format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{{{META}}}}}"#
    ))
    .await;
    assert_eq!(raw.next().await["result"]["tools"][0]["name"], "add");
    // Unregistered methods stay -32601.
    raw.send(&format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{{{META},"level":"info"}}}}"#
    ))
    .await;
    assert_eq!(raw.next().await["error"]["code"], -32601);
}

#[tokio::test]
async fn the_async_client_calls_extension_methods() {
    use mcp_context::messages::owned::OwnedJson;
    use mcp_context_host::MethodRequest;
    let mut app = App::named("tools", "1.0.0");
    app.method(
        "tools/call",
        |req: MethodRequest, _cx: Context| async move {
            let v: Value = serde_json::from_str(req.params.as_raw().as_text())?;
            let name = v["name"].as_str().unwrap_or_default().to_owned();
            Ok(OwnedJson::parse(format!(
                r#"{{"content":[{{"type":"text","text":"called {name}"}}]}}"#
            ))?)
        },
    );
    let host = app.build().unwrap();
    let client = pair(&host);
    let result = client
        .request(
            "tools/call",
            OwnedJson::parse(r#"{"name":"echo","arguments":{}}"#).unwrap(),
        )
        .await
        .unwrap();
    let v: Value = serde_json::from_str(result.as_raw().as_text()).unwrap();
    assert_eq!(v["content"][0]["text"], "called echo", "{v}");
    // A method the machine owns is refused before anything is sent.
    assert!(matches!(
        client
            .request("resources/read", OwnedJson::empty_object())
            .await,
        Err(mcp_context_host::client::Error::Refused(_))
    ));
}

#[tokio::test]
async fn progress_reaches_the_client_before_the_result() {
    let mut app = App::named("progress", "1.0.0");
    app.template(
        OwnedResourceTemplate::new("slow://{n}", "slow"),
        |req: ReadRequest, cx: Context| async move {
            for i in 1..=3 {
                tokio::time::sleep(Duration::from_millis(2)).await;
                cx.progress(f64::from(i), Some(3.0), Some("working"));
            }
            Ok(OwnedResourceContents::text(&req.uri, None, "done"))
        },
    );
    let host = app.build().unwrap();
    let mut raw = Raw::start(&host);
    raw.send(
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p1"},"uri":"slow://1"}}"#,
    )
    .await;
    for i in 1..=3 {
        let v = raw.next().await;
        assert_eq!(v["method"], "notifications/progress", "{v}");
        assert_eq!(v["params"]["progressToken"], "p1");
        assert_eq!(v["params"]["progress"], f64::from(i));
    }
    assert_eq!(raw.next().await["result"]["contents"][0]["text"], "done");
    // Without a token nothing is sent: the result comes alone.
    raw.send(&read_line(2, "slow://2")).await;
    let v = raw.next().await;
    assert_eq!(v["id"], 2, "{v}");
}

#[tokio::test]
async fn dynamic_lists_page_after_the_registered_resources() {
    use mcp_context::messages::owned::OwnedResource;
    use mcp_context_host::{ListPage, ListRequest};
    let mut app = App::named("lists", "1.0.0");
    app.resource(
        OwnedResource::new("mem://static", "static"),
        |req: ReadRequest, _cx: Context| async move {
            Ok(OwnedResourceContents::text(&req.uri, None, "s"))
        },
    );
    app.list_resources(|req: ListRequest, _cx: Context| async move {
        tokio::task::yield_now().await;
        Ok(match req.cursor.as_deref() {
            None => ListPage {
                resources: vec![OwnedResource::new("mem://d/1", "d1")],
                next_cursor: Some("two".into()),
            },
            Some("two") => ListPage {
                resources: vec![OwnedResource::new("mem://d/2", "d2")],
                next_cursor: None,
            },
            Some(_) => return Err(Error::invalid_params("bad cursor")),
        })
    });
    let host = app.build().unwrap();
    let client = pair(&host);
    let listing = client.list_resources().await.unwrap();
    let text = format!("{listing:?}");
    let order: Vec<usize> = ["mem://static", "mem://d/1", "mem://d/2"]
        .iter()
        .map(|u| text.find(u).unwrap_or_else(|| panic!("{u} listed: {text}")))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
}

fn tool(json: &str) -> mcp_context::messages::owned::OwnedTool {
    use mcp_context::messages::owned::FromJsonText;
    mcp_context::messages::owned::OwnedTool::from_json_text(json).unwrap()
}

fn call_line(id: u32, name: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{{META},"name":"{name}","arguments":{arguments}}}}}"#
    )
}

/// Tools on the core's registry (docs/rules.md §20): the machine lists them and refuses bad
/// calls; the handler's answer, its tool error and its missing handler take the core's shape.
#[tokio::test]
async fn tools_are_served_from_the_core_registry() {
    use mcp_context_host::{ToolReply, ToolRequest};
    let mut app = App::named("tools", "1.0.0");
    app.tool(
        tool(
            r#"{"name":"add","inputSchema":{"type":"object","required":["a","b"],"properties":{"a":{"type":"integer"},"b":{"type":"integer"}}}}"#,
        ),
        |req: ToolRequest, _cx: Context| async move {
            let n = |k| {
                req.arg(k)
                    .and_then(|v| v.as_number())
                    .and_then(|n| n.as_i64())
            };
            let (a, b) = (n("a"), n("b"));
            tokio::time::sleep(Duration::from_millis(5)).await;
            let (Some(a), Some(b)) = (a, b) else {
                return Err(Error::invalid_params("a and b must be integers"));
            };
            Ok(ToolReply::text(&format!("{}", a + b)))
        },
    );
    app.tool(
        tool(r#"{"name":"fail","inputSchema":{"type":"object"}}"#),
        |_req: ToolRequest, _cx: Context| async move {
            let n: u32 = "not \"a\" number".parse()?;
            Ok(ToolReply::text(&n.to_string()))
        },
    );
    let host = app.build().unwrap();
    let mut raw = Raw::start(&host);
    raw.send(&format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{META}}}}}"#
    ))
    .await;
    let v = raw.next().await;
    assert_eq!(
        v["result"]["capabilities"]["tools"]["listChanged"], true,
        "{v}"
    );
    raw.send(&format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{{META}}}}}"#
    ))
    .await;
    let v = raw.next().await;
    let names: Vec<_> = v["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["add", "fail"], "{v}");

    raw.send(&call_line(3, "add", r#"{"a":2,"b":40}"#)).await;
    let v = raw.next().await;
    assert_eq!(v["id"], 3, "{v}");
    assert_eq!(v["result"]["content"][0]["text"], "42", "{v}");
    assert_eq!(v["result"]["resultType"], "complete", "{v}");
    assert_eq!(
        v["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "tools",
        "{v}"
    );
    assert!(v["result"].get("isError").is_none(), "{v}");

    // A protocol error the handler chose stays one.
    raw.send(&call_line(4, "add", r#"{"a":"x","b":1}"#)).await;
    let v = raw.next().await;
    assert_eq!(v["error"]["code"], -32602, "{v}");
    assert_eq!(v["error"]["message"], "a and b must be integers", "{v}");

    // `?` on an ordinary error: a tool error the model sees (§20.4), its text escaped.
    raw.send(&call_line(5, "fail", "{}")).await;
    let v = raw.next().await;
    assert_eq!(v["result"]["isError"], true, "{v}");
    assert_eq!(
        v["result"]["content"][0]["text"], "invalid digit found in string",
        "{v}"
    );

    // The machine refuses before any handler runs.
    raw.send(&call_line(6, "add", r#"{"a":1}"#)).await;
    let v = raw.next().await;
    assert_eq!(v["result"]["isError"], true, "{v}");
    assert_eq!(
        v["result"]["content"][0]["text"], "Missing required argument: b",
        "{v}"
    );
    raw.send(&call_line(7, "nope", "{}")).await;
    let v = raw.next().await;
    assert_eq!(v["error"]["code"], -32602, "{v}");

    // A tool registered at runtime without a handler: the core's `Failure::NotFound`
    // ("Unknown tool"), never an answer the host makes up.
    host.notifier()
        .with_server(|s| s.add_tool(tool(r#"{"name":"orphan","inputSchema":{"type":"object"}}"#)))
        .unwrap();
    raw.send(&call_line(8, "orphan", "{}")).await;
    let v = raw.next().await;
    assert_eq!(v["error"]["code"], -32602, "{v}");
    assert_eq!(v["error"]["message"], "Unknown tool", "{v}");
}

#[test]
fn tool_text_escapes_json() {
    use mcp_context_host::ToolReply;
    let ToolReply::Result(j) = ToolReply::text("a \"quoted\"\nline") else {
        panic!("not a result")
    };
    let v: Value = serde_json::from_str(j.as_raw().as_text()).unwrap();
    assert_eq!(v["content"][0]["text"], "a \"quoted\"\nline");
    assert_eq!(v["content"][0]["type"], "text");
}
