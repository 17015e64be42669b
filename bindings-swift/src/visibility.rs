//! `VisibilityFilter`: a Swift object deciding which items each caller context sees
//! (docs/rules.md §1.5: lists "MAY vary by the authorization presented on the request"). The core
//! applies it to lists, static reads, template reads, `prompts/get` and completion
//! references, and marks results `cacheScope: "private"`.

use std::sync::Arc;

use mcp_context::server::Listed;

/// An item as shown to a visibility filter.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum ListedItem {
    /// A static resource.
    Resource {
        /// `uri`
        uri: String,
        /// `name`
        name: String,
    },
    /// A resource template.
    Template {
        /// `uriTemplate`
        uri_template: String,
        /// `name`
        name: String,
    },
    /// A prompt.
    Prompt {
        /// `name`
        name: String,
    },
    /// A tool.
    Tool {
        /// `name`
        name: String,
    },
}

impl From<Listed<'_>> for ListedItem {
    fn from(l: Listed<'_>) -> Self {
        match l {
            Listed::Resource(r) => Self::Resource {
                uri: r.uri.clone(),
                name: r.name.clone(),
            },
            Listed::Template(t) => Self::Template {
                uri_template: t.uri_template.clone(),
                name: t.name.clone(),
            },
            Listed::Prompt(p) => Self::Prompt {
                name: p.name.clone(),
            },
            Listed::Tool(t) => Self::Tool {
                name: String::from(t.name()),
            },
        }
    }
}

/// Implemented in Swift: whether caller context `auth` (the `MessageContext.auth` of the
/// request) may see `item`. Called while the server machine is locked: it must not call
/// back into that `ServerMachine`.
#[uniffi::export(with_foreign)]
pub trait VisibilityFilter: Send + Sync {
    /// `true` to show `item` to `auth`.
    fn is_visible(&self, auth: u64, item: ListedItem) -> bool;
}

/// The core's filter over the Swift one.
pub(crate) fn boxed(filter: Arc<dyn VisibilityFilter>) -> mcp_context::server::VisibilityFilter {
    Box::new(move |auth, listed| filter.is_visible(auth, listed.into()))
}
