//! Owned list items, contents and content blocks.

use alloc::string::String;
use alloc::vec::Vec;

use super::{AsView, OwnedJson, base64, opt_raw, opt_str};
use crate::json::{Encode, EncodeError, JsonSink, JsonStr, Writer};
use crate::messages::{
    Annotations, BlobResourceContents, ContentBlock, EmbeddedResource, Icon, Implementation,
    MediaContent, Priority, Prompt, PromptArgument, PromptMessage, Resource, ResourceContents,
    ResourceTemplate, Role, Seq, TextContent, TextResourceContents, Theme,
};

fn seq<'a, O: AsView>(v: &'a Vec<O>) -> Option<Seq<'a, O::View<'a>>> {
    (!v.is_empty()).then(|| Seq::from_source(v))
}

/// An owned [`Icon`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OwnedIcon {
    /// `src`
    pub src: String,
    /// `mimeType`
    pub mime_type: Option<String>,
    /// `sizes` (empty = absent).
    pub sizes: Vec<String>,
    /// `theme`
    pub theme: Option<Theme>,
}

impl AsView for OwnedIcon {
    type View<'a> = Icon<'a>;
    #[inline]
    fn view(&self) -> Icon<'_> {
        Icon {
            src: JsonStr::new(&self.src),
            mime_type: opt_str(&self.mime_type),
            sizes: seq(&self.sizes),
            theme: self.theme,
        }
    }
}

/// An owned [`Implementation`] (`serverInfo`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OwnedImplementation {
    /// `name`
    pub name: String,
    /// `version`
    pub version: String,
    /// `title`
    pub title: Option<String>,
    /// `description`
    pub description: Option<String>,
    /// `websiteUrl`
    pub website_url: Option<String>,
    /// `icons` (empty = absent).
    pub icons: Vec<OwnedIcon>,
}

impl OwnedImplementation {
    /// `{name, version}`.
    #[must_use]
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            ..Self::default()
        }
    }
}

impl AsView for OwnedImplementation {
    type View<'a> = Implementation<'a>;
    #[inline]
    fn view(&self) -> Implementation<'_> {
        Implementation {
            name: JsonStr::new(&self.name),
            version: JsonStr::new(&self.version),
            title: opt_str(&self.title),
            description: opt_str(&self.description),
            website_url: opt_str(&self.website_url),
            icons: seq(&self.icons),
        }
    }
}

/// Owned [`Annotations`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OwnedAnnotations {
    /// `audience` (empty = absent).
    pub audience: Vec<Role>,
    /// `priority`
    pub priority: Option<Priority>,
    /// `lastModified` (ISO 8601).
    pub last_modified: Option<String>,
}

impl AsView for OwnedAnnotations {
    type View<'a> = Annotations<'a>;
    #[inline]
    fn view(&self) -> Annotations<'_> {
        Annotations {
            audience: (!self.audience.is_empty()).then(|| Seq::from_slice(&self.audience)),
            priority: self.priority,
            last_modified: opt_str(&self.last_modified),
        }
    }
}

/// An owned [`Resource`] (a `resources/list` entry or a `resource_link` block).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OwnedResource {
    /// `uri`
    pub uri: String,
    /// `name`
    pub name: String,
    /// `title`
    pub title: Option<String>,
    /// `description`
    pub description: Option<String>,
    /// `mimeType`
    pub mime_type: Option<String>,
    /// `size`
    pub size: Option<u64>,
    /// `annotations`
    pub annotations: Option<OwnedAnnotations>,
    /// `icons` (empty = absent).
    pub icons: Vec<OwnedIcon>,
    /// `_meta`
    pub meta: Option<OwnedJson>,
}

impl OwnedResource {
    /// `{uri, name}`.
    #[must_use]
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            ..Self::default()
        }
    }
}

impl AsView for OwnedResource {
    type View<'a> = Resource<'a>;
    #[inline]
    fn view(&self) -> Resource<'_> {
        Resource {
            uri: JsonStr::new(&self.uri),
            name: JsonStr::new(&self.name),
            title: opt_str(&self.title),
            description: opt_str(&self.description),
            mime_type: opt_str(&self.mime_type),
            size: self.size,
            annotations: self.annotations.as_ref().map(AsView::view),
            icons: seq(&self.icons),
            meta: opt_raw(&self.meta),
        }
    }
}

/// An owned [`ResourceTemplate`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OwnedResourceTemplate {
    /// `uriTemplate` (RFC 6570).
    pub uri_template: String,
    /// `name`
    pub name: String,
    /// `title`
    pub title: Option<String>,
    /// `description`
    pub description: Option<String>,
    /// `mimeType`
    pub mime_type: Option<String>,
    /// `annotations`
    pub annotations: Option<OwnedAnnotations>,
    /// `icons` (empty = absent).
    pub icons: Vec<OwnedIcon>,
    /// `_meta`
    pub meta: Option<OwnedJson>,
}

impl OwnedResourceTemplate {
    /// `{uriTemplate, name}`.
    #[must_use]
    pub fn new(uri_template: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri_template: uri_template.into(),
            name: name.into(),
            ..Self::default()
        }
    }
}

impl AsView for OwnedResourceTemplate {
    type View<'a> = ResourceTemplate<'a>;
    #[inline]
    fn view(&self) -> ResourceTemplate<'_> {
        ResourceTemplate {
            uri_template: JsonStr::new(&self.uri_template),
            name: JsonStr::new(&self.name),
            title: opt_str(&self.title),
            description: opt_str(&self.description),
            mime_type: opt_str(&self.mime_type),
            annotations: self.annotations.as_ref().map(AsView::view),
            icons: seq(&self.icons),
            meta: opt_raw(&self.meta),
        }
    }
}

/// An owned [`PromptArgument`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OwnedPromptArgument {
    /// `name`
    pub name: String,
    /// `title`
    pub title: Option<String>,
    /// `description`
    pub description: Option<String>,
    /// `required`
    pub required: Option<bool>,
}

impl AsView for OwnedPromptArgument {
    type View<'a> = PromptArgument<'a>;
    #[inline]
    fn view(&self) -> PromptArgument<'_> {
        PromptArgument {
            name: JsonStr::new(&self.name),
            title: opt_str(&self.title),
            description: opt_str(&self.description),
            required: self.required,
        }
    }
}

/// An owned [`Prompt`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OwnedPrompt {
    /// `name`
    pub name: String,
    /// `title`
    pub title: Option<String>,
    /// `description`
    pub description: Option<String>,
    /// `arguments` (empty = absent).
    pub arguments: Vec<OwnedPromptArgument>,
    /// `icons` (empty = absent).
    pub icons: Vec<OwnedIcon>,
    /// `_meta`
    pub meta: Option<OwnedJson>,
}

impl AsView for OwnedPrompt {
    type View<'a> = Prompt<'a>;
    #[inline]
    fn view(&self) -> Prompt<'_> {
        Prompt {
            name: JsonStr::new(&self.name),
            title: opt_str(&self.title),
            description: opt_str(&self.description),
            arguments: seq(&self.arguments),
            icons: seq(&self.icons),
            meta: opt_raw(&self.meta),
        }
    }
}

/// Owned [`ResourceContents`]: text, or base64 `blob`.
#[derive(Debug, Clone, PartialEq)]
pub enum OwnedResourceContents {
    /// Text contents.
    Text {
        /// `uri`
        uri: String,
        /// `mimeType`
        mime_type: Option<String>,
        /// `text`
        text: String,
    },
    /// Binary contents, already base64-encoded.
    Blob {
        /// `uri`
        uri: String,
        /// `mimeType`
        mime_type: Option<String>,
        /// `blob` (base64).
        blob: String,
    },
}

impl OwnedResourceContents {
    /// Text contents.
    #[must_use]
    pub fn text(uri: impl Into<String>, mime_type: Option<&str>, text: impl Into<String>) -> Self {
        Self::Text {
            uri: uri.into(),
            mime_type: mime_type.map(String::from),
            text: text.into(),
        }
    }

    /// Binary contents from raw bytes (base64-encoded here, docs/rules.md §16.5 rule 33).
    #[must_use]
    pub fn blob(uri: impl Into<String>, mime_type: Option<&str>, bytes: &[u8]) -> Self {
        Self::Blob {
            uri: uri.into(),
            mime_type: mime_type.map(String::from),
            blob: base64(bytes),
        }
    }
}

impl AsView for OwnedResourceContents {
    type View<'a> = ResourceContents<'a>;
    #[inline]
    fn view(&self) -> ResourceContents<'_> {
        match self {
            Self::Text {
                uri,
                mime_type,
                text,
            } => ResourceContents::Text(TextResourceContents {
                uri: JsonStr::new(uri),
                mime_type: opt_str(mime_type),
                text: JsonStr::new(text),
                meta: None,
            }),
            Self::Blob {
                uri,
                mime_type,
                blob,
            } => ResourceContents::Blob(BlobResourceContents {
                uri: JsonStr::new(uri),
                mime_type: opt_str(mime_type),
                blob: JsonStr::new(blob),
                meta: None,
            }),
        }
    }
}

/// An owned [`ContentBlock`].
#[derive(Debug, Clone, PartialEq)]
pub enum OwnedContentBlock {
    /// `text`
    Text {
        /// `text`
        text: String,
        /// `annotations`
        annotations: Option<OwnedAnnotations>,
    },
    /// `image` (base64 `data`).
    Image {
        /// `data` (base64).
        data: String,
        /// `mimeType`
        mime_type: String,
        /// `annotations`
        annotations: Option<OwnedAnnotations>,
    },
    /// `audio` (base64 `data`).
    Audio {
        /// `data` (base64).
        data: String,
        /// `mimeType`
        mime_type: String,
        /// `annotations`
        annotations: Option<OwnedAnnotations>,
    },
    /// `resource_link`
    ResourceLink(OwnedResource),
    /// `resource` (embedded).
    Resource {
        /// `resource`
        resource: OwnedResourceContents,
        /// `annotations`
        annotations: Option<OwnedAnnotations>,
    },
}

impl AsView for OwnedContentBlock {
    type View<'a> = ContentBlock<'a>;
    #[inline]
    fn view(&self) -> ContentBlock<'_> {
        fn ann(a: &Option<OwnedAnnotations>) -> Option<Annotations<'_>> {
            a.as_ref().map(AsView::view)
        }
        match self {
            Self::Text { text, annotations } => ContentBlock::Text(TextContent {
                text: JsonStr::new(text),
                annotations: ann(annotations),
                meta: None,
            }),
            Self::Image {
                data,
                mime_type,
                annotations,
            }
            | Self::Audio {
                data,
                mime_type,
                annotations,
            } => {
                let media = MediaContent {
                    data: JsonStr::new(data),
                    mime_type: JsonStr::new(mime_type),
                    annotations: ann(annotations),
                    meta: None,
                };
                if matches!(self, Self::Image { .. }) {
                    ContentBlock::Image(media)
                } else {
                    ContentBlock::Audio(media)
                }
            }
            Self::ResourceLink(r) => ContentBlock::ResourceLink(r.view()),
            Self::Resource {
                resource,
                annotations,
            } => ContentBlock::Resource(EmbeddedResource {
                resource: resource.view(),
                annotations: ann(annotations),
                meta: None,
            }),
        }
    }
}

/// An owned [`PromptMessage`].
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedPromptMessage {
    /// `role`
    pub role: Role,
    /// `content`
    pub content: OwnedContentBlock,
}

impl AsView for OwnedPromptMessage {
    type View<'a> = PromptMessage<'a>;
    #[inline]
    fn view(&self) -> PromptMessage<'_> {
        PromptMessage {
            role: self.role,
            content: self.content.view(),
        }
    }
}

macro_rules! encode_via_view {
    ($($t:ty),*) => {$(
        impl Encode for $t {
            #[inline]
            fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
                self.view().encode(w)
            }
        }
    )*};
}

encode_via_view!(
    OwnedResource,
    OwnedResourceTemplate,
    OwnedPrompt,
    OwnedResourceContents,
    OwnedPromptMessage
);
