//! `_meta` objects (docs/rules.md §1.1–§1.3) and `Implementation` / `Icon`.
//!
//! Each `_meta` view types the keys the spec defines and, when the object holds others, keeps
//! the whole object as `extra`, so keys it does not know are re-emitted unchanged on encode
//! (the spec's `_meta`: "implementations MUST NOT make assumptions about values at these
//! keys"). A `_meta` with only typed keys has no `extra`, and re-encoding it walks nothing.

use super::capabilities::ClientCapabilities;
use super::common::{Enc, LoggingLevel, Theme, members, obj, required, string};
use super::seq::Seq;
use crate::json::fields::{Keys, keys};
use crate::json::key;
use crate::json::{Cursor, Encode, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{DecodeError, FromJson, ParamsError, RequestId};

/// `io.modelcontextprotocol/protocolVersion`
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// `io.modelcontextprotocol/clientCapabilities`
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
/// `io.modelcontextprotocol/clientInfo`
pub const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";
/// `io.modelcontextprotocol/logLevel`
pub const LOG_LEVEL_KEY: &str = "io.modelcontextprotocol/logLevel";
/// `io.modelcontextprotocol/serverInfo`
pub const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";
/// `io.modelcontextprotocol/subscriptionId`
pub const SUBSCRIPTION_ID_KEY: &str = "io.modelcontextprotocol/subscriptionId";

/// Copies the members of `extra` whose keys are not in `known`.
pub(crate) fn encode_extra<S: JsonSink + ?Sized>(
    w: &mut Writer<'_, S>,
    extra: Option<RawJson<'_>>,
    known: &[&str],
) -> Enc {
    let Some(members) = extra.and_then(|e| e.object()) else {
        return Ok(());
    };
    for (k, v) in members {
        if !known.iter().any(|n| k == *n) {
            w.json_key(k)?;
            w.raw(v)?;
        }
    }
    Ok(())
}

fn id<'a>(c: &mut Cursor<'a>, field: &'static str) -> Result<RequestId<'a>, DecodeError> {
    Ok(RequestId::from_json(c.value()?).map_err(|_| ParamsError::wrong_type(field))?)
}

/// The offset where the next value starts (after whitespace).
pub(crate) fn start(c: &mut Cursor<'_>) -> usize {
    c.peek();
    c.position()
}

/// An icon (`Icon`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Icon<'a> {
    /// `src` (a URI, possibly `data:`).
    pub src: JsonStr<'a>,
    /// `mimeType`
    pub mime_type: Option<JsonStr<'a>>,
    /// `sizes` (`"48x48"`, `"any"`).
    pub sizes: Option<Seq<'a, JsonStr<'a>>>,
    /// `theme`
    pub theme: Option<Theme>,
}

const ICON_KEYS: &Keys = keys!["src", "mimeType", "sizes", "theme"];

impl<'a> FromJson<'a> for Icon<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        if !crate::WIDE {
            return Self::decode_compact(c);
        }
        Self::decode_wide(c)
    }
}

impl<'a> Icon<'a> {
    /// [`FromJson::decode`] as compact targets run it (`crate::WIDE`): the shared walk
    /// ([`members`]). Same answers (`messages::compact_tests`).
    pub(crate) fn decode_compact(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut s: [Option<JsonStr<'a>>; 2] = [None; 2];
        let (mut sizes, mut theme) = (None, None);
        members(c, ICON_KEYS, "icons", 0b11, &mut s, &mut |i, c| match i {
            2 => Seq::decode(c, "sizes").map(|v| sizes = Some(v)),
            _ => Theme::decode(c).map(|v| theme = Some(v)),
        })?;
        let [src, mime_type] = s;
        // Refused directly, not through `required`'s `Result` (less code).
        let Some(src) = src else {
            return Err(ParamsError::missing("src").into());
        };
        Ok(Self {
            src,
            mime_type,
            sizes,
            theme,
        })
    }

    /// [`FromJson::decode`] as wide targets run it.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn decode_wide(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, ICON_KEYS, "icons")?;
        let (mut src, mut mime_type, mut sizes, mut theme) = (None, None, None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => src = Some(string(c, "src")?),
                1 => mime_type = Some(string(c, "mimeType")?),
                2 => sizes = Some(Seq::decode(c, "sizes")?),
                _ => theme = Some(Theme::decode(c)?),
            }
        }
        Ok(Self {
            src: required(src, "src")?,
            mime_type,
            sizes,
            theme,
        })
    }
}

impl Encode for Icon<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(key!("src"), &self.src)?;
        w.opt_member(key!("mimeType"), &self.mime_type)?;
        w.opt_member(key!("sizes"), &self.sizes)?;
        w.opt_member(key!("theme"), &self.theme)?;
        w.end_object()
    }
}

/// Who is talking (`Implementation`): `clientInfo` / `serverInfo`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Implementation<'a> {
    /// `name`
    pub name: JsonStr<'a>,
    /// `version`
    pub version: JsonStr<'a>,
    /// `title`
    pub title: Option<JsonStr<'a>>,
    /// `description`
    pub description: Option<JsonStr<'a>>,
    /// `websiteUrl`
    pub website_url: Option<JsonStr<'a>>,
    /// `icons`
    pub icons: Option<Seq<'a, Icon<'a>>>,
}

impl<'a> Implementation<'a> {
    /// `{name, version}`.
    #[must_use]
    pub const fn new(name: &'a str, version: &'a str) -> Self {
        Self {
            name: JsonStr::new(name),
            version: JsonStr::new(version),
            title: None,
            description: None,
            website_url: None,
            icons: None,
        }
    }
}

impl<'a> FromJson<'a> for Implementation<'a> {
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(never)
    )]
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        if !crate::WIDE {
            return Self::decode_compact(c);
        }
        Self::decode_wide(c)
    }
}

const IMPLEMENTATION_KEYS: &Keys = keys![
    "name",
    "version",
    "title",
    "description",
    "websiteUrl",
    "icons",
];

impl<'a> Implementation<'a> {
    /// [`FromJson::decode`] as compact targets run it (`crate::WIDE`): the shared walk
    /// ([`members`]). Same answers (`messages::compact_tests`).
    pub(crate) fn decode_compact(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut v = Self::new("", "");
        v.decode_compact_in(c)?;
        Ok(v)
    }

    /// [`Implementation::decode_compact`] into `self` (any value; unspecified after an
    /// error): `_meta`'s `clientInfo` decoded where it stays.
    pub(crate) fn decode_compact_in(&mut self, c: &mut Cursor<'a>) -> Result<(), DecodeError> {
        let mut s: [Option<JsonStr<'a>>; 5] = [None; 5];
        let mut icons = None;
        let names = IMPLEMENTATION_KEYS;
        members(c, names, "implementation", 0b1_1111, &mut s, &mut |_, c| {
            Seq::decode(c, "icons").map(|v| icons = Some(v))
        })?;
        let [name, version, title, description, website_url] = s;
        // One error for both required members, naming the first one missing.
        let (Some(name), Some(version)) = (name, version) else {
            let missing = if name.is_none() { "name" } else { "version" };
            return Err(ParamsError::missing(missing).into());
        };
        *self = Self {
            name,
            version,
            title,
            description,
            website_url,
            icons,
        };
        Ok(())
    }

    /// [`FromJson::decode`] as wide targets run it.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn decode_wide(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut v = Self::new("", "");
        v.decode_in(c)?;
        Ok(v)
    }

    /// [`FromJson::decode`] into `self`, which must be `new("", "")` (wide targets; e.g.
    /// `_meta`'s `clientInfo` decoded where it stays). `self` is unspecified after an error.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn decode_in(&mut self, c: &mut Cursor<'a>) -> Result<(), DecodeError> {
        let mut f = obj(c, IMPLEMENTATION_KEYS, "implementation")?;
        let (mut name, mut version) = (None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => name = Some(string(c, "name")?),
                1 => version = Some(string(c, "version")?),
                2 => self.title = Some(string(c, "title")?),
                3 => self.description = Some(string(c, "description")?),
                4 => self.website_url = Some(string(c, "websiteUrl")?),
                _ => self.icons = Some(Seq::decode(c, "icons")?),
            }
        }
        self.name = required(name, "name")?;
        self.version = required(version, "version")?;
        Ok(())
    }
}

impl Encode for Implementation<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(key!("name"), &self.name)?;
        w.member(key!("version"), &self.version)?;
        w.opt_member(key!("title"), &self.title)?;
        w.opt_member(key!("description"), &self.description)?;
        w.opt_member(key!("websiteUrl"), &self.website_url)?;
        w.opt_member(key!("icons"), &self.icons)?;
        w.end_object()
    }
}

const REQUEST_META_KEYS: &Keys = keys![
    PROTOCOL_VERSION_KEY,
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    LOG_LEVEL_KEY,
    "progressToken",
    "traceparent",
    "tracestate",
    "baggage",
];

/// The per-request `params._meta` (`RequestMetaObject`, docs/rules.md §1.1). Both
/// `protocolVersion` and `clientCapabilities` are required: a request without them is
/// rejected with `-32602` (docs/rules.md §16.1 rule 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RequestMeta<'a> {
    /// `io.modelcontextprotocol/protocolVersion`
    pub protocol_version: JsonStr<'a>,
    /// `io.modelcontextprotocol/clientCapabilities`
    pub client_capabilities: ClientCapabilities<'a>,
    /// `io.modelcontextprotocol/clientInfo`
    pub client_info: Option<Implementation<'a>>,
    /// `io.modelcontextprotocol/logLevel` (deprecated; absent = no log notifications).
    pub log_level: Option<LoggingLevel>,
    /// `progressToken` (a string or an integer).
    pub progress_token: Option<RequestId<'a>>,
    /// `traceparent` (W3C Trace Context).
    pub traceparent: Option<JsonStr<'a>>,
    /// `tracestate` (W3C Trace Context).
    pub tracestate: Option<JsonStr<'a>>,
    /// `baggage` (W3C Baggage).
    pub baggage: Option<JsonStr<'a>>,
    /// The whole `_meta` object as received, when it holds keys this view does not type
    /// (`None` otherwise); those keys are re-emitted on encode.
    pub extra: Option<RawJson<'a>>,
}

impl<'a> RequestMeta<'a> {
    /// The two required keys, nothing else.
    #[must_use]
    pub const fn new(protocol_version: &'a str, capabilities: ClientCapabilities<'a>) -> Self {
        Self {
            protocol_version: JsonStr::new(protocol_version),
            client_capabilities: capabilities,
            client_info: None,
            log_level: None,
            progress_token: None,
            traceparent: None,
            tracestate: None,
            baggage: None,
            extra: None,
        }
    }
}

impl<'a> FromJson<'a> for RequestMeta<'a> {
    #[cfg_attr(
        not(any(target_pointer_width = "64", target_family = "wasm")),
        inline(never)
    )]
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        if !crate::WIDE {
            return Self::decode_compact(c);
        }
        Self::decode_wide(c)
    }
}

impl<'a> RequestMeta<'a> {
    /// [`FromJson::decode`] as wide targets run it (`crate::WIDE`).
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn decode_wide(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut m = Self::new("", ClientCapabilities::EMPTY);
        Self::decode_in(c, &mut m)?;
        Ok(m)
    }

    /// [`RequestMeta::decode_wide`] into `m`, which must be `new("", EMPTY)`: lets a wide
    /// params decoder build its `_meta` in place. `m` is unspecified after an error.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn decode_in(c: &mut Cursor<'a>, m: &mut Self) -> Result<(), DecodeError> {
        let (from, text) = (start(c), c.clone());
        let mut f = obj(c, REQUEST_META_KEYS, "_meta")?;
        let (mut version, mut caps) = (None, None);
        while let Some(i) = f.next(c)? {
            match i {
                0 => version = Some(string(c, PROTOCOL_VERSION_KEY)?),
                1 => {
                    caps = Some(ClientCapabilities::decode_field(
                        c,
                        CLIENT_CAPABILITIES_KEY,
                    )?)
                }
                2 => m
                    .client_info
                    .insert(Implementation::new("", ""))
                    .decode_in(c)?,
                3 => m.log_level = Some(LoggingLevel::decode(c)?),
                4 => m.progress_token = Some(id(c, "progressToken")?),
                5 => m.traceparent = Some(string(c, "traceparent")?),
                6 => m.tracestate = Some(string(c, "tracestate")?),
                _ => m.baggage = Some(string(c, "baggage")?),
            }
        }
        m.protocol_version = required(version, PROTOCOL_VERSION_KEY)?;
        m.client_capabilities = required(caps, CLIENT_CAPABILITIES_KEY)?;
        if f.skipped() {
            m.extra = text.slice(from, c.position());
        }
        Ok(())
    }
}

impl<'a> RequestMeta<'a> {
    /// [`FromJson::decode`] as compact targets run it (`crate::WIDE`): the string members
    /// share one arm, named from the key table. Same answers (`messages::compact_tests`).
    pub(crate) fn decode_compact(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut m = Self::new("", ClientCapabilities::EMPTY);
        Self::decode_compact_in(c, &mut m)?;
        Ok(m)
    }

    /// [`RequestMeta::decode_compact`] into `m`, which must be `new("", EMPTY)`: a params
    /// decoder builds its `_meta` where it stays instead of moving it through `Result`s.
    /// `m` is unspecified after an error.
    pub(crate) fn decode_compact_in(c: &mut Cursor<'a>, m: &mut Self) -> Result<(), DecodeError> {
        let (from, text) = (start(c), c.clone());
        // Indexed as the keys; 0 (protocolVersion) and 5..=7 are strings.
        let mut s: [Option<JsonStr<'a>>; 8] = [None; 8];
        let mut caps = false;
        let strings = 1 | 0b111 << 5;
        let skipped = members(
            c,
            REQUEST_META_KEYS,
            "_meta",
            strings,
            &mut s,
            // Each arm's error is the closure's answer (one exit for all four).
            &mut |i, c| match i {
                1 => m
                    .client_capabilities
                    .decode_compact_in(c, CLIENT_CAPABILITIES_KEY)
                    .map(|()| caps = true),
                2 => (m.client_info.insert(Implementation::new("", ""))).decode_compact_in(c),
                3 => LoggingLevel::decode(c).map(|v| m.log_level = Some(v)),
                _ => id(c, "progressToken").map(|v| m.progress_token = Some(v)),
            },
        )?;
        let [version, .., traceparent, tracestate, baggage] = s;
        // One error for both required members, naming the first one missing.
        let (Some(version), true) = (version, caps) else {
            let missing = if version.is_none() {
                PROTOCOL_VERSION_KEY
            } else {
                CLIENT_CAPABILITIES_KEY
            };
            return Err(ParamsError::missing(missing).into());
        };
        m.protocol_version = version;
        (m.traceparent, m.tracestate, m.baggage) = (traceparent, tracestate, baggage);
        if skipped {
            m.extra = text.slice(from, c.position());
        }
        Ok(())
    }
}

impl Encode for RequestMeta<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.member(
            key!(PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"),
            &self.protocol_version,
        )?;
        w.member(
            key!(CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"),
            &self.client_capabilities,
        )?;
        w.opt_member(
            key!(CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"),
            &self.client_info,
        )?;
        w.opt_member(
            key!(LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"),
            &self.log_level,
        )?;
        w.opt_member(key!("progressToken"), &self.progress_token)?;
        w.opt_member(key!("traceparent"), &self.traceparent)?;
        w.opt_member(key!("tracestate"), &self.tracestate)?;
        w.opt_member(key!("baggage"), &self.baggage)?;
        encode_extra(w, self.extra, REQUEST_META_KEYS.names)?;
        w.end_object()
    }
}

/// A notification's `params._meta` (`NotificationMetaObject`, docs/rules.md §1.3).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct NotificationMeta<'a> {
    /// `io.modelcontextprotocol/subscriptionId`: the id of the `subscriptions/listen`
    /// request whose stream carries the notification, in its JSON type (docs/rules.md §11.3).
    /// Absent on legacy notifications (docs/rules.md §17.2 item 4).
    pub subscription_id: Option<RequestId<'a>>,
    /// The whole `_meta` object as received, when it holds keys this view does not type
    /// (`None` otherwise); those keys are re-emitted on encode.
    pub extra: Option<RawJson<'a>>,
}

impl<'a> NotificationMeta<'a> {
    /// `{"io.modelcontextprotocol/subscriptionId": id}`.
    #[must_use]
    pub const fn subscription(id: RequestId<'a>) -> Self {
        Self {
            subscription_id: Some(id),
            extra: None,
        }
    }
}

impl<'a> FromJson<'a> for NotificationMeta<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let (from, text) = (start(c), c.clone());
        let mut f = obj(c, keys![SUBSCRIPTION_ID_KEY], "_meta")?;
        let mut subscription_id = None;
        while f.next(c)?.is_some() {
            subscription_id = Some(id(c, SUBSCRIPTION_ID_KEY)?);
        }
        Ok(Self {
            subscription_id,
            extra: f
                .skipped()
                .then(|| text.slice(from, c.position()))
                .flatten(),
        })
    }
}

impl Encode for NotificationMeta<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.opt_member(
            key!(SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId"),
            &self.subscription_id,
        )?;
        encode_extra(w, self.extra, &[SUBSCRIPTION_ID_KEY])?;
        w.end_object()
    }
}

const RESULT_META_KEYS: &Keys = keys![SERVER_INFO_KEY, SUBSCRIPTION_ID_KEY];

/// A result's `_meta` (`ResultMetaObject`, docs/rules.md §1.2, and the listen result's
/// `subscriptionId`, docs/rules.md §11.4).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ResultMeta<'a> {
    /// `io.modelcontextprotocol/serverInfo` (servers SHOULD include it).
    pub server_info: Option<Implementation<'a>>,
    /// `io.modelcontextprotocol/subscriptionId` (required on a `subscriptions/listen` result).
    pub subscription_id: Option<RequestId<'a>>,
    /// The whole `_meta` object as received, when it holds keys this view does not type
    /// (`None` otherwise); those keys are re-emitted on encode.
    pub extra: Option<RawJson<'a>>,
}

impl<'a> ResultMeta<'a> {
    /// `{"io.modelcontextprotocol/serverInfo": info}`.
    #[must_use]
    pub const fn server_info(info: Implementation<'a>) -> Self {
        Self {
            server_info: Some(info),
            subscription_id: None,
            extra: None,
        }
    }
}

impl<'a> FromJson<'a> for ResultMeta<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let (from, text) = (start(c), c.clone());
        let mut f = obj(c, RESULT_META_KEYS, "_meta")?;
        let mut m = Self::default();
        while let Some(i) = f.next(c)? {
            match i {
                0 => m.server_info = Some(Implementation::decode(c)?),
                _ => m.subscription_id = Some(id(c, SUBSCRIPTION_ID_KEY)?),
            }
        }
        if f.skipped() {
            m.extra = text.slice(from, c.position());
        }
        Ok(m)
    }
}

impl Encode for ResultMeta<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.opt_member(
            key!(SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"),
            &self.server_info,
        )?;
        w.opt_member(
            key!(SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId"),
            &self.subscription_id,
        )?;
        encode_extra(w, self.extra, RESULT_META_KEYS.names)?;
        w.end_object()
    }
}
