//! Client and server capabilities (docs/rules.md §1.6).

use super::common::{Enc, boolean, obj, object};
use crate::json::fields::{Keys, keys};
use crate::json::key;
use crate::json::{Cursor, Encode, JsonKind, JsonSink, RawJson, Writer};
use crate::jsonrpc::{DecodeError, FromJson, ParamsError};

/// What a client supports, sent on every request (`ClientCapabilities`, docs/rules.md §1.6). Each
/// member is kept as its raw object; the accessors answer the questions MRTR asks
/// (docs/rules.md §13: a server may only send input requests the client declared).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClientCapabilities<'a> {
    /// `elicitation` (`{form?, url?}`).
    pub elicitation: Option<RawJson<'a>>,
    /// `roots` (deprecated).
    pub roots: Option<RawJson<'a>>,
    /// `sampling` (`{context?, tools?}`, deprecated).
    pub sampling: Option<RawJson<'a>>,
    /// `experimental`: name → settings object.
    pub experimental: Option<RawJson<'a>>,
    /// `extensions`: prefixed id → settings object.
    pub extensions: Option<RawJson<'a>>,
}

const CLIENT_KEYS: &Keys = keys![
    "elicitation",
    "roots",
    "sampling",
    "experimental",
    "extensions",
];

impl<'a> ClientCapabilities<'a> {
    /// `{}`: no optional capabilities.
    pub const EMPTY: ClientCapabilities<'static> = ClientCapabilities {
        elicitation: None,
        roots: None,
        sampling: None,
        experimental: None,
        extensions: None,
    };

    /// Decodes the capabilities at `c`, naming `field` in errors.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    pub(crate) fn decode_field(
        c: &mut Cursor<'a>,
        field: &'static str,
    ) -> Result<Self, DecodeError> {
        if !crate::WIDE {
            let mut caps = Self::EMPTY;
            caps.decode_compact_in(c, field)?;
            return Ok(caps);
        }
        // `{}`, what most clients send, read in one step (wide targets: less code without).
        if c.empty_object() {
            return Ok(Self::EMPTY);
        }
        Self::decode_members(c, field)
    }

    /// [`ClientCapabilities::decode_field`] as compact targets run it ([`crate::WIDE`]), into
    /// `self`, which must be [`ClientCapabilities::EMPTY`] (unspecified after an error): a
    /// `_meta` decoder builds them where they stay. The members, then
    /// [`ClientCapabilities::nested_objects_only`].
    pub(crate) fn decode_compact_in(
        &mut self,
        c: &mut Cursor<'a>,
        field: &'static str,
    ) -> Result<(), DecodeError> {
        self.read_members(c, field)?;
        self.nested_objects_only(field)
    }

    /// The object's members into `self` (which must be [`ClientCapabilities::EMPTY`]), each
    /// an object, before the checks of their contents.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(always)
    )]
    fn read_members(&mut self, c: &mut Cursor<'a>, field: &'static str) -> Result<(), DecodeError> {
        let mut f = obj(c, CLIENT_KEYS, field)?;
        while let Some(i) = f.next(c)? {
            let v = Some(object(c, field)?);
            match i {
                0 => self.elicitation = v,
                1 => self.roots = v,
                2 => self.sampling = v,
                3 => self.experimental = v,
                _ => self.extensions = v,
            }
        }
        Ok(())
    }

    /// [`ClientCapabilities::decode_field`] by the general walk.
    #[cfg_attr(
        any(target_pointer_width = "64", target_family = "wasm"),
        inline(never)
    )]
    fn decode_members(c: &mut Cursor<'a>, field: &'static str) -> Result<Self, DecodeError> {
        let mut caps = Self::EMPTY;
        caps.read_members(c, field)?;
        let not_object = |v: RawJson<'_>| v.kind() != JsonKind::Object;
        for (cap, subs) in [
            (caps.elicitation, ["form", "url"]),
            (caps.sampling, ["context", "tools"]),
        ] {
            if subs
                .iter()
                .filter_map(|s| cap.and_then(|c| c.get(s)))
                .any(not_object)
            {
                return Err(ParamsError::wrong_type(field).into());
            }
        }
        for map in [caps.experimental, caps.extensions].into_iter().flatten() {
            if map
                .object()
                .into_iter()
                .flatten()
                .any(|(_, v)| not_object(v))
            {
                return Err(ParamsError::wrong_type(field).into());
            }
        }
        Ok(caps)
    }

    /// The checks that close [`ClientCapabilities::decode_field`], as plain loops: what compact
    /// targets run (`crate::WIDE`; the iterator chains are more code there). Same checks in the
    /// same order (`tests`).
    fn nested_objects_only(&self, field: &'static str) -> Result<(), DecodeError> {
        // One walk per capability: `elicitation` and `sampling` check the first member of
        // each of their two mode keys (as `RawJson::get` finds it), the maps every member.
        let modes: [&[&str]; 4] = [&["form", "url"], &["context", "tools"], &[], &[]];
        let caps = [
            self.elicitation,
            self.sampling,
            self.experimental,
            self.extensions,
        ];
        for (cap, subs) in caps.into_iter().zip(modes) {
            let Some(members) = cap.and_then(|m| m.object()) else {
                continue;
            };
            let mut seen = 0u8;
            for (k, v) in members {
                let checked = subs.is_empty()
                    || subs.iter().enumerate().any(|(i, s)| {
                        let first = k == *s && seen & (1 << i) == 0;
                        if first {
                            seen |= 1 << i;
                        }
                        first
                    });
                if checked && v.kind() != JsonKind::Object {
                    return Err(ParamsError::wrong_type(field).into());
                }
            }
        }
        Ok(())
    }

    /// As [`ClientCapabilities::decode_field`], over a validated value.
    pub(crate) fn decode_raw(v: RawJson<'a>, field: &'static str) -> Result<Self, ParamsError> {
        Self::decode_field(&mut Cursor::over(v), field).map_err(|e| match e {
            DecodeError::Params(p) => p,
            _ => ParamsError::wrong_type(field),
        })
    }

    /// Form-mode elicitation: `elicitation.form`, or an `elicitation` object with neither
    /// mode (the schema's "form only, implicit" example).
    #[must_use]
    pub fn elicitation_form(&self) -> bool {
        self.elicitation
            .is_some_and(|e| e.get("form").is_some() || e.get("url").is_none())
    }

    /// URL-mode elicitation: `elicitation.url`.
    #[must_use]
    pub fn elicitation_url(&self) -> bool {
        self.elicitation.is_some_and(|e| e.get("url").is_some())
    }

    /// `sampling` is declared.
    #[must_use]
    pub fn sampling(&self) -> bool {
        self.sampling.is_some()
    }

    /// `roots` is declared.
    #[must_use]
    pub fn roots(&self) -> bool {
        self.roots.is_some()
    }

    /// The settings of extension `id`, when declared.
    #[must_use]
    pub fn extension(&self, id: &str) -> Option<RawJson<'a>> {
        self.extensions?.get(id)
    }
}

impl<'a> FromJson<'a> for ClientCapabilities<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        Self::decode_field(c, "capabilities")
    }
}

impl Encode for ClientCapabilities<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        for (name, v) in CLIENT_KEYS.names.iter().zip([
            self.elicitation,
            self.roots,
            self.sampling,
            self.experimental,
            self.extensions,
        ]) {
            w.opt_field(name, &v)?;
        }
        w.end_object()
    }
}

/// `resources` in [`ServerCapabilities`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ResourcesCapability {
    /// `subscribe`: honours `resourceSubscriptions` in `subscriptions/listen`.
    pub subscribe: Option<bool>,
    /// `listChanged`: emits `notifications/resources/list_changed`.
    pub list_changed: Option<bool>,
}

/// `prompts` or `tools` in [`ServerCapabilities`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ListChangedCapability {
    /// `listChanged`: emits the matching `list_changed` notification.
    pub list_changed: Option<bool>,
}

/// What a server supports, returned by `server/discover` (docs/rules.md §1.6, §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ServerCapabilities<'a> {
    /// `resources` (declare `{}` even without flags, docs/rules.md §19 item 12).
    pub resources: Option<ResourcesCapability>,
    /// `prompts`
    pub prompts: Option<ListChangedCapability>,
    /// `tools`
    pub tools: Option<ListChangedCapability>,
    /// `completions` (an object, usually `{}`).
    pub completions: Option<RawJson<'a>>,
    /// `logging` (deprecated; an object).
    pub logging: Option<RawJson<'a>>,
    /// `experimental`: name → settings object.
    pub experimental: Option<RawJson<'a>>,
    /// `extensions`: prefixed id → settings object.
    pub extensions: Option<RawJson<'a>>,
}

const SERVER_KEYS: &Keys = keys![
    "resources",
    "prompts",
    "tools",
    "completions",
    "logging",
    "experimental",
    "extensions",
];

fn list_changed(c: &mut Cursor<'_>, field: &'static str) -> Result<Option<bool>, DecodeError> {
    let mut f = obj(c, keys!["listChanged"], field)?;
    let mut flag = None;
    while f.next(c)?.is_some() {
        flag = Some(boolean(c, "listChanged")?);
    }
    Ok(flag)
}

impl<'a> FromJson<'a> for ServerCapabilities<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(c, SERVER_KEYS, "capabilities")?;
        let mut caps = Self::default();
        while let Some(i) = f.next(c)? {
            match i {
                0 => {
                    let mut r = ResourcesCapability::default();
                    let mut g = obj(c, keys!["subscribe", "listChanged"], "resources")?;
                    while let Some(j) = g.next(c)? {
                        let flag = Some(boolean(c, "resources")?);
                        if j == 0 {
                            r.subscribe = flag
                        } else {
                            r.list_changed = flag
                        }
                    }
                    caps.resources = Some(r);
                }
                1 => {
                    caps.prompts = Some(ListChangedCapability {
                        list_changed: list_changed(c, "prompts")?,
                    })
                }
                2 => {
                    caps.tools = Some(ListChangedCapability {
                        list_changed: list_changed(c, "tools")?,
                    })
                }
                3 => caps.completions = Some(object(c, "completions")?),
                4 => caps.logging = Some(object(c, "logging")?),
                5 => caps.experimental = Some(object(c, "experimental")?),
                _ => caps.extensions = Some(object(c, "extensions")?),
            }
        }
        Ok(caps)
    }
}

fn encode_list_changed<S: JsonSink + ?Sized>(
    w: &mut Writer<'_, S>,
    key: &str,
    cap: Option<ListChangedCapability>,
) -> Enc {
    let Some(cap) = cap else { return Ok(()) };
    w.key(key)?;
    w.begin_object()?;
    w.opt_member(key!("listChanged"), &cap.list_changed)?;
    w.end_object()
}

impl Encode for ServerCapabilities<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        if let Some(r) = self.resources {
            w.key_of(key!("resources"))?;
            w.begin_object()?;
            w.opt_member(key!("subscribe"), &r.subscribe)?;
            w.opt_member(key!("listChanged"), &r.list_changed)?;
            w.end_object()?;
        }
        encode_list_changed(w, "prompts", self.prompts)?;
        encode_list_changed(w, "tools", self.tools)?;
        w.opt_member(key!("completions"), &self.completions)?;
        w.opt_member(key!("logging"), &self.logging)?;
        w.opt_member(key!("experimental"), &self.experimental)?;
        w.opt_member(key!("extensions"), &self.extensions)?;
        w.end_object()
    }
}

#[cfg(test)]
mod tests {
    use super::ClientCapabilities;
    use crate::json::{JsonKind, RawJson};

    /// The compact targets' closing checks accept exactly what the generic decoder accepts,
    /// for capability objects whose members are objects (the member loop's own check).
    #[test]
    fn nested_checks_both_forms_agree() {
        let inputs: &[&[u8]] = &[
            b"{}",
            br#"{"elicitation":{}}"#,
            br#"{"elicitation":{"form":{}}}"#,
            br#"{"elicitation":{"form":1}}"#,
            br#"{"elicitation":{"url":{},"form":{}}}"#,
            br#"{"elicitation":{"url":[]}}"#,
            br#"{"elicitation":{"other":1}}"#,
            br#"{"elicitation":{"form":{},"form":2}}"#,
            br#"{"elicitation":{"form":2,"form":{}}}"#,
            br#"{"sampling":{"context":{},"tools":{}}}"#,
            br#"{"sampling":{"tools":"yes"}}"#,
            br#"{"sampling":{"tools":{},"context":{},"tools":1}}"#,
            br#"{"sampling":{"context":{},"tools":{},"context":[]}}"#,
            br#"{"elicitation":{"f\u006frm":1}}"#,
            br#"{"elicitation":{"url":{},"f\u006frm":{},"form":3}}"#,
            br#"{"roots":{"listChanged":true}}"#,
            br#"{"experimental":{"a":{},"b":{}}}"#,
            br#"{"experimental":{"a":{},"b":null}}"#,
            br#"{"extensions":{"io.x/y":{"k":1}}}"#,
            br#"{"extensions":{"io.x/y":true}}"#,
            br#"{"experimental":{},"extensions":{"a":{}},"sampling":{},"elicitation":{"url":{}}}"#,
        ];
        for bytes in inputs {
            let v = RawJson::parse(bytes).unwrap();
            let member = |name: &str| v.get(name).filter(|m| m.kind() == JsonKind::Object);
            let caps = ClientCapabilities {
                elicitation: member("elicitation"),
                roots: member("roots"),
                sampling: member("sampling"),
                experimental: member("experimental"),
                extensions: member("extensions"),
            };
            let generic = ClientCapabilities::decode_raw(v, "caps");
            assert_eq!(
                caps.nested_objects_only("caps").is_ok(),
                generic.is_ok(),
                "{:?}",
                core::str::from_utf8(bytes)
            );
            if let Ok(g) = generic {
                assert_eq!(g, caps);
            }
        }
    }
}
