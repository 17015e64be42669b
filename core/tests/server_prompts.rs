//! Server machine: `prompts/get` and `completion/complete` (docs/rules.md §9, §10; checklist §16.6,
//! §16.7).

mod common;
mod server_harness;

use mcp_context::messages::owned::OwnedResourceTemplate;
use mcp_context::messages::owned::{
    OwnedAnnotations, OwnedContentBlock, OwnedGetPromptResult, OwnedPromptMessage,
    OwnedResourceContents, base64,
};
use mcp_context::messages::{Priority, Role};
use mcp_context::server::{
    CompletionTarget, Event, Failure, PromptEvent, RespondError, ServerConfig, TemplateEntry,
};
use serde_json::json;
use server_harness::*;

fn cat(tag: &str) -> H {
    H::new(tag, catalogue(ServerConfig::default()))
}

fn prompt_event(outs: &[mcp_context::server::Output]) -> PromptEvent {
    match events(outs).as_slice() {
        [Event::GetPrompt(e)] => e.clone(),
        other => panic!("expected one prompt event, got {other:?}"),
    }
}

fn get(project: &str) -> serde_json::Value {
    json!({"name": "review_note", "arguments": {"project": project, "id": "1", "tone": "brief"}})
}

#[test]
fn prompts_get_transcript_with_embedded_resource_and_image() {
    let mut h = cat("prompts-get");
    let outs = h.call(STDIO, json!(11), "prompts/get", get("acme"));
    let e = prompt_event(&outs);
    assert_eq!(e.name, "review_note");
    assert_eq!(
        e.arguments,
        [
            ("project".into(), "acme".into()),
            ("id".into(), "1".into()),
            ("tone".into(), "brief".into())
        ]
    );
    let result = OwnedGetPromptResult {
        description: Some("Review a note".into()),
        messages: vec![
            OwnedPromptMessage {
                role: Role::User,
                content: OwnedContentBlock::Text {
                    text: "Please review:".into(),
                    annotations: None,
                },
            },
            OwnedPromptMessage {
                role: Role::User,
                content: OwnedContentBlock::Resource {
                    resource: OwnedResourceContents::text(
                        "notes://acme/1",
                        Some("text/markdown"),
                        "# one",
                    ),
                    annotations: Some(OwnedAnnotations {
                        audience: vec![Role::Assistant],
                        priority: Priority::new(0.6),
                        last_modified: None,
                    }),
                },
            },
            OwnedPromptMessage {
                role: Role::Assistant,
                content: OwnedContentBlock::Image {
                    data: base64(&[0x89, b'P', b'N', b'G']),
                    mime_type: "image/png".into(),
                    annotations: None,
                },
            },
        ],
        server_info: None,
    };
    h.server.respond_prompt(e.handle, result).unwrap();
    let v = only(&h.drain());
    let r = &v["result"];
    assert_eq!(r["resultType"], "complete");
    assert_eq!(
        r["messages"][1]["content"]["resource"]["uri"],
        "notes://acme/1"
    );
    assert_eq!(r["messages"][1]["content"]["annotations"]["priority"], 0.6);
    assert_eq!(r["messages"][2]["content"]["data"], "iVBORw==");
    assert!(r.get("ttlMs").is_none(), "prompts/get is not cacheable");
}

#[test]
fn rule_36_unknown_prompt_and_missing_required_argument() {
    let mut h = cat("prompts-36");
    let v = h.ask("prompts/get", json!({"name": "nope"}));
    assert_eq!(
        (error_code(&v), v["error"]["message"].clone()),
        (-32602, json!("Unknown prompt: nope"))
    );
    let v = h.ask(
        "prompts/get",
        json!({"name": "review_note", "arguments": {"project": "acme"}}),
    );
    assert_eq!(
        (error_code(&v), v["error"]["message"].clone()),
        (-32602, json!("Missing required argument: id"))
    );
    let v = h.ask("prompts/get", json!({"name": "review_note"}));
    assert_eq!(error_code(&v), -32602);
    // The optional one may be left out.
    let outs = h.call(
        STDIO,
        json!(1),
        "prompts/get",
        json!({"name": "review_note", "arguments": {"project": "a", "id": "b"}}),
    );
    let e = prompt_event(&outs);
    h.server.fail(e.handle, Failure::NotFound).unwrap();
    assert_eq!(only(&h.drain())["error"]["message"], "Unknown prompt");
}

#[test]
fn rule_38_rule_37_argument_values_are_strings_only() {
    let mut h = cat("prompts-38");
    for args in [
        json!({"project": 1, "id": "1"}),
        json!({"project": null, "id": "1"}),
        json!(["a"]),
        json!({"project": {"x": 1}, "id": "1"}),
    ] {
        let v = h.ask(
            "prompts/get",
            json!({"name": "review_note", "arguments": args}),
        );
        assert_eq!(error_code(&v), -32602, "{args}");
    }
    assert_eq!(h.server.pending_requests(), 0);
}

#[test]
fn respond_prompt_only_answers_prompt_events() {
    let mut h = cat("prompts-kind");
    let e = prompt_event(&h.call(STDIO, json!(1), "prompts/get", get("acme")));
    assert_eq!(
        h.server.respond_read(e.handle, vec![]),
        Err(RespondError::WrongKind)
    );
    assert_eq!(error_code(&only(&h.drain())), -32603);
    let e = prompt_event(&h.call(STDIO, json!(2), "prompts/get", get("acme")));
    h.server
        .respond_prompt(e.handle, OwnedGetPromptResult::default())
        .unwrap();
    assert_eq!(only(&h.drain())["result"]["messages"], json!([]));
}

fn complete(reference: serde_json::Value, name: &str, value: &str) -> serde_json::Value {
    json!({"ref": reference, "argument": {"name": name, "value": value}})
}

#[test]
fn builtin_completion_for_prompt_arguments_and_template_variables() {
    let mut h = cat("complete-builtin");
    let v = h.ask(
        "completion/complete",
        complete(
            json!({"type": "ref/prompt", "name": "review_note"}),
            "tone",
            "b",
        ),
    );
    assert_eq!(
        v["result"]["completion"],
        json!({"values": ["brief", "blunt"], "total": 2, "hasMore": false})
    );
    let v = h.ask(
        "completion/complete",
        complete(
            json!({"type": "ref/resource", "uri": NOTE_TEMPLATE}),
            "project",
            "A",
        ),
    );
    assert_eq!(
        v["result"]["completion"]["values"],
        json!(["acme", "apollo"])
    );
    assert!(
        v["result"].get("ttlMs").is_none(),
        "completion is not cacheable"
    );
    // An argument without a value set and no completion events: an empty answer.
    let v = h.ask(
        "completion/complete",
        complete(
            json!({"type": "ref/prompt", "name": "review_note"}),
            "id",
            "1",
        ),
    );
    assert_eq!(
        v["result"]["completion"],
        json!({"values": [], "total": 0, "hasMore": false})
    );
}

#[test]
fn rule_39_at_most_100_values_with_total_and_has_more() {
    let mut h = cat("complete-39");
    let many: Vec<String> = (0..150).map(|i| format!("p{i}")).collect();
    h.server
        .add_template(TemplateEntry {
            template: OwnedResourceTemplate::new("big://{p}", "big"),
            cache: None,
            completions: vec![("p".into(), many)],
        })
        .unwrap();
    let v = h.ask(
        "completion/complete",
        complete(
            json!({"type": "ref/resource", "uri": "big://{p}"}),
            "p",
            "p",
        ),
    );
    let c = &v["result"]["completion"];
    assert_eq!(
        (
            c["values"].as_array().unwrap().len(),
            c["total"].clone(),
            c["hasMore"].clone()
        ),
        (100, json!(150), json!(true))
    );
    // The event path caps too.
    let config = ServerConfig {
        completion_events: true,
        ..ServerConfig::default()
    };
    let mut ev = H::new("complete-39-ev", catalogue(config));
    let outs = ev.call(
        STDIO,
        json!(1),
        "completion/complete",
        complete(
            json!({"type": "ref/prompt", "name": "review_note"}),
            "id",
            "",
        ),
    );
    let evs = events(&outs);
    let [Event::Complete(e)] = evs.as_slice() else {
        panic!()
    };
    ev.server
        .respond_completion(e.handle, (0..101).map(|i| i.to_string()).collect())
        .unwrap();
    let c = only(&ev.drain())["result"]["completion"].clone();
    assert_eq!(
        (c["values"].as_array().unwrap().len(), c["hasMore"].clone()),
        (100, json!(true))
    );
}

#[test]
fn completion_events_carry_the_context_arguments() {
    let config = ServerConfig {
        completion_events: true,
        ..ServerConfig::default()
    };
    let mut h = H::new("complete-event", catalogue(config));
    let mut params = complete(
        json!({"type": "ref/resource", "uri": NOTE_TEMPLATE}),
        "id",
        "4",
    );
    params["context"] = json!({"arguments": {"project": "acme"}});
    let outs = h.call(STDIO, json!(1), "completion/complete", params);
    let evs = events(&outs);
    let [Event::Complete(e)] = evs.as_slice() else {
        panic!("{outs:?}")
    };
    let CompletionTarget::Template(id) = e.target.clone() else {
        panic!()
    };
    assert_eq!(h.server.template(id), Some(NOTE_TEMPLATE));
    assert_eq!((e.argument.as_str(), e.value.as_str()), ("id", "4"));
    assert_eq!(e.context, [("project".to_string(), "acme".to_string())]);
    h.server
        .respond_completion(e.handle, vec!["42".into(), "43".into()])
        .unwrap();
    let v = only(&h.drain());
    assert_eq!(v["result"]["completion"]["values"], json!(["42", "43"]));
}

#[test]
fn completion_without_the_capability_is_32601() {
    let mut h = H::with(
        "complete-none",
        ServerConfig {
            declare_prompts: true,
            ..ServerConfig::default()
        },
    );
    let v = h.ask(
        "completion/complete",
        complete(json!({"type": "ref/prompt", "name": "x"}), "a", ""),
    );
    assert_eq!(error_code(&v), -32601);
}

#[test]
fn rule_40_completion_inputs_are_validated() {
    let mut h = cat("complete-40");
    let cases = [
        complete(json!({"type": "ref/prompt", "name": "nope"}), "tone", ""),
        complete(
            json!({"type": "ref/prompt", "name": "review_note"}),
            "mood",
            "",
        ),
        complete(
            json!({"type": "ref/resource", "uri": "notes://{x}"}),
            "x",
            "",
        ),
        complete(
            json!({"type": "ref/resource", "uri": NOTE_TEMPLATE}),
            "page",
            "",
        ),
        complete(json!({"type": "ref/other"}), "a", ""),
        json!({"ref": {"type": "ref/prompt", "name": "review_note"}}),
    ];
    for c in cases {
        assert_eq!(
            error_code(&h.ask("completion/complete", c.clone())),
            -32602,
            "{c}"
        );
    }
}
