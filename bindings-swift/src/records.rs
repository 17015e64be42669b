//! Plain records for the simple structured inputs and outputs of the machines: resources,
//! templates, prompts, contents, subscription filters, cache hints, `serverInfo`. Each
//! converts field by field to and from the core's owned builder; richer shapes (annotations,
//! icons, `_meta`, prompt messages) are accepted as JSON text in the spec's wire shape.

use std::collections::HashMap;

use mcp_context::messages::CacheScope as CoreScope;
use mcp_context::messages::owned::{
    OwnedImplementation, OwnedPrompt, OwnedPromptArgument, OwnedResource, OwnedResourceContents,
    OwnedResourceTemplate, OwnedSubscriptionFilter,
};
use mcp_context::server::CacheHint as CoreHint;

/// `cacheScope` (docs/rules.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum CacheScope {
    /// `"public"`: may be served to any authorization context.
    Public,
    /// `"private"`: only to the context that fetched it.
    Private,
}

impl From<CacheScope> for CoreScope {
    fn from(s: CacheScope) -> Self {
        match s {
            CacheScope::Public => Self::Public,
            CacheScope::Private => Self::Private,
        }
    }
}

impl From<CoreScope> for CacheScope {
    fn from(s: CoreScope) -> Self {
        match s {
            CoreScope::Public => Self::Public,
            CoreScope::Private => Self::Private,
        }
    }
}

/// Caching hints a server puts on a cacheable result (docs/rules.md §4): `ttlMs`, `cacheScope`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Record)]
pub struct CacheHint {
    /// `ttlMs` (0 = immediately stale).
    pub ttl_ms: u64,
    /// `cacheScope`.
    pub scope: CacheScope,
}

impl From<CacheHint> for CoreHint {
    fn from(h: CacheHint) -> Self {
        Self {
            ttl_ms: h.ttl_ms,
            scope: h.scope.into(),
        }
    }
}

impl From<CoreHint> for CacheHint {
    fn from(h: CoreHint) -> Self {
        Self {
            ttl_ms: h.ttl_ms,
            scope: h.scope.into(),
        }
    }
}

/// `Implementation` (`serverInfo` / `clientInfo`), without icons.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Implementation {
    /// `name`
    pub name: String,
    /// `version`
    pub version: String,
    /// `title`
    #[uniffi(default = None)]
    pub title: Option<String>,
    /// `description`
    #[uniffi(default = None)]
    pub description: Option<String>,
    /// `websiteUrl`
    #[uniffi(default = None)]
    pub website_url: Option<String>,
}

impl From<Implementation> for OwnedImplementation {
    fn from(i: Implementation) -> Self {
        Self {
            title: i.title,
            description: i.description,
            website_url: i.website_url,
            ..Self::new(i.name, i.version)
        }
    }
}

impl From<OwnedImplementation> for Implementation {
    fn from(i: OwnedImplementation) -> Self {
        Self {
            name: i.name,
            version: i.version,
            title: i.title,
            description: i.description,
            website_url: i.website_url,
        }
    }
}

/// A `resources/list` entry (docs/rules.md §5) with its common fields; annotations, icons and
/// `_meta` go through the JSON-text registration.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Resource {
    /// `uri`
    pub uri: String,
    /// `name`
    pub name: String,
    /// `title`
    #[uniffi(default = None)]
    pub title: Option<String>,
    /// `description`
    #[uniffi(default = None)]
    pub description: Option<String>,
    /// `mimeType`
    #[uniffi(default = None)]
    pub mime_type: Option<String>,
    /// `size` in bytes (before any base64).
    #[uniffi(default = None)]
    pub size: Option<u64>,
}

impl From<Resource> for OwnedResource {
    fn from(r: Resource) -> Self {
        Self {
            title: r.title,
            description: r.description,
            mime_type: r.mime_type,
            size: r.size,
            ..Self::new(r.uri, r.name)
        }
    }
}

/// A `resources/templates/list` entry (docs/rules.md §6) with its common fields.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct ResourceTemplate {
    /// `uriTemplate` (RFC 6570).
    pub uri_template: String,
    /// `name`
    pub name: String,
    /// `title`
    #[uniffi(default = None)]
    pub title: Option<String>,
    /// `description`
    #[uniffi(default = None)]
    pub description: Option<String>,
    /// `mimeType`
    #[uniffi(default = None)]
    pub mime_type: Option<String>,
}

impl From<ResourceTemplate> for OwnedResourceTemplate {
    fn from(t: ResourceTemplate) -> Self {
        Self {
            title: t.title,
            description: t.description,
            mime_type: t.mime_type,
            ..Self::new(t.uri_template, t.name)
        }
    }
}

/// One declared prompt argument (docs/rules.md §9).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct PromptArgument {
    /// `name`
    pub name: String,
    /// `title`
    #[uniffi(default = None)]
    pub title: Option<String>,
    /// `description`
    #[uniffi(default = None)]
    pub description: Option<String>,
    /// `required` (`prompts/get` without it is -32602).
    pub required: bool,
}

/// A `prompts/list` entry (docs/rules.md §9) with its common fields.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Prompt {
    /// `name`
    pub name: String,
    /// `title`
    #[uniffi(default = None)]
    pub title: Option<String>,
    /// `description`
    #[uniffi(default = None)]
    pub description: Option<String>,
    /// `arguments`
    pub arguments: Vec<PromptArgument>,
}

impl From<Prompt> for OwnedPrompt {
    fn from(p: Prompt) -> Self {
        Self {
            name: p.name,
            title: p.title,
            description: p.description,
            arguments: p
                .arguments
                .into_iter()
                .map(|a| OwnedPromptArgument {
                    name: a.name,
                    title: a.title,
                    description: a.description,
                    required: Some(a.required),
                })
                .collect(),
            ..Self::default()
        }
    }
}

/// Contents of a resource (docs/rules.md §7): text, or bytes (sent base64-encoded as `blob`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum ResourceContents {
    /// `TextResourceContents`.
    Text {
        /// `uri`
        uri: String,
        /// `mimeType`
        mime_type: Option<String>,
        /// `text`
        text: String,
    },
    /// `BlobResourceContents`, from raw bytes.
    Blob {
        /// `uri`
        uri: String,
        /// `mimeType`
        mime_type: Option<String>,
        /// The raw bytes (the core base64-encodes them).
        data: Vec<u8>,
    },
}

impl From<ResourceContents> for OwnedResourceContents {
    fn from(c: ResourceContents) -> Self {
        match c {
            ResourceContents::Text {
                uri,
                mime_type,
                text,
            } => Self::text(uri, mime_type.as_deref(), text),
            ResourceContents::Blob {
                uri,
                mime_type,
                data,
            } => Self::blob(uri, mime_type.as_deref(), &data),
        }
    }
}

pub(crate) fn contents(v: Vec<ResourceContents>) -> Vec<OwnedResourceContents> {
    v.into_iter().map(Into::into).collect()
}

/// `subscriptions/listen` filter (docs/rules.md §11.1): which notifications a subscription wants.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, uniffi::Record)]
pub struct SubscriptionFilter {
    /// `toolsListChanged`
    #[uniffi(default = None)]
    pub tools_list_changed: Option<bool>,
    /// `promptsListChanged`
    #[uniffi(default = None)]
    pub prompts_list_changed: Option<bool>,
    /// `resourcesListChanged`
    #[uniffi(default = None)]
    pub resources_list_changed: Option<bool>,
    /// `resourceSubscriptions` (`nil` = absent).
    #[uniffi(default = None)]
    pub resource_subscriptions: Option<Vec<String>>,
}

impl From<SubscriptionFilter> for OwnedSubscriptionFilter {
    fn from(f: SubscriptionFilter) -> Self {
        Self {
            tools_list_changed: f.tools_list_changed,
            prompts_list_changed: f.prompts_list_changed,
            resources_list_changed: f.resources_list_changed,
            resource_subscriptions: f.resource_subscriptions,
        }
    }
}

impl From<OwnedSubscriptionFilter> for SubscriptionFilter {
    fn from(f: OwnedSubscriptionFilter) -> Self {
        Self {
            tools_list_changed: f.tools_list_changed,
            prompts_list_changed: f.prompts_list_changed,
            resources_list_changed: f.resources_list_changed,
            resource_subscriptions: f.resource_subscriptions,
        }
    }
}

/// Name → value pairs as a Swift dictionary (names are unique in every place this is used).
pub(crate) fn dict(pairs: Vec<(String, String)>) -> HashMap<String, String> {
    pairs.into_iter().collect()
}

/// A Swift dictionary as pairs in name order (deterministic on the wire).
pub(crate) fn sorted_pairs(map: HashMap<String, String>) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = map.into_iter().collect();
    v.sort();
    v
}
