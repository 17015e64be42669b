//! 2025-11-25 sessions across a fleet of Rust hosts on a real Redis (feature `redis`;
//! docs/scale-out.md "2025-11-25 sessions across instances", docs/rules.md §17.3 item 14):
//! a session initialized on A continues on B, a subscription made on B reaches A's GET
//! stream, a stream of a stopped instance resumes on another with `Last-Event-ID`, and a
//! DELETE on B is 404 on A, also when A's channel was down as it was published. `redis-server` (Debian package) is started here on a free port.
#![cfg(feature = "redis")]

mod redis_kit;

use std::time::Duration;

use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents};
use mcp_context_host::http::HttpOptions;
use mcp_context_host::sessions_redis::RedisSessionStore;
use mcp_context_host::{App, Host};
use redis_kit::Redis;
use serde_json::{Value, json};
use tokio::sync::oneshot;

struct Instance {
    url: String,
    host: Host,
    store: RedisSessionStore,
    stop: Option<oneshot::Sender<()>>,
}

impl Drop for Instance {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

async fn instance(redis: &str) -> Instance {
    let mut app = App::named("notes", "1.0.0");
    for n in ["notes://a", "notes://b"] {
        app.static_resource(
            OwnedResource::new(n, n),
            vec![OwnedResourceContents::text(n, Some("text/plain"), "x")],
            None,
        );
    }
    let host = app.build().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let store = RedisSessionStore::new(redis, "rust").unwrap();
    let options = HttpOptions {
        sessions: Some(store.clone()),
        ..HttpOptions::default()
    };
    let (tx, rx) = oneshot::channel::<()>();
    let h = host.clone();
    tokio::spawn(async move {
        h.serve_http_with(listener, options, async move {
            let _ = rx.await;
        })
        .await
    });
    Instance {
        url,
        host,
        store,
        stop: Some(tx),
    }
}

fn post(
    http: &reqwest::Client,
    url: &str,
    session: Option<&str>,
    body: &Value,
) -> reqwest::RequestBuilder {
    let mut r = http
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_string());
    if let Some(s) = session {
        r = r.header("mcp-session-id", s);
    }
    r
}

/// The next SSE event of `resp`: `(id, message)`.
async fn next_event(resp: &mut reqwest::Response, buf: &mut String) -> (Option<String>, Value) {
    loop {
        if let Some(end) = buf.find("\n\n") {
            let event: String = buf.drain(..end + 2).collect();
            let mut id = None;
            let mut data = String::new();
            for line in event.lines() {
                if let Some(v) = line.strip_prefix("id: ") {
                    id = Some(v.to_string());
                } else if let Some(v) = line.strip_prefix("data: ") {
                    data.push_str(v);
                }
            }
            if !data.is_empty() {
                return (id, serde_json::from_str(&data).unwrap());
            }
            continue;
        }
        let chunk = tokio::time::timeout(Duration::from_secs(8), resp.chunk())
            .await
            .expect("an event within 8 s")
            .unwrap()
            .expect("the stream ended");
        buf.push_str(std::str::from_utf8(&chunk).unwrap());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_moves_between_rust_instances_and_its_stream_resumes() {
    let redis = Redis::start();
    let a = instance(&redis.url()).await;
    let b = instance(&redis.url()).await;
    let http = reqwest::Client::new();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}});
    let r = post(&http, &a.url, None, &init).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let id = r.headers()["mcp-session-id"].to_str().unwrap().to_string();
    // Continues on B; a subscription made there.
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let r = post(&http, &b.url, Some(&id), &note).send().await.unwrap();
    assert_eq!(r.status(), 202);
    let sub = json!({"jsonrpc": "2.0", "id": 2, "method": "resources/subscribe",
                     "params": {"uri": "notes://a"}});
    let r = post(&http, &b.url, Some(&id), &sub).send().await.unwrap();
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["result"], json!({}), "{v}");
    // The GET stream on A: the subscription made on B is there.
    let get = |url: &str, last: Option<&str>| {
        let mut r = http
            .get(url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &id);
        if let Some(l) = last {
            r = r.header("last-event-id", l);
        }
        r.send()
    };
    let mut sa = get(&a.url, None).await.unwrap();
    assert_eq!(sa.status(), 200);
    let mut buf = String::new();
    for n in 1..=3 {
        a.host.notifier().resource_updated("notes://a");
        let (eid, msg) = next_event(&mut sa, &mut buf).await;
        assert_eq!(eid.as_deref(), Some(n.to_string().as_str()));
        assert_eq!(msg["method"], "notifications/resources/updated");
    }
    // Two more are stored, not processed; the stream is dropped: it resumes on B after 1.
    a.host.notifier().resource_updated("notes://a");
    a.host.notifier().resource_updated("notes://a");
    let key = format!("mcp-context:rust:events:{id}");
    let client = redis::Client::open(redis.url()).unwrap();
    let mut c = client.get_multiplexed_async_connection().await.unwrap();
    for _ in 0..400 {
        let n: usize = redis::cmd("ZCARD")
            .arg(&key)
            .query_async(&mut c)
            .await
            .unwrap();
        if n == 5 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    drop(sa);
    let mut sb = get(&b.url, Some("1")).await.unwrap();
    let mut buf = String::new();
    let mut ids = Vec::new();
    for _ in 0..4 {
        ids.push(next_event(&mut sb, &mut buf).await.0.unwrap());
    }
    b.host.notifier().resource_updated("notes://a");
    ids.push(next_event(&mut sb, &mut buf).await.0.unwrap());
    assert_eq!(ids, ["2", "3", "4", "5", "6"]);
    // DELETE on B: A answers 404, and B's stream ends.
    let r = http
        .delete(&b.url)
        .header("mcp-session-id", &id)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let ping = json!({"jsonrpc": "2.0", "id": 3, "method": "ping"});
    let r = post(&http, &a.url, Some(&id), &ping).send().await.unwrap();
    assert_eq!(r.status(), 404);
}

/// The session channel of every instance is cut (`CLIENT KILL TYPE pubsub`) and the session
/// is deleted on B before A subscribes again (its retry is 0.5 s): the message is lost for
/// A, which forgets the session, and ends its GET stream, when it loads the table again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delete_published_while_an_instance_was_not_listening_ends_its_stream() {
    let redis = Redis::start();
    let a = instance(&redis.url()).await;
    let b = instance(&redis.url()).await;
    let http = reqwest::Client::new();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}});
    let r = post(&http, &a.url, None, &init).send().await.unwrap();
    let id = r.headers()["mcp-session-id"].to_str().unwrap().to_string();
    // Both stores are subscribed from the start (B has had no request).
    for _ in 0..400 {
        if a.store.connected() && b.store.connected() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(a.store.connected() && b.store.connected());
    let mut stream = http
        .get(&a.url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &id)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    let client = redis::Client::open(redis.url()).unwrap();
    let mut c = client.get_multiplexed_async_connection().await.unwrap();
    let killed: usize = redis::cmd("CLIENT")
        .arg("KILL")
        .arg("TYPE")
        .arg("pubsub")
        .query_async(&mut c)
        .await
        .unwrap();
    assert!(killed >= 2, "{killed}");
    let r = http
        .delete(&b.url)
        .header("mcp-session-id", &id)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    // A's stream ends (keepalive comments until then), from the reload.
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        while let Ok(Some(_)) = stream.chunk().await {}
    })
    .await;
    assert!(ended.is_ok(), "A kept the GET stream of a deleted session");
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    let r = post(&http, &a.url, Some(&id), &ping).send().await.unwrap();
    assert_eq!(r.status(), 404);
}
