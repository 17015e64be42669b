//! Fuzz target: hostile challenges, metadata, registration and token responses and redirects
//! into the authorization flow (`mcp_context::auth::Authorizer`).
//!
//! The input is split at `\n`. The first chunk is the `WWW-Authenticate` value of a 401. Each
//! later chunk answers what the flow asks for: a fetch gets the status its first byte picks
//! and the rest as the body (an ASCII digit `0`-`9` picks 200, 201, 404, 400, 401, 500, 302,
//! 403, 204, 0; `#` instead: the fetch failed); an authorization URL gets the
//! chunk as the redirect's query, with `STATE` replaced by the `state` the flow sent (so the
//! happy path is reachable); a chunk starting with `!` is a new challenge (its second byte
//! picks 401 or 403 `insufficient_scope`-style, the rest is the header); `~` is time passing
//! and a refresh. Beyond "never panics": every fetch URL is an `http(s)` URL, every header the
//! flow asks for is safe on the wire, a `Bearer` value never goes to another origin, and the
//! `Authorization` value is safe on the wire.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_context::auth::{Action, AuthConfig, Authorizer, url::HttpUrl};

const MCP: &str = "http://localhost:3000/mcp";
const CB: &str = "http://localhost:5000/callback";
const STATUSES: [u16; 10] = [200, 201, 404, 400, 401, 500, 302, 403, 204, 0];

fn header_safe(value: &str) -> bool {
    value.bytes().all(|b| (0x20..=0x7E).contains(&b))
}

fn check(a: &Authorizer, now: u64) {
    assert_eq!(
        a.authorization_header("http://localhost:3001/mcp", now),
        None
    );
    assert_eq!(a.authorization_header("https://evil.example/", now), None);
    if let Some(h) = a.authorization_header(MCP, now) {
        assert!(h.starts_with("Bearer ") && header_safe(&h), "{h:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut chunks = text.split('\n');
    let mut config = AuthConfig::new(MCP, CB, "fuzz");
    config.client_id_metadata_document = Some("https://app.example/client.json".into());
    let mut a = Authorizer::new(config).expect("valid config");
    let mut now = 0u64;
    let first = chunks.next().unwrap_or_default();
    a.handle_challenge(401, Some(first), &[7; 48], now);
    let mut state = String::new();
    let mut waiting = None;
    loop {
        while let Some(action) = a.poll_action() {
            match action {
                Action::Fetch(f) => {
                    assert!(HttpUrl::parse(&f.url).is_some(), "{}", f.url);
                    for (_, v) in &f.headers {
                        assert!(header_safe(v), "{v:?}");
                    }
                    waiting = Some(f.id);
                }
                Action::Authorize { url } => {
                    let u = HttpUrl::parse(&url).expect("an http(s) authorization URL");
                    state = mcp_context::auth::url::query_pairs(&u)
                        .and_then(|q| q.into_iter().find(|(k, _)| k == "state"))
                        .map(|(_, v)| v)
                        .unwrap_or_default();
                    waiting = None;
                }
                Action::Retry { authorization } => {
                    assert!(header_safe(&authorization), "{authorization:?}");
                }
                Action::StoreTokens(_) | Action::Failed(_) => {}
            }
        }
        check(&a, now);
        let Some(chunk) = chunks.next() else { break };
        now += 1000;
        let (&first, rest) = match chunk.as_bytes().split_first() {
            Some(x) => x,
            None => continue,
        };
        let rest = std::str::from_utf8(rest).unwrap_or_default();
        match first {
            b'!' => {
                let status = if rest.starts_with('3') { 403 } else { 401 };
                a.handle_challenge(
                    status,
                    Some(rest.get(1..).unwrap_or_default()),
                    &[9; 48],
                    now,
                );
            }
            b'~' => {
                now += 3_600_000;
                a.start_refresh(now);
            }
            b'#' => {
                if let Some(id) = waiting.take() {
                    a.handle_fetch_failed(id, now);
                }
            }
            _ => match waiting.take() {
                Some(id) => {
                    let status = STATUSES[usize::from(first.wrapping_sub(b'0') % 10)];
                    a.handle_fetched(id, status, rest.as_bytes(), now);
                }
                None => {
                    let query = chunk.replace("STATE", &state);
                    a.handle_redirect(&format!("{CB}?{query}"), now);
                }
            },
        }
    }
});
