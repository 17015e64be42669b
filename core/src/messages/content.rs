//! Content blocks and resource contents (docs/rules.md §14.1, §14.2).

use super::annotations::Annotations;
use super::common::{Enc, Obj, members, obj, object, required, string};
use super::meta::start;
use super::resource::{RESOURCE_KEYS, Resource};
use crate::json::fields::{Keys, keys};
use crate::json::key;
use crate::json::{Cursor, Encode, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{DecodeError, FromJson, ParamsError, ParamsErrorKind};

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
/// `uri` plus exactly one of `text` / `blob` (docs/rules.md §16.5 rule 35). Contents carry no
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

const CONTENTS_KEYS: &Keys = keys!["uri", "mimeType", "text", "blob", "_meta"];

impl<'a> FromJson<'a> for ResourceContents<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        if !crate::WIDE {
            return Self::decode_compact(c);
        }
        let mut f = obj(c, CONTENTS_KEYS, "contents")?;
        let (mut uri, mut mime_type, mut text, mut blob, mut meta) = (None, None, None, None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => uri = Some(string(c, "uri")?),
                1 => mime_type = Some(string(c, "mimeType")?),
                2 => text = Some(string(c, "text")?),
                3 => blob = Some(string(c, "blob")?),
                _ => meta = Some(object(c, "_meta")?),
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
            (None, None) => Err(ParamsError::missing("text").into()),
            (Some(_), Some(_)) => {
                Err(ParamsError::new(ParamsErrorKind::Conflicting, "blob").into())
            }
        }
    }
}

impl<'a> ResourceContents<'a> {
    /// [`FromJson::decode`] as compact targets run it (`crate::WIDE`): the shared walk
    /// ([`members`]), then the same checks. Same answers (`messages::compact_tests`).
    pub(crate) fn decode_compact(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut s: [Option<JsonStr<'a>>; 4] = [None; 4];
        let mut meta = None;
        members(c, CONTENTS_KEYS, "contents", 0b1111, &mut s, &mut |_, c| {
            object(c, "_meta").map(|v| meta = Some(v))
        })?;
        let [uri, mime_type, text, blob] = s;
        // The checks in the wide form's order, sharing one error construction.
        let (kind, field) = match (uri, text, blob) {
            (Some(uri), Some(text), None) => {
                return Ok(Self::Text(TextResourceContents {
                    uri,
                    mime_type,
                    text,
                    meta,
                }));
            }
            (Some(uri), None, Some(blob)) => {
                return Ok(Self::Blob(BlobResourceContents {
                    uri,
                    mime_type,
                    blob,
                    meta,
                }));
            }
            (None, ..) => (ParamsErrorKind::Missing, "uri"),
            (_, None, None) => (ParamsErrorKind::Missing, "text"),
            (_, Some(_), Some(_)) => (ParamsErrorKind::Conflicting, "blob"),
        };
        Err(ParamsError::new(kind, field).into())
    }
}

impl Encode for ResourceContents<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        let (uri, mime_type, meta) = match self {
            Self::Text(t) => (t.uri, t.mime_type, t.meta),
            Self::Blob(b) => (b.uri, b.mime_type, b.meta),
        };
        w.member(key!("uri"), &uri)?;
        w.opt_member(key!("mimeType"), &mime_type)?;
        match self {
            Self::Text(t) => w.member(key!("text"), &t.text)?,
            Self::Blob(b) => w.member(key!("blob"), &b.blob)?,
        }
        w.opt_member(key!("_meta"), &meta)?;
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

/// `ContentBlock`: one of five, by `type` (docs/rules.md §14.1). Any other `type` is a
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

const TEXT_KEYS: &Keys = keys!["text", "annotations", "_meta"];

impl<'a> FromJson<'a> for TextContent<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let f = obj(c, TEXT_KEYS, "content")?;
        Self::members(c, f)
    }
}

impl<'a> TextContent<'a> {
    /// The members of the open object `f` walks.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn members(c: &mut Cursor<'a>, mut f: Obj<'_>) -> Result<Self, DecodeError> {
        let (mut text, mut annotations, mut meta) = (None, None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => text = Some(string(c, "text")?),
                1 => annotations = Some(Annotations::decode(c)?),
                _ => meta = Some(object(c, "_meta")?),
            }
        }
        Ok(Self {
            text: required(text, "text")?,
            annotations,
            meta,
        })
    }
}

const MEDIA_KEYS: &Keys = keys!["data", "mimeType", "annotations", "_meta"];

impl<'a> FromJson<'a> for MediaContent<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let f = obj(c, MEDIA_KEYS, "content")?;
        Self::members(c, f)
    }
}

impl<'a> MediaContent<'a> {
    /// The members of the open object `f` walks.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn members(c: &mut Cursor<'a>, mut f: Obj<'_>) -> Result<Self, DecodeError> {
        let (mut data, mut mime_type, mut annotations, mut meta) = (None, None, None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => data = Some(string(c, "data")?),
                1 => mime_type = Some(string(c, "mimeType")?),
                2 => annotations = Some(Annotations::decode(c)?),
                _ => meta = Some(object(c, "_meta")?),
            }
        }
        Ok(Self {
            data: required(data, "data")?,
            mime_type: required(mime_type, "mimeType")?,
            annotations,
            meta,
        })
    }
}

const EMBEDDED_KEYS: &Keys = keys!["resource", "annotations", "_meta"];

impl<'a> FromJson<'a> for EmbeddedResource<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let f = obj(c, EMBEDDED_KEYS, "content")?;
        Self::members(c, f)
    }
}

impl<'a> EmbeddedResource<'a> {
    /// The members of the open object `f` walks.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn members(c: &mut Cursor<'a>, mut f: Obj<'_>) -> Result<Self, DecodeError> {
        let (mut resource, mut annotations, mut meta) = (None, None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => resource = Some(ResourceContents::decode(c)?),
                1 => annotations = Some(Annotations::decode(c)?),
                _ => meta = Some(object(c, "_meta")?),
            }
        }
        Ok(Self {
            resource: required(resource, "resource")?,
            annotations,
            meta,
        })
    }
}

impl<'a> FromJson<'a> for ContentBlock<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        // The `type` tag decides the shape. When it is the first member (as every encoder
        // here writes it), the block is decoded in one pass: the variant reads the members
        // after it, as it would after any member it does not know; otherwise the tag is
        // looked up first and the variant reads the whole object.
        let (pos, depth) = (start(c), c.depth());
        let unknown = ParamsError::new(ParamsErrorKind::UnknownValue, "type");
        let mut buf = [0u8; 16];
        if c.peek() == Some(b'{') {
            c.begin_object()?;
            let mut first = true;
            if c.next_key(&mut first)?.is_some_and(|k| k == "type") {
                let ty = string(c, "type")?;
                return match ty.unescape_into(&mut buf).map_err(|_| unknown)? {
                    "text" => {
                        TextContent::members(c, Obj::after_unknown(TEXT_KEYS)).map(Self::Text)
                    }
                    "image" => {
                        MediaContent::members(c, Obj::after_unknown(MEDIA_KEYS)).map(Self::Image)
                    }
                    "audio" => {
                        MediaContent::members(c, Obj::after_unknown(MEDIA_KEYS)).map(Self::Audio)
                    }
                    "resource_link" => Resource::members(c, Obj::after_unknown(RESOURCE_KEYS))
                        .map(Self::ResourceLink),
                    "resource" => EmbeddedResource::members(c, Obj::after_unknown(EMBEDDED_KEYS))
                        .map(Self::Resource),
                    _ => Err(unknown.into()),
                };
            }
        }
        c.rewind(pos, depth);
        let raw = object(c, "content")?;
        c.rewind(pos, depth);
        let t = required(raw.get("type"), "type")?;
        let ty = t.as_str().ok_or(ParamsError::wrong_type("type"))?;
        match ty.unescape_into(&mut buf).map_err(|_| unknown)? {
            "text" => TextContent::decode(c).map(Self::Text),
            "image" => MediaContent::decode(c).map(Self::Image),
            "audio" => MediaContent::decode(c).map(Self::Audio),
            "resource_link" => Resource::decode(c).map(Self::ResourceLink),
            "resource" => EmbeddedResource::decode(c).map(Self::Resource),
            _ => Err(unknown.into()),
        }
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
        w.member(key!("type"), self.type_name())?;
        match self {
            Self::Text(t) => w.member(key!("text"), &t.text)?,
            Self::Image(m) | Self::Audio(m) => {
                w.member(key!("data"), &m.data)?;
                w.member(key!("mimeType"), &m.mime_type)?;
            }
            Self::Resource(e) => w.member(key!("resource"), &e.resource)?,
            Self::ResourceLink(_) => {}
        }
        w.opt_member(key!("annotations"), &annotations)?;
        w.opt_member(key!("_meta"), &meta)?;
        w.end_object()
    }
}
