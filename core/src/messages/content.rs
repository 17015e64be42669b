//! Content blocks and resource contents (DIGEST §14.1, §14.2).

use super::annotations::Annotations;
use super::common::{Enc, fields, next, object, required, string};
use super::resource::Resource;
use crate::json::{Encode, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{FromJson, ParamsError, ParamsErrorKind};

/// `TextResourceContents`: a resource's text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextResourceContents<'a> {
    /// `uri` (may be a sub-resource of the one read).
    pub uri: JsonStr<'a>,
    /// `mimeType`
    pub mime_type: Option<JsonStr<'a>>,
    /// `text`
    pub text: JsonStr<'a>,
    /// `_meta`, passed through.
    pub meta: Option<RawJson<'a>>,
}

/// `BlobResourceContents`: a resource's binary data, base64-encoded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlobResourceContents<'a> {
    /// `uri`
    pub uri: JsonStr<'a>,
    /// `mimeType`
    pub mime_type: Option<JsonStr<'a>>,
    /// `blob` (base64; not decoded here).
    pub blob: JsonStr<'a>,
    /// `_meta`, passed through.
    pub meta: Option<RawJson<'a>>,
}

/// One item of `resources/read` `contents`, or the `resource` of an embedded resource:
/// `uri` plus exactly one of `text` / `blob` (DIGEST §16.5 rule 35). Contents carry no
/// annotations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ResourceContents<'a> {
    /// Text.
    Text(TextResourceContents<'a>),
    /// Binary.
    Blob(BlobResourceContents<'a>),
}

impl<'a> ResourceContents<'a> {
    /// The contents' `uri`.
    #[must_use]
    pub const fn uri(&self) -> JsonStr<'a> {
        match self {
            Self::Text(t) => t.uri,
            Self::Blob(b) => b.uri,
        }
    }
}

impl<'a> FromJson<'a> for ResourceContents<'a> {
    fn from_json(v: RawJson<'a>) -> Result<Self, ParamsError> {
        let mut f = fields(v, &["uri", "mimeType", "text", "blob", "_meta"], "contents")?;
        let (mut uri, mut mime_type, mut text, mut blob, mut meta) = (None, None, None, None, None);
        while let Some((i, v)) = next(&mut f)? {
            match i {
                0 => uri = Some(string(v, "uri")?),
                1 => mime_type = Some(string(v, "mimeType")?),
                2 => text = Some(string(v, "text")?),
                3 => blob = Some(string(v, "blob")?),
                _ => meta = Some(object(v, "_meta")?),
            }
        }
        let uri = required(uri, "uri")?;
        match (text, blob) {
            (Some(text), None) => Ok(Self::Text(TextResourceContents {
                uri,
                mime_type,
                text,
                meta,
            })),
            (None, Some(blob)) => Ok(Self::Blob(BlobResourceContents {
                uri,
                mime_type,
                blob,
                meta,
            })),
            (None, None) => Err(ParamsError::missing("text")),
            (Some(_), Some(_)) => Err(ParamsError::new(ParamsErrorKind::Conflicting, "blob")),
        }
    }
}

impl Encode for ResourceContents<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        let (uri, mime_type, meta) = match self {
            Self::Text(t) => (t.uri, t.mime_type, t.meta),
            Self::Blob(b) => (b.uri, b.mime_type, b.meta),
        };
        w.field("uri", &uri)?;
        w.opt_field("mimeType", &mime_type)?;
        match self {
            Self::Text(t) => w.field("text", &t.text)?,
            Self::Blob(b) => w.field("blob", &b.blob)?,
        }
        w.opt_field("_meta", &meta)?;
        w.end_object()
    }
}

/// `TextContent`
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextContent<'a> {
    /// `text`
    pub text: JsonStr<'a>,
    /// `annotations`
    pub annotations: Option<Annotations<'a>>,
    /// `_meta`, passed through.
    pub meta: Option<RawJson<'a>>,
}

/// `ImageContent` / `AudioContent`: base64 `data` with its `mimeType`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MediaContent<'a> {
    /// `data` (base64; not decoded here).
    pub data: JsonStr<'a>,
    /// `mimeType`
    pub mime_type: JsonStr<'a>,
    /// `annotations`
    pub annotations: Option<Annotations<'a>>,
    /// `_meta`, passed through.
    pub meta: Option<RawJson<'a>>,
}

/// `EmbeddedResource`: a resource's contents inline in a prompt message.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EmbeddedResource<'a> {
    /// `resource`
    pub resource: ResourceContents<'a>,
    /// `annotations`
    pub annotations: Option<Annotations<'a>>,
    /// `_meta`, passed through.
    pub meta: Option<RawJson<'a>>,
}

/// `ContentBlock`: one of five, by `type` (DIGEST §14.1). Any other `type` is a
/// `-32602`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContentBlock<'a> {
    /// `"text"`
    Text(TextContent<'a>),
    /// `"image"`
    Image(MediaContent<'a>),
    /// `"audio"`
    Audio(MediaContent<'a>),
    /// `"resource_link"`: a `Resource` by reference.
    ResourceLink(Resource<'a>),
    /// `"resource"`: an embedded resource.
    Resource(EmbeddedResource<'a>),
}

impl ContentBlock<'_> {
    /// The `type` tag.
    #[must_use]
    pub const fn type_name(&self) -> &'static str {
        match self {
            Self::Text(_) => "text",
            Self::Image(_) => "image",
            Self::Audio(_) => "audio",
            Self::ResourceLink(_) => "resource_link",
            Self::Resource(_) => "resource",
        }
    }
}

const BLOCK_KEYS: &[&str] = &[
    "type",
    "text",
    "data",
    "mimeType",
    "resource",
    "annotations",
    "_meta",
];

impl<'a> FromJson<'a> for ContentBlock<'a> {
    fn from_json(v: RawJson<'a>) -> Result<Self, ParamsError> {
        let ty = required(v.get("type"), "type").and_then(|t| string(t, "type"))?;
        let unknown = ParamsError::new(ParamsErrorKind::UnknownValue, "type");
        let mut buf = [0u8; 16];
        let tag = ty.unescape_into(&mut buf).map_err(|_| unknown)?;
        if tag == "resource_link" {
            return Resource::from_json(v).map(Self::ResourceLink);
        }
        if !matches!(tag, "text" | "image" | "audio" | "resource") {
            return Err(unknown);
        }
        let mut f = fields(v, BLOCK_KEYS, "content")?;
        let mut s: [Option<RawJson<'a>>; 7] = [None; 7];
        while let Some((i, v)) = next(&mut f)? {
            if let Some(slot) = s.get_mut(i) {
                *slot = Some(v);
            }
        }
        let [_, text, data, mime_type, resource, annotations, meta] = s;
        let annotations = annotations.map(Annotations::from_json).transpose()?;
        let meta = meta.map(|m| object(m, "_meta")).transpose()?;
        let str_field =
            |v: Option<RawJson<'a>>, name| required(v, name).and_then(|v| string(v, name));
        Ok(match tag {
            "text" => Self::Text(TextContent {
                text: str_field(text, "text")?,
                annotations,
                meta,
            }),
            "resource" => Self::Resource(EmbeddedResource {
                resource: ResourceContents::from_json(required(resource, "resource")?)?,
                annotations,
                meta,
            }),
            _ => {
                let media = MediaContent {
                    data: str_field(data, "data")?,
                    mime_type: str_field(mime_type, "mimeType")?,
                    annotations,
                    meta,
                };
                if tag == "image" {
                    Self::Image(media)
                } else {
                    Self::Audio(media)
                }
            }
        })
    }
}

impl Encode for ContentBlock<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        let (annotations, meta) = match self {
            Self::ResourceLink(r) => return r.encode_tagged(w, Some("resource_link")),
            Self::Text(t) => (t.annotations, t.meta),
            Self::Image(m) | Self::Audio(m) => (m.annotations, m.meta),
            Self::Resource(e) => (e.annotations, e.meta),
        };
        w.begin_object()?;
        w.field("type", self.type_name())?;
        match self {
            Self::Text(t) => w.field("text", &t.text)?,
            Self::Image(m) | Self::Audio(m) => {
                w.field("data", &m.data)?;
                w.field("mimeType", &m.mime_type)?;
            }
            Self::Resource(e) => w.field("resource", &e.resource)?,
            Self::ResourceLink(_) => {}
        }
        w.opt_field("annotations", &annotations)?;
        w.opt_field("_meta", &meta)?;
        w.end_object()
    }
}
