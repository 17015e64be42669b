//! Server machine: the §16 rules that hold for every message, checked over one transcript
//! that exercises every method, error path and notification (the harness also checks each
//! transmit as it is produced).

mod common;
mod server_harness;

use mcp_context::jsonrpc::Method;
use mcp_context::messages::owned::{
    OwnedAnnotations, OwnedContentBlock, OwnedGetPromptResult, OwnedInputRequest,
    OwnedPromptMessage, OwnedResourceContents,
};
use mcp_context::messages::{Priority, Role};
use mcp_context::server::{Event, InputRequired, SealingKey, ServerConfig};
use serde_json::{Value, json};
use server_harness::*;

/// Every message the server sends for a broad transcript.
fn transcript() -> Vec<Value> {
    let config = ServerConfig {
        state_keys: vec![SealingKey {
            id: 1,
            secret: vec![9; 32],
        }],
        completion_events: true,
        page_size: 2,
        ..ServerConfig::default()
    };
    let mut h = H::new("rules", catalogue(config));
    let mut out = Vec::new();
    let caps = json!({"elicitation": {}, "roots": {}, "sampling": {}});
    let reqs = [
        ("server/discover", json!({})),
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        ("prompts/list", json!({})),
        ("resources/read", json!({"uri": "test://static-text"})),
        ("resources/read", json!({"uri": "test://static-binary"})),
        (
            "resources/read",
            json!({"uri": "notes://acme/1", "_meta": meta_with(caps.clone())}),
        ),
        ("resources/read", json!({"uri": "notes://nope"})),
        (
            "prompts/get",
            json!({"name": "review_note", "arguments": {"project": "a", "id": "1"}, "_meta": meta_with(caps)}),
        ),
        ("prompts/get", json!({"name": "review_note"})),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "review_note"}, "argument": {"name": "tone", "value": ""}}),
        ),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "review_note"}, "argument": {"name": "id", "value": ""}}),
        ),
        (
            "subscriptions/listen",
            json!({"notifications": {"resourcesListChanged": true, "promptsListChanged": true, "toolsListChanged": true, "resourceSubscriptions": ["notes://acme"]}}),
        ),
        ("ping", json!({})),
        ("tools/list", json!({})),
    ];
    for (i, (method, params)) in reqs.into_iter().enumerate() {
        let outs = h.call(STDIO, json!(i), method, params);
        for e in events(&outs) {
            match e {
                Event::ReadResource(e) => {
                    let elicit = OwnedInputRequest {
                        method: Method::ElicitationCreate,
                        params: Some(mcp_context::messages::owned::OwnedJson::parse(
                            r#"{"message":"ok?","requestedSchema":{"type":"object","properties":{}}}"#,
                        ).unwrap()),
                    };
                    let input = InputRequired {
                        requests: vec![("e".into(), elicit)],
                        state: Some(vec![1]),
                    };
                    h.server.respond_input_required(e.handle, input).unwrap();
                }
                Event::GetPrompt(e) => {
                    let result = OwnedGetPromptResult {
                        description: None,
                        messages: vec![
                            OwnedPromptMessage {
                                role: Role::User,
                                content: OwnedContentBlock::Audio {
                                    data: mcp_context::messages::owned::base64(b"RIFF"),
                                    mime_type: "audio/wav".into(),
                                    annotations: Some(OwnedAnnotations {
                                        audience: vec![Role::User, Role::Assistant],
                                        priority: Priority::new(1.0),
                                        last_modified: Some("2025-01-12T15:00:58Z".into()),
                                    }),
                                },
                            },
                            OwnedPromptMessage {
                                role: Role::Assistant,
                                content: OwnedContentBlock::Resource {
                                    resource: OwnedResourceContents::blob(
                                        "notes://acme/1",
                                        Some("image/png"),
                                        &[1, 2, 3],
                                    ),
                                    annotations: None,
                                },
                            },
                        ],
                        server_info: None,
                    };
                    h.server.respond_prompt(e.handle, result).unwrap();
                }
                Event::Complete(e) => h
                    .server
                    .respond_completion(e.handle, vec!["1".into()])
                    .unwrap(),
                _ => {}
            }
        }
        out.extend(transmits(&outs).iter().map(json_of));
        out.extend(transmits(&h.drain()).iter().map(json_of));
    }
    h.server.resource_updated("notes://acme/2");
    h.server.resources_list_changed();
    h.server.prompts_list_changed();
    h.server.shutdown();
    out.extend(transmits(&h.drain()).iter().map(json_of));
    out
}

#[test]
fn rule_6_every_result_carries_result_type() {
    let all = transcript();
    let results: Vec<&Value> = all.iter().filter_map(|m| m.get("result")).collect();
    assert!(results.len() > 10);
    for r in results {
        assert!(
            matches!(
                r["resultType"].as_str(),
                Some("complete" | "input_required")
            ),
            "{r}"
        );
    }
}

#[test]
fn rule_9_never_legacy_or_undefined_reserved_codes() {
    for m in transcript() {
        if let Some(code) = m["error"]["code"].as_i64() {
            assert!(code != -32002 && code != -32042);
            assert!(!(-32099..=-32023).contains(&code), "{code}");
            assert!(!(-32019..=-32000).contains(&code), "legacy range {code}");
        }
    }
}

#[test]
fn rule_13_never_sends_requests() {
    for m in transcript() {
        assert!(!(m.get("method").is_some() && m.get("id").is_some()), "{m}");
    }
}

#[test]
fn rule_23_no_cache_hints_on_input_required() {
    let all = transcript();
    let ir: Vec<&Value> = all
        .iter()
        .filter(|m| m["result"]["resultType"] == "input_required")
        .collect();
    assert_eq!(ir.len(), 1);
    assert!(ir[0]["result"].get("ttlMs").is_none() && ir[0]["result"].get("cacheScope").is_none());
}

#[test]
fn rule_53_rule_54_no_progress_or_log_notifications() {
    for m in transcript() {
        let method = m["method"].as_str().unwrap_or("");
        assert!(
            method != "notifications/progress" && method != "notifications/message",
            "{m}"
        );
    }
}

#[test]
fn rule_35_rule_41_rule_42_shapes_annotations_and_media() {
    let all = transcript();
    // Every list item and contents item has its required fields; one of text/blob.
    for m in &all {
        let r = &m["result"];
        for c in r["contents"].as_array().into_iter().flatten() {
            assert!(c["uri"].is_string());
            assert!(c.get("text").is_some() != c.get("blob").is_some());
        }
        for item in r["resources"].as_array().into_iter().flatten() {
            assert!(item["uri"].is_string() && item["name"].is_string());
        }
        for t in r["resourceTemplates"].as_array().into_iter().flatten() {
            assert!(t["uriTemplate"].is_string() && t["name"].is_string());
        }
    }
    let prompt = all
        .iter()
        .find(|m| m["result"]["messages"].is_array())
        .unwrap();
    let audio = &prompt["result"]["messages"][0]["content"];
    assert_eq!(
        (
            audio["type"].clone(),
            audio["data"].clone(),
            audio["mimeType"].clone()
        ),
        (json!("audio"), json!("UklGRg=="), json!("audio/wav"))
    );
    assert_eq!(audio["annotations"]["priority"], 1);
    assert_eq!(
        audio["annotations"]["audience"],
        json!(["user", "assistant"])
    );
    let embedded = &prompt["result"]["messages"][1]["content"]["resource"];
    assert_eq!(
        (embedded["blob"].clone(), embedded["mimeType"].clone()),
        (json!("AQID"), json!("image/png"))
    );
    assert!(Priority::new(1.5).is_none() && Priority::new(-0.1).is_none());
}

#[test]
fn rule_46_the_server_never_waits_for_a_retry() {
    let all = transcript();
    assert!(
        all.iter()
            .any(|m| m["result"]["resultType"] == "input_required")
    );
    // The transcript ends with every request answered and nothing pending: shutdown's
    // listen result is the last message.
    let last = all.last().unwrap();
    assert!(last["method"] == "notifications/cancelled" || last["result"]["_meta"].is_object());
}
