//! The level-1 repository router (issue: reference servers, part 1), served by
//! `mcp-context-primitives-host` on an in-memory stdio connection and driven as a client would.

use mcp_context::template::{Captures, OwnedPattern, OwnedTemplate, Value};
use mcp_context_examples::repo_router::{ISSUES, TEMPLATES, app};
use mcp_context_examples::wire::Wire;
use serde_json::{Value as Json, json};

/// A router on a fresh connection.
struct RepoRouter(Wire);

impl RepoRouter {
    fn new() -> Result<Self, String> {
        let host = app().build().map_err(|e| e.to_string())?;
        Ok(Self(Wire::start(&host)))
    }
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// Sends one request and returns the one message the host answers with.
async fn exchange(router: &mut RepoRouter, method: &str, params: &str) -> Json {
    let sep = if params.is_empty() { "" } else { "," };
    let msg = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"{method}","params":{{{META}{sep}{params}}}}}"#
    );
    let out = router.0.exchange(&msg).await;
    assert_eq!(out.len(), 1, "one answer per request: {out:?}");
    let v: Json = serde_json::from_str(&out[0]).unwrap();
    assert_eq!(v["id"], 7);
    v
}

async fn read(router: &mut RepoRouter, uri: &str) -> Json {
    exchange(
        router,
        "resources/read",
        &format!(r#""uri":{}"#, json!(uri)),
    )
    .await
}

fn assert_not_found(v: &Json, uri: &str) {
    assert_eq!(v["error"]["code"], -32602, "{v}");
    assert_eq!(v["error"]["data"]["uri"], uri, "{v}");
    assert!(v.get("result").is_none(), "never an empty contents: {v}");
}

#[tokio::test]
async fn an_issue_reads_as_markdown() {
    let mut r = RepoRouter::new().unwrap();
    let v = read(&mut r, "repo://acme/web/issues/812").await;
    let c = &v["result"]["contents"][0];
    assert_eq!(c["uri"], "repo://acme/web/issues/812");
    assert_eq!(c["mimeType"], "text/markdown");
    let text = c["text"].as_str().unwrap();
    assert!(text.starts_with("# Issue 812 in acme/web\n"), "{text}");
    assert!(text.contains("Checkout button hidden"), "{text}");
    assert_eq!(v["result"]["contents"].as_array().unwrap().len(), 1);
    assert_eq!(v["result"]["ttlMs"], 60_000);
    assert_eq!(v["result"]["cacheScope"], "public");
}

#[tokio::test]
async fn a_uri_no_template_matches_is_not_found_with_its_uri() {
    let mut r = RepoRouter::new().unwrap();
    for uri in [
        "repo://acme/web/pulls/5",
        "repo://acme/web/issues",
        "repo://acme/web/issues/812/comments",
        "other://acme/web/issues/812",
    ] {
        assert_not_found(&read(&mut r, uri).await, uri);
    }
}

#[tokio::test]
async fn a_matched_uri_naming_nothing_is_not_found_too() {
    let mut r = RepoRouter::new().unwrap();
    for uri in [
        "repo://acme/web/issues/9",
        "repo://acme/web/issues/81a",
        "repo://acme/web/issues/+812",
        "repo://acme/web/issues/812/comments/0",
        "repo://acme/web/issues/812/comments/3",
        "repo://acme/api",
        "repo://acme/web%2Fissues/812",
    ] {
        assert_not_found(&read(&mut r, uri).await, uri);
    }
}

#[tokio::test]
async fn expanding_then_matching_gives_the_decoded_values_back() {
    let template = OwnedTemplate::parse(TEMPLATES[1]).unwrap();
    let vars = [
        ("owner", Value::Str("acme")),
        ("repo", Value::Str("web app")),
        ("number", Value::Str("812")),
    ];
    let uri = template.expand(&vars[..]).unwrap();
    assert_eq!(uri, "repo://acme/web%20app/issues/812");
    let pattern = OwnedPattern::parse(TEMPLATES[1]).unwrap();
    let mut caps = Captures::<4>::new();
    pattern.matches(&uri, &mut caps).unwrap();
    let got: Vec<(String, String)> = caps
        .iter()
        .map(|c| (c.name().to_string(), c.decode().unwrap().into_owned()))
        .collect();
    let want: Vec<(String, String)> = vars
        .iter()
        .map(|(n, v)| match v {
            Value::Str(s) => (n.to_string(), s.to_string()),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(got, want);
    // And the router reads it with the decoded repository name.
    let mut r = RepoRouter::new().unwrap();
    let v = read(&mut r, &uri).await;
    let text = v["result"]["contents"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("# Issue 812 in acme/web app\n"), "{text}");
}

#[tokio::test]
async fn every_issue_and_comment_round_trips_through_expand_and_the_machine() {
    let mut r = RepoRouter::new().unwrap();
    let issue = OwnedTemplate::parse(TEMPLATES[1]).unwrap();
    let comment = OwnedTemplate::parse(TEMPLATES[2]).unwrap();
    for i in ISSUES {
        let (owner, repo) = i.repo.split_once('/').unwrap();
        let number = i.number.to_string();
        let vars = [
            ("owner", Value::Str(owner)),
            ("repo", Value::Str(repo)),
            ("number", Value::Str(&number)),
        ];
        let uri = issue.expand(&vars[..]).unwrap();
        let v = read(&mut r, &uri).await;
        let text = v["result"]["contents"][0]["text"].as_str().unwrap();
        assert!(text.starts_with(&format!("# Issue {} in {}\n", i.number, i.repo)));
        assert!(text.contains(i.title));
        for (n, body) in i.comments.iter().enumerate() {
            let n = (n + 1).to_string();
            let mut cv = vars.to_vec();
            cv.push(("comment", Value::Str(&n)));
            let uri = comment.expand(&cv[..]).unwrap();
            let v = read(&mut r, &uri).await;
            let text = v["result"]["contents"][0]["text"].as_str().unwrap();
            assert!(text.contains(body), "{uri}: {text}");
        }
    }
}

#[tokio::test]
async fn the_templates_are_listed_in_order_as_markdown() {
    let mut r = RepoRouter::new().unwrap();
    let v = exchange(&mut r, "resources/templates/list", "").await;
    let listed: Vec<&str> = v["result"]["resourceTemplates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            assert_eq!(t["mimeType"], "text/markdown");
            t["uriTemplate"].as_str().unwrap()
        })
        .collect();
    assert_eq!(listed, TEMPLATES);
}
