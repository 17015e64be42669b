//! Feature `serde`: every official example of the 2026-07-28 schema
//! (tests/vectors/mcp/2026-07-28/examples) decodes with serde_json into the owned type its
//! folder names and re-encodes to JSON equal as a value. Folders with no owned type (requests,
//! tools, sampling and elicitation schemas, bare error objects, params) go through
//! `OwnedJson`, the pass-through value.
//!
//! Run with `cargo test -p mcp-context-primitives --features serde --test serde_examples`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_context::messages::owned::{
    OwnedAcknowledged, OwnedCancelled, OwnedCompleteResult, OwnedContentBlock, OwnedDiscoverResult,
    OwnedErrorResponse, OwnedGetPromptResult, OwnedInputRequest, OwnedInputRequiredResult,
    OwnedJson, OwnedListChanged, OwnedListPromptsResult, OwnedListResourceTemplatesResult,
    OwnedListResourcesResult, OwnedListenResult, OwnedReadResourceResult, OwnedResource,
    OwnedResourceContents, OwnedResourceUpdated, OwnedResponse, OwnedServerCapabilities,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

type Check = fn(&Value) -> Result<Value, String>;

/// Official examples that break the schema they illustrate: `schema.json` requires `ttlMs`
/// and `cacheScope` on every `ReadResourceResult`, and this one has neither. The owned
/// types (what a server emits) refuse it, naming the field; it passes through `OwnedJson`.
const SCHEMA_INVALID: &[(&str, &str)] = &[(
    "ReadResourceResultResponse/read-resource-result-response.json",
    "ttlMs",
)];

/// serde_json value → ours → serde_json value.
fn through<T: DeserializeOwned + Serialize>(v: &Value) -> Result<Value, String> {
    let ours: T = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
    serde_json::to_value(&ours).map_err(|e| e.to_string())
}

/// The owned type of a folder, or `None` for the pass-through.
fn typed(folder: &str) -> Option<Check> {
    Some(match folder {
        "DiscoverResult" => through::<OwnedDiscoverResult>,
        "DiscoverResultResponse" => through::<OwnedResponse<OwnedDiscoverResult>>,
        "ListResourcesResult" => through::<OwnedListResourcesResult>,
        "ListResourcesResultResponse" => through::<OwnedResponse<OwnedListResourcesResult>>,
        "ListResourceTemplatesResult" => through::<OwnedListResourceTemplatesResult>,
        "ListResourceTemplatesResultResponse" => {
            through::<OwnedResponse<OwnedListResourceTemplatesResult>>
        }
        "ListPromptsResult" => through::<OwnedListPromptsResult>,
        "ListPromptsResultResponse" => through::<OwnedResponse<OwnedListPromptsResult>>,
        "ReadResourceResult" => through::<OwnedReadResourceResult>,
        "ReadResourceResultResponse" => through::<OwnedResponse<OwnedReadResourceResult>>,
        "GetPromptResult" => through::<OwnedGetPromptResult>,
        "GetPromptResultResponse" => through::<OwnedResponse<OwnedGetPromptResult>>,
        "CompleteResult" => through::<OwnedCompleteResult>,
        "CompleteResultResponse" => through::<OwnedResponse<OwnedCompleteResult>>,
        "SubscriptionsListenResult" => through::<OwnedListenResult>,
        "SubscriptionsListenResultResponse" => through::<OwnedResponse<OwnedListenResult>>,
        "InputRequiredResult" => through::<OwnedInputRequiredResult>,
        "InputRequests" => through::<BTreeMap<String, OwnedInputRequest>>,
        "ElicitRequest" | "CreateMessageRequest" => through::<OwnedInputRequest>,
        "ServerCapabilities" => through::<OwnedServerCapabilities>,
        "Resource" => through::<OwnedResource>,
        "TextContent" | "ImageContent" | "AudioContent" | "ResourceLink" | "EmbeddedResource" => {
            through::<OwnedContentBlock>
        }
        "TextResourceContents" | "BlobResourceContents" => through::<OwnedResourceContents>,
        "ResourceListChangedNotification"
        | "PromptListChangedNotification"
        | "ToolListChangedNotification" => through::<OwnedListChanged>,
        "ResourceUpdatedNotification" => through::<OwnedResourceUpdated>,
        "SubscriptionsAcknowledgedNotification" => through::<OwnedAcknowledged>,
        "CancelledNotification" => through::<OwnedCancelled>,
        "HeaderMismatchError"
        | "MissingRequiredClientCapabilityError"
        | "UnsupportedProtocolVersionError" => through::<OwnedErrorResponse>,
        _ => return None,
    })
}

fn sorted(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

#[test]
fn every_official_example_round_trips_through_serde() {
    let root =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/mcp/2026-07-28/examples");
    let (mut typed_n, mut raw_n, mut failures) = (0, 0, Vec::new());
    for folder in sorted(&root).into_iter().filter(|p| p.is_dir()) {
        let name = folder.file_name().unwrap().to_str().unwrap().to_owned();
        let check = typed(&name);
        for file in sorted(&folder) {
            let v: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
            let rel = format!("{name}/{}", file.file_name().unwrap().to_str().unwrap());
            if let Some((_, field)) = SCHEMA_INVALID.iter().find(|(f, _)| *f == rel) {
                match check.map(|f| f(&v)) {
                    Some(Err(e)) if e.contains(field) => {}
                    other => failures.push(format!(
                        "{rel}: expected a refusal naming {field}: {other:?}"
                    )),
                }
            }
            let check = check.filter(|_| !SCHEMA_INVALID.iter().any(|(f, _)| *f == rel));
            let out = match check {
                Some(f) => f(&v),
                None => through::<OwnedJson>(&v),
            };
            match out {
                Ok(back) if back == v => {
                    if check.is_some() {
                        typed_n += 1;
                    } else {
                        raw_n += 1;
                    }
                }
                Ok(back) => failures.push(format!("{}: re-encoded {back}", file.display())),
                Err(e) => failures.push(format!("{}: {e}", file.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("serde: {typed_n} examples through owned types, {raw_n} through OwnedJson");
    assert_eq!(typed_n + raw_n, 129);
    assert_eq!(typed_n, 50, "examples decoded into owned types");
}

#[test]
fn serde_refuses_what_the_schema_refuses() {
    // A resource without `name`, contents with both `text` and `blob`, a bad cacheScope.
    let bad = [
        serde_json::from_str::<OwnedResource>(r#"{"uri":"file:///a"}"#).is_err(),
        serde_json::from_str::<OwnedResourceContents>(r#"{"uri":"a:1","text":"x","blob":"AA=="}"#)
            .is_err(),
        serde_json::from_str::<OwnedReadResourceResult>(
            r#"{"contents":[],"ttlMs":1,"cacheScope":"shared"}"#,
        )
        .is_err(),
        serde_json::from_str::<OwnedJson>("[1, NaN]").is_err(),
    ];
    assert_eq!(bad, [true; 4]);
    // The error names the field.
    let e = serde_json::from_str::<OwnedResource>(r#"{"uri":"file:///a","name":3}"#).unwrap_err();
    assert!(e.to_string().contains("name"), "{e}");
}

#[test]
fn owned_types_mix_with_serde_derived_structs() {
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Row {
        id: u32,
        resource: OwnedResource,
        extra: OwnedJson,
    }
    let row = Row {
        id: 7,
        resource: OwnedResource::new("notes://1", "n\u{e9}\n\"1\""),
        extra: OwnedJson::parse(r#"{"a":[1,2.5,null,true]}"#).unwrap(),
    };
    let text = serde_json::to_string(&row).unwrap();
    assert_eq!(serde_json::from_str::<Row>(&text).unwrap(), row);
}
