//! The message cases shared by `messages` (criterion) and `messages_quiet`: the serde model a
//! typical Rust MCP SDK declares, the five messages, and our decode/encode of each.
#![allow(dead_code, unreachable_pub)]

use mcp_context::jsonrpc::OwnedRequestId;
use mcp_context::messages::owned::{
    OwnedAnnotations, OwnedContentBlock, OwnedGetPromptResult, OwnedImplementation,
    OwnedListResourcesResult, OwnedListResult, OwnedPromptMessage, OwnedReadResourceResult,
    OwnedResource, OwnedResourceContents, OwnedResponse,
};
use mcp_context::messages::{
    self as m, CacheScope, ContentBlock, Outcome, Priority, ResourceContents, Role,
};

pub mod s {
    //! The serde model: what a typical Rust MCP SDK declares.
    use serde::{Deserialize, Serialize};
    use serde_json::Value;

    #[derive(Serialize, Deserialize)]
    pub struct Notification<P> {
        pub jsonrpc: String,
        pub method: String,
        pub params: P,
    }
    #[derive(Serialize, Deserialize)]
    pub struct NotificationMeta {
        #[serde(rename = "io.modelcontextprotocol/subscriptionId")]
        pub subscription_id: Id,
    }
    #[derive(Serialize, Deserialize)]
    pub struct UpdatedParams {
        #[serde(rename = "_meta")]
        pub meta: NotificationMeta,
        pub uri: String,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    pub enum Id {
        Int(i64),
        Str(String),
    }
    #[derive(Serialize, Deserialize)]
    pub struct Request<P> {
        pub jsonrpc: String,
        pub id: Id,
        pub method: String,
        pub params: P,
    }
    #[derive(Serialize, Deserialize)]
    pub struct Response<R> {
        pub jsonrpc: String,
        pub id: Id,
        pub result: R,
    }
    #[derive(Serialize, Deserialize)]
    pub struct Implementation {
        pub name: String,
        pub version: String,
    }
    #[derive(Serialize, Deserialize)]
    pub struct RequestMeta {
        #[serde(rename = "io.modelcontextprotocol/protocolVersion")]
        pub protocol_version: String,
        #[serde(rename = "io.modelcontextprotocol/clientCapabilities")]
        pub client_capabilities: Value,
        #[serde(
            rename = "io.modelcontextprotocol/clientInfo",
            skip_serializing_if = "Option::is_none"
        )]
        pub client_info: Option<Implementation>,
    }
    #[derive(Serialize, Deserialize)]
    pub struct ReadParams {
        #[serde(rename = "_meta")]
        pub meta: RequestMeta,
        pub uri: String,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct Contents {
        pub uri: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub mime_type: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub text: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub blob: Option<String>,
    }
    #[derive(Serialize, Deserialize)]
    pub struct ResultMeta {
        #[serde(
            rename = "io.modelcontextprotocol/serverInfo",
            skip_serializing_if = "Option::is_none"
        )]
        pub server_info: Option<Implementation>,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct ReadResult {
        pub result_type: String,
        pub contents: Vec<Contents>,
        pub ttl_ms: u64,
        pub cache_scope: String,
        #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
        pub meta: Option<ResultMeta>,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct Annotations {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub audience: Option<Vec<String>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub priority: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub last_modified: Option<String>,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum ContentBlock {
        Text {
            text: String,
            #[serde(skip_serializing_if = "Option::is_none")]
            annotations: Option<Annotations>,
        },
        Image {
            data: String,
            #[serde(rename = "mimeType")]
            mime_type: String,
        },
        ResourceLink(Resource),
        Resource {
            resource: Contents,
            #[serde(skip_serializing_if = "Option::is_none")]
            annotations: Option<Annotations>,
        },
    }
    #[derive(Serialize, Deserialize)]
    pub struct PromptMessage {
        pub role: String,
        pub content: ContentBlock,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct GetPromptResult {
        pub result_type: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub description: Option<String>,
        pub messages: Vec<PromptMessage>,
        #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
        pub meta: Option<ResultMeta>,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct Resource {
        pub uri: String,
        pub name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub title: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub description: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub mime_type: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub size: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub annotations: Option<Annotations>,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct ListResourcesResult {
        pub result_type: String,
        pub resources: Vec<Resource>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub next_cursor: Option<String>,
        pub ttl_ms: u64,
        pub cache_scope: String,
    }
}

pub const READ_REQUEST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}},"uri":"file:///project/src/main.rs"}}"#;

pub fn server_info() -> Option<OwnedImplementation> {
    Some(OwnedImplementation::new("ExampleServer", "1.0.0"))
}

pub fn source_text(lines: usize) -> String {
    (0..lines)
        .map(|i| format!("    let value_{i} = compute(\"item {i}\", {i});\n"))
        .collect()
}

pub fn read_result() -> OwnedResponse<OwnedReadResourceResult> {
    let mut result = OwnedReadResourceResult::new(60_000, CacheScope::Private);
    result.contents.push(OwnedResourceContents::text(
        "file:///project/src/main.rs",
        Some("text/x-rust"),
        format!("fn main() {{\n{}}}\n", source_text(24)),
    ));
    result.server_info = server_info();
    OwnedResponse {
        id: OwnedRequestId::Int(2),
        result,
    }
}

pub fn prompt_result() -> OwnedResponse<OwnedGetPromptResult> {
    let ann = |p: f64| {
        Some(OwnedAnnotations {
            audience: vec![Role::Assistant],
            priority: Priority::new(p),
            last_modified: None,
        })
    };
    let messages = vec![
        OwnedPromptMessage {
            role: Role::User,
            content: OwnedContentBlock::Text {
                text: "Please review this Rust code and suggest improvements:".into(),
                annotations: None,
            },
        },
        OwnedPromptMessage {
            role: Role::User,
            content: OwnedContentBlock::Resource {
                resource: OwnedResourceContents::text(
                    "file:///project/STYLE.md",
                    Some("text/markdown"),
                    format!("# Style guide\n{}", source_text(12)),
                ),
                annotations: ann(0.6),
            },
        },
        OwnedPromptMessage {
            role: Role::Assistant,
            content: OwnedContentBlock::ResourceLink(OwnedResource {
                mime_type: Some("text/x-rust".into()),
                ..OwnedResource::new("file:///project/src/main.rs", "main.rs")
            }),
        },
    ];
    OwnedResponse {
        id: OwnedRequestId::Int(11),
        result: OwnedGetPromptResult {
            description: Some("Code review prompt".into()),
            messages,
            server_info: server_info(),
        },
    }
}

pub fn list_result() -> OwnedResponse<OwnedListResourcesResult> {
    let mut result: OwnedListResourcesResult = OwnedListResult::new(300_000, CacheScope::Public);
    for i in 0..100 {
        let mut r = OwnedResource::new(
            format!("file:///project/src/module_{i}/mod.rs"),
            format!("mod_{i}.rs"),
        );
        r.title = Some(format!("Module {i} source"));
        r.description = Some(format!(
            "Implementation of module number {i} of the project"
        ));
        r.mime_type = Some("text/x-rust".into());
        r.size = Some(1024 + i as u64 * 17);
        if i % 3 == 0 {
            r.annotations = Some(OwnedAnnotations {
                audience: vec![Role::User, Role::Assistant],
                priority: Priority::new(0.5),
                last_modified: Some("2025-01-12T15:00:58Z".into()),
            });
        }
        result.items.push(r);
    }
    result.next_cursor = Some("eyJwYWdlIjogM30=".into());
    OwnedResponse {
        id: OwnedRequestId::Int(1),
        result,
    }
}

/// One of our decoders as the benches call it: the bytes, and scratch space.
pub type Decode = dyn Fn(&[u8], &mut [u8]) -> usize;

pub fn ours_read_request(b: &[u8]) -> usize {
    let r = m::ReadResourceRequest::decode(b).unwrap();
    let mut scratch = [0u8; 256];
    r.params.uri.unescape_into(&mut scratch).unwrap().len() + r.params.meta.protocol_version.len()
}

pub fn ours_read_result(b: &[u8], scratch: &mut [u8]) -> usize {
    read_walk(m::ReadResourceResultResponse::decode(b).unwrap(), scratch)
}

/// As [`ours_read_result`] in one pass: the contents kept in slots and the text unescaped
/// into half of `scratch` while decoding (`decode_into`).
pub fn ours_read_result_into(b: &[u8], scratch: &mut [u8]) -> usize {
    let mut slots = [None; 4];
    let (text, scratch) = scratch.split_at_mut(scratch.len() / 2);
    read_walk(
        m::ReadResourceResultResponse::decode_into(b, &mut slots, text).unwrap(),
        scratch,
    )
}

fn read_walk(r: m::ReadResourceResultResponse<'_>, scratch: &mut [u8]) -> usize {
    let Outcome::Complete(r) = r.result else {
        unreachable!()
    };
    r.contents
        .iter()
        .map(|c| match c {
            ResourceContents::Text(t) => t.uri.len() + t.text.unescape_into(scratch).unwrap().len(),
            ResourceContents::Blob(b) => b.blob.len(),
        })
        .sum()
}

pub fn ours_prompt_result(b: &[u8], scratch: &mut [u8]) -> usize {
    prompt_walk(m::GetPromptResultResponse::decode(b).unwrap(), scratch)
}

/// As [`ours_prompt_result`] in one pass (as [`ours_read_result_into`]).
pub fn ours_prompt_result_into(b: &[u8], scratch: &mut [u8]) -> usize {
    let mut slots = [None; 8];
    let (text, scratch) = scratch.split_at_mut(scratch.len() / 2);
    prompt_walk(
        m::GetPromptResultResponse::decode_into(b, &mut slots, text).unwrap(),
        scratch,
    )
}

fn prompt_walk(r: m::GetPromptResultResponse<'_>, scratch: &mut [u8]) -> usize {
    let Outcome::Complete(r) = r.result else {
        unreachable!()
    };
    r.messages
        .iter()
        .map(|msg| match msg.content {
            ContentBlock::Text(t) => t.text.unescape_into(scratch).unwrap().len(),
            ContentBlock::Resource(e) => match e.resource {
                ResourceContents::Text(t) => {
                    t.uri.len() + t.text.unescape_into(scratch).unwrap().len()
                }
                ResourceContents::Blob(b) => b.blob.len(),
            },
            ContentBlock::ResourceLink(l) => l.uri.len() + l.name.len(),
            ContentBlock::Image(i) | ContentBlock::Audio(i) => i.data.len(),
        })
        .sum()
}

pub fn ours_list_result(b: &[u8]) -> usize {
    list_walk(m::ListResourcesResultResponse::decode(b).unwrap())
}

/// As [`ours_list_result`] in one pass: the resources kept in slots and strings with
/// escapes unescaped into `text` while decoding (`decode_into`).
pub fn ours_list_result_into(b: &[u8], text: &mut [u8]) -> usize {
    let mut slots = [None; 128];
    list_walk(m::ListResourcesResultResponse::decode_into(b, &mut slots, text).unwrap())
}

fn list_walk(r: m::ListResourcesResultResponse<'_>) -> usize {
    r.result
        .items
        .iter()
        .map(|r| {
            r.uri.len()
                + r.name.len()
                + r.title.map_or(0, |t| t.len())
                + r.description.map_or(0, |d| d.len())
        })
        .sum()
}

/// The fan-out case: one `notifications/resources/updated` for this many subscriptions.
pub const FAN_OUT: usize = 100;
pub const UPDATED_URI: &str = "file:///project/src/module_42/mod.rs";

/// The subscription ids of the fan-out (listen request ids).
pub fn subscription_id(k: usize) -> i64 {
    1000 + k as i64
}

/// One subscription's copy, as received by a client (id of subscription 0).
pub fn updated_json() -> String {
    mcp_context::json::to_string(&m::ResourceUpdatedNotification {
        params: m::ResourceUpdatedParams {
            meta: Some(m::NotificationMeta::subscription(
                mcp_context::jsonrpc::RequestId::Int(subscription_id(0)),
            )),
            uri: mcp_context::json::JsonStr::new(UPDATED_URI),
        },
    })
    .unwrap()
}

pub fn ours_updated(b: &[u8]) -> usize {
    let n = m::ResourceUpdatedNotification::decode(b).unwrap();
    n.params.uri.len() + usize::from(n.params.meta.and_then(|m| m.subscription_id).is_some())
}

/// Ours: encode once, then one copy per subscription into `out` (as a transport would send
/// each in turn). Returns the bytes written.
pub fn ours_fan_out(buf: &mut [u8]) -> usize {
    let (once, out) = buf.split_at_mut(512);
    let fan =
        m::ResourceUpdatedFanOut::new(mcp_context::json::JsonStr::new(UPDATED_URI), once).unwrap();
    (0..FAN_OUT)
        .map(|k| {
            fan.to_slice(
                mcp_context::jsonrpc::RequestId::Int(subscription_id(k)),
                &mut *out,
            )
            .unwrap()
        })
        .sum()
}

/// serde_json: the owned notification serialised for each subscription.
pub fn serde_fan_out(n: &mut s::Notification<s::UpdatedParams>, out: &mut Vec<u8>) -> usize {
    (0..FAN_OUT)
        .map(|k| {
            n.params.meta.subscription_id = s::Id::Int(subscription_id(k));
            out.clear();
            serde_json::to_writer(&mut *out, &*n).unwrap();
            out.len()
        })
        .sum()
}
