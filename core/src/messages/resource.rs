//! The listed items: `Resource` (docs/rules.md §5) and `ResourceTemplate` (docs/rules.md §6).

use super::annotations::Annotations;
use super::common::{Enc, Obj, count, obj, object, required, string};
use super::meta::Icon;
use super::seq::Seq;
use crate::json::fields::{Keys, keys};
use crate::json::key;
use crate::json::{Cursor, Encode, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{DecodeError, FromJson};

/// A resource (`Resource`), also the body of a `resource_link` content block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resource<'a> {
    /// `uri`: the resource's unique id.
    pub uri: JsonStr<'a>,
    /// `name`: programmatic name.
    pub name: JsonStr<'a>,
    /// `title`: display name.
    pub title: Option<JsonStr<'a>>,
    /// `description`
    pub description: Option<JsonStr<'a>>,
    /// `mimeType`
    pub mime_type: Option<JsonStr<'a>>,
    /// `size`: raw bytes before base64 (a non-negative integer).
    pub size: Option<u64>,
    /// `annotations`
    pub annotations: Option<Annotations<'a>>,
    /// `icons`
    pub icons: Option<Seq<'a, Icon<'a>>>,
    /// `_meta`, passed through.
    pub meta: Option<RawJson<'a>>,
}

impl<'a> Resource<'a> {
    /// `{uri, name}`.
    #[must_use]
    pub const fn new(uri: &'a str, name: &'a str) -> Self {
        Self {
            uri: JsonStr::new(uri),
            name: JsonStr::new(name),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
            icons: None,
            meta: None,
        }
    }

    pub(crate) fn encode_tagged<S: JsonSink + ?Sized>(
        &self,
        w: &mut Writer<'_, S>,
        tag: Option<&str>,
    ) -> Enc {
        w.begin_object()?;
        if let Some(tag) = tag {
            w.member(key!("type"), tag)?;
        }
        w.member(key!("uri"), &self.uri)?;
        w.member(key!("name"), &self.name)?;
        w.opt_member(key!("title"), &self.title)?;
        w.opt_member(key!("description"), &self.description)?;
        w.opt_member(key!("mimeType"), &self.mime_type)?;
        w.opt_member(key!("size"), &self.size)?;
        w.opt_member(key!("annotations"), &self.annotations)?;
        w.opt_member(key!("icons"), &self.icons)?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.end_object()
    }
}

pub(crate) const RESOURCE_KEYS: &Keys = keys![
    "uri",
    "name",
    "title",
    "description",
    "mimeType",
    "size",
    "annotations",
    "icons",
    "_meta",
];

impl<'a> FromJson<'a> for Resource<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let f = obj(c, RESOURCE_KEYS, "resources")?;
        Self::members(c, f)
    }
}

impl<'a> Resource<'a> {
    /// The members of the open object `f` walks (over [`RESOURCE_KEYS`]).
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn members(c: &mut Cursor<'a>, mut f: Obj<'_>) -> Result<Self, DecodeError> {
        let mut s: [Option<JsonStr<'a>>; 5] = [None; 5];
        let mut r = Self::new("", "");
        while let Some(i) = f.next(c)? {
            match (i, s.get_mut(i), RESOURCE_KEYS.names.get(i)) {
                (0..=4, Some(slot), Some(name)) => *slot = Some(string(c, name)?),
                (5, ..) => r.size = Some(count(c, "size")?),
                (6, ..) => r.annotations = Some(Annotations::decode(c)?),
                (7, ..) => r.icons = Some(Seq::decode(c, "icons")?),
                _ => r.meta = Some(object(c, "_meta")?),
            }
        }
        let [uri, name, title, description, mime_type] = s;
        r.uri = required(uri, "uri")?;
        r.name = required(name, "name")?;
        (r.title, r.description, r.mime_type) = (title, description, mime_type);
        Ok(r)
    }
}

impl Encode for Resource<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        self.encode_tagged(w, None)
    }
}

/// A parameterised resource (`ResourceTemplate`). `uriTemplate` is an RFC 6570 template;
/// it is not parsed here (see [`crate::template`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResourceTemplate<'a> {
    /// `uriTemplate`
    pub uri_template: JsonStr<'a>,
    /// `name`
    pub name: JsonStr<'a>,
    /// `title`
    pub title: Option<JsonStr<'a>>,
    /// `description`
    pub description: Option<JsonStr<'a>>,
    /// `mimeType` (only when every match has the same type).
    pub mime_type: Option<JsonStr<'a>>,
    /// `annotations`
    pub annotations: Option<Annotations<'a>>,
    /// `icons`
    pub icons: Option<Seq<'a, Icon<'a>>>,
    /// `_meta`, passed through.
    pub meta: Option<RawJson<'a>>,
}

impl<'a> ResourceTemplate<'a> {
    /// `{uriTemplate, name}`.
    #[must_use]
    pub const fn new(uri_template: &'a str, name: &'a str) -> Self {
        Self {
            uri_template: JsonStr::new(uri_template),
            name: JsonStr::new(name),
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            icons: None,
            meta: None,
        }
    }
}

const TEMPLATE_KEYS: &Keys = keys![
    "uriTemplate",
    "name",
    "title",
    "description",
    "mimeType",
    "annotations",
    "icons",
    "_meta",
];

impl<'a> FromJson<'a> for ResourceTemplate<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, TEMPLATE_KEYS, "resourceTemplates")?;
        let mut s: [Option<JsonStr<'a>>; 5] = [None; 5];
        let mut t = Self::new("", "");
        while let Some(i) = f.next(c)? {
            match (i, s.get_mut(i), TEMPLATE_KEYS.names.get(i)) {
                (0..=4, Some(slot), Some(name)) => *slot = Some(string(c, name)?),
                (5, ..) => t.annotations = Some(Annotations::decode(c)?),
                (6, ..) => t.icons = Some(Seq::decode(c, "icons")?),
                _ => t.meta = Some(object(c, "_meta")?),
            }
        }
        let [uri_template, name, title, description, mime_type] = s;
        t.uri_template = required(uri_template, "uriTemplate")?;
        t.name = required(name, "name")?;
        (t.title, t.description, t.mime_type) = (title, description, mime_type);
        Ok(t)
    }
}

impl Encode for ResourceTemplate<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(key!("uriTemplate"), &self.uri_template)?;
        w.member(key!("name"), &self.name)?;
        w.opt_member(key!("title"), &self.title)?;
        w.opt_member(key!("description"), &self.description)?;
        w.opt_member(key!("mimeType"), &self.mime_type)?;
        w.opt_member(key!("annotations"), &self.annotations)?;
        w.opt_member(key!("icons"), &self.icons)?;
        w.opt_member(key!("_meta"), &self.meta)?;
        w.end_object()
    }
}
