//! Message codec: ours (zero-copy views, lazy iteration, canonical writer) against
//! serde_json into owned structs (the usual SDK approach) and into `serde_json::Value`, in the
//! same run. Decoding includes walking every item and touching its strings, since our views
//! are lazy; encoding writes into a reused buffer.
//!
//! `cargo bench -p mcp-context-benches --bench messages -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_context::json::to_slice;
use mcp_context::jsonrpc::OwnedRequestId;
use mcp_context::messages::owned::{
    OwnedAnnotations, OwnedContentBlock, OwnedGetPromptResult, OwnedImplementation,
    OwnedListResourcesResult, OwnedListResult, OwnedPromptMessage, OwnedReadResourceResult,
    OwnedResource, OwnedResourceContents, OwnedResponse,
};
use mcp_context::messages::{
    self as m, CacheScope, ContentBlock, Outcome, Priority, ResourceContents, Role,
};
use serde::{Deserialize, Serialize};

mod s {
    //! The serde model: what a typical Rust MCP SDK declares.
    use serde::{Deserialize, Serialize};
    use serde_json::Value;

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    pub(crate) enum Id {
        Int(i64),
        Str(String),
    }
    #[derive(Serialize, Deserialize)]
    pub(crate) struct Request<P> {
        pub(crate) jsonrpc: String,
        pub(crate) id: Id,
        pub(crate) method: String,
        pub(crate) params: P,
    }
    #[derive(Serialize, Deserialize)]
    pub(crate) struct Response<R> {
        pub(crate) jsonrpc: String,
        pub(crate) id: Id,
        pub(crate) result: R,
    }
    #[derive(Serialize, Deserialize)]
    pub(crate) struct Implementation {
        pub(crate) name: String,
        pub(crate) version: String,
    }
    #[derive(Serialize, Deserialize)]
    pub(crate) struct RequestMeta {
        #[serde(rename = "io.modelcontextprotocol/protocolVersion")]
        pub(crate) protocol_version: String,
        #[serde(rename = "io.modelcontextprotocol/clientCapabilities")]
        pub(crate) client_capabilities: Value,
        #[serde(
            rename = "io.modelcontextprotocol/clientInfo",
            skip_serializing_if = "Option::is_none"
        )]
        pub(crate) client_info: Option<Implementation>,
    }
    #[derive(Serialize, Deserialize)]
    pub(crate) struct ReadParams {
        #[serde(rename = "_meta")]
        pub(crate) meta: RequestMeta,
        pub(crate) uri: String,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct Contents {
        pub(crate) uri: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) mime_type: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) text: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) blob: Option<String>,
    }
    #[derive(Serialize, Deserialize)]
    pub(crate) struct ResultMeta {
        #[serde(
            rename = "io.modelcontextprotocol/serverInfo",
            skip_serializing_if = "Option::is_none"
        )]
        pub(crate) server_info: Option<Implementation>,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct ReadResult {
        pub(crate) result_type: String,
        pub(crate) contents: Vec<Contents>,
        pub(crate) ttl_ms: u64,
        pub(crate) cache_scope: String,
        #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
        pub(crate) meta: Option<ResultMeta>,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct Annotations {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) audience: Option<Vec<String>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) priority: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) last_modified: Option<String>,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub(crate) enum ContentBlock {
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
    pub(crate) struct PromptMessage {
        pub(crate) role: String,
        pub(crate) content: ContentBlock,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct GetPromptResult {
        pub(crate) result_type: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) description: Option<String>,
        pub(crate) messages: Vec<PromptMessage>,
        #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
        pub(crate) meta: Option<ResultMeta>,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct Resource {
        pub(crate) uri: String,
        pub(crate) name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) title: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) description: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) mime_type: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) size: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) annotations: Option<Annotations>,
    }
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub(crate) struct ListResourcesResult {
        pub(crate) result_type: String,
        pub(crate) resources: Vec<Resource>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub(crate) next_cursor: Option<String>,
        pub(crate) ttl_ms: u64,
        pub(crate) cache_scope: String,
    }
}

const READ_REQUEST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}},"uri":"file:///project/src/main.rs"}}"#;

fn server_info() -> Option<OwnedImplementation> {
    Some(OwnedImplementation::new("ExampleServer", "1.0.0"))
}

fn source_text(lines: usize) -> String {
    (0..lines)
        .map(|i| format!("    let value_{i} = compute(\"item {i}\", {i});\n"))
        .collect()
}

fn read_result() -> OwnedResponse<OwnedReadResourceResult> {
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

fn prompt_result() -> OwnedResponse<OwnedGetPromptResult> {
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

fn list_result() -> OwnedResponse<OwnedListResourcesResult> {
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

fn ours_read_request(b: &[u8]) -> usize {
    let r = m::ReadResourceRequest::decode(b).unwrap();
    let mut scratch = [0u8; 256];
    r.params.uri.unescape_into(&mut scratch).unwrap().len() + r.params.meta.protocol_version.len()
}

fn ours_read_result(b: &[u8], scratch: &mut [u8]) -> usize {
    let r = m::ReadResourceResultResponse::decode(b).unwrap();
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

fn ours_prompt_result(b: &[u8], scratch: &mut [u8]) -> usize {
    let r = m::GetPromptResultResponse::decode(b).unwrap();
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

fn ours_list_result(b: &[u8]) -> usize {
    let r = m::ListResourcesResultResponse::decode(b).unwrap();
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

fn bench_case<S: Serialize + for<'de> Deserialize<'de>>(
    c: &mut Criterion,
    name: &str,
    json: &[u8],
    ours_decode: &dyn Fn(&[u8], &mut [u8]) -> usize,
    ours_encode: &dyn Fn(&mut [u8]) -> usize,
) {
    let mut scratch = vec![0u8; 1 << 16];
    let mut group = c.benchmark_group(name);
    group.throughput(criterion::Throughput::Bytes(json.len() as u64));
    group.bench_function("decode/ours", |b| {
        b.iter(|| ours_decode(black_box(json), &mut scratch))
    });
    group.bench_function("decode/serde_owned", |b| {
        b.iter(|| serde_json::from_slice::<S>(black_box(json)).unwrap())
    });
    group.bench_function("decode/serde_value", |b| {
        b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(json)).unwrap())
    });
    let mut buf = vec![0u8; json.len() * 2 + 1024];
    group.bench_function("encode/ours", |b| {
        b.iter(|| ours_encode(black_box(&mut buf)))
    });
    let owned: S = serde_json::from_slice(json).unwrap();
    let value: serde_json::Value = serde_json::from_slice(json).unwrap();
    let mut out = Vec::with_capacity(json.len() * 2);
    group.bench_function("encode/serde_owned", |b| {
        b.iter(|| {
            out.clear();
            serde_json::to_writer(&mut out, black_box(&owned)).unwrap();
            out.len()
        })
    });
    group.bench_function("encode/serde_value", |b| {
        b.iter(|| {
            out.clear();
            serde_json::to_writer(&mut out, black_box(&value)).unwrap();
            out.len()
        })
    });
    group.finish();
}

fn messages(c: &mut Criterion) {
    let req = READ_REQUEST.as_bytes();
    let decoded = m::ReadResourceRequest::decode(req).unwrap();
    bench_case::<s::Request<s::ReadParams>>(
        c,
        "read_request",
        req,
        &|b, _| ours_read_request(b),
        &|buf| to_slice(&decoded, buf).unwrap(),
    );

    let read = read_result();
    let read_json = mcp_context::json::to_string(&read).unwrap();
    bench_case::<s::Response<s::ReadResult>>(
        c,
        "read_result",
        read_json.as_bytes(),
        &ours_read_result,
        &|buf| to_slice(&read, buf).unwrap(),
    );

    let prompt = prompt_result();
    let prompt_json = mcp_context::json::to_string(&prompt).unwrap();
    bench_case::<s::Response<s::GetPromptResult>>(
        c,
        "prompt_get_result_embedded",
        prompt_json.as_bytes(),
        &ours_prompt_result,
        &|buf| to_slice(&prompt, buf).unwrap(),
    );

    let list = list_result();
    let list_json = mcp_context::json::to_string(&list).unwrap();
    bench_case::<s::Response<s::ListResourcesResult>>(
        c,
        "resources_list_100",
        list_json.as_bytes(),
        &|b, _| ours_list_result(b),
        &|buf| to_slice(&list, buf).unwrap(),
    );
}

criterion_group!(benches, messages);
criterion_main!(benches);
