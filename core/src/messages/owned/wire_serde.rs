//! `Serialize` and `Deserialize` (feature `serde`) for the owned message types, in the
//! spec's wire shape (camelCase keys, `resultType`, `_meta.serverInfo`, `ttlMs`…).
//!
//! There is one encoder and one decoder per shape, and serde goes through them: serialising
//! encodes with the type's JSON encoder and replays the JSON into the serializer; the
//! deserializer's data is written out as JSON text and decoded by
//! [`FromJsonText`](super::FromJsonText), the same checks as a message from the wire. So
//! `serde_json::from_value::<OwnedResource>(v)` refuses what the schema refuses (a resource
//! without `name` is an error naming the field), and any serde format that can carry JSON's
//! data model works.
//!
//! ```
//! use mcp_context::messages::owned::OwnedResource;
//! let r: OwnedResource = serde_json::from_str(r#"{"uri":"file:///a.md","name":"a"}"#).unwrap();
//! assert_eq!(r.name, "a");
//! assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"uri":"file:///a.md","name":"a"}"#);
//! assert!(serde_json::from_str::<OwnedResource>(r#"{"uri":"file:///a.md"}"#).is_err());
//! ```

use alloc::string::String;
use core::fmt::{self, Write as _};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{self, SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use super::{
    AsView, FromJsonText, OwnedAcknowledged, OwnedAnnotations, OwnedCancelled, OwnedCompleteResult,
    OwnedContentBlock, OwnedDiscoverResult, OwnedErrorResponse, OwnedGetPromptResult, OwnedIcon,
    OwnedImplementation, OwnedInputRequest, OwnedInputRequiredResult, OwnedJson, OwnedListChanged,
    OwnedListPromptsResult, OwnedListResourceTemplatesResult, OwnedListResourcesResult,
    OwnedListenResult, OwnedPrompt, OwnedPromptArgument, OwnedPromptMessage,
    OwnedReadResourceResult, OwnedResource, OwnedResourceContents, OwnedResourceTemplate,
    OwnedResourceUpdated, OwnedResponse, OwnedServerCapabilities, OwnedSubscriptionFilter,
};
use crate::json::{Encode, JsonKind, RawJson, to_string};

/// A validated JSON value replayed into any serializer.
struct Replay<'a>(RawJson<'a>);

impl Serialize for Replay<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        match v.kind() {
            JsonKind::Null => s.serialize_unit(),
            JsonKind::Bool => s.serialize_bool(v.as_bool().unwrap_or_default()),
            JsonKind::Number => {
                let n = v
                    .as_number()
                    .ok_or_else(|| ser::Error::custom("invalid number"))?;
                if n.is_integer_literal() {
                    if let Some(i) = n.as_i64() {
                        return s.serialize_i64(i);
                    }
                    if let Some(u) = n.as_u64() {
                        return s.serialize_u64(u);
                    }
                }
                match n.as_f64() {
                    Some(f) => s.serialize_f64(f),
                    None => Err(ser::Error::custom("number out of range")),
                }
            }
            JsonKind::String => match v.as_str() {
                Some(text) => s.serialize_str(&text.to_cow()),
                None => Err(ser::Error::custom("invalid string")),
            },
            JsonKind::Array => {
                let items = v.array().into_iter().flatten();
                let mut seq = s.serialize_seq(Some(items.clone().count()))?;
                for item in items {
                    seq.serialize_element(&Replay(item))?;
                }
                seq.end()
            }
            JsonKind::Object => {
                let members = v.object().into_iter().flatten();
                let mut map = s.serialize_map(Some(members.clone().count()))?;
                for (key, value) in members {
                    map.serialize_entry(&*key.to_cow(), &Replay(value))?;
                }
                map.end()
            }
        }
    }
}

fn replay<E: Encode + ?Sized, S: Serializer>(value: &E, s: S) -> Result<S::Ok, S::Error> {
    let text = to_string(value).map_err(ser::Error::custom)?;
    let raw = RawJson::parse(text.as_bytes()).map_err(ser::Error::custom)?;
    Replay(raw).serialize(s)
}

/// Writes whatever a deserializer holds as JSON text.
struct Text<'a>(&'a mut String);

impl<'de> DeserializeSeed<'de> for Text<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

fn push_str<E: de::Error>(out: &mut String, s: &str) -> Result<(), E> {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                write!(out, "\\u{:04x}", c as u32).map_err(|_| E::custom("write"))?;
            }
            c => out.push(c),
        }
    }
    out.push('"');
    Ok(())
}

impl<'de> Visitor<'de> for Text<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.0.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        write!(self.0, "{v}").map_err(|_| E::custom("write"))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        write!(self.0, "{v}").map_err(|_| E::custom("write"))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        if !v.is_finite() {
            return Err(E::custom("JSON has no NaN or infinity"));
        }
        // `Display` of a finite f64 is a valid JSON number that reads back exactly.
        write!(self.0, "{v}").map_err(|_| E::custom("write"))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        push_str(self.0, v)
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.push_str("null");
        Ok(())
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.push('[');
        let mut first = true;
        loop {
            let mark = self.0.len();
            if !first {
                self.0.push(',');
            }
            if seq.next_element_seed(Text(self.0))?.is_none() {
                self.0.truncate(mark);
                break;
            }
            first = false;
        }
        self.0.push(']');
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.push('{');
        let mut first = true;
        while let Some(key) = map.next_key::<Key>()? {
            if !first {
                self.0.push(',');
            }
            first = false;
            push_str::<A::Error>(self.0, &key.0)?;
            self.0.push(':');
            map.next_value_seed(Text(self.0))?;
        }
        self.0.push('}');
        Ok(())
    }
}

/// An object key: JSON keys are strings.
struct Key(String);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
                Ok(Key(String::from(v)))
            }
        }
        d.deserialize_str(V)
    }
}

fn decode<'de, T: FromJsonText, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    let mut text = String::new();
    Text(&mut text).deserialize(d)?;
    T::from_json_text(&text).map_err(de::Error::custom)
}

macro_rules! serde_via_view {
    ($($t:ty),* $(,)?) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                replay(&self.view(), s)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                decode(d)
            }
        }
    )*};
}

macro_rules! serde_via_encode {
    ($($t:ty),* $(,)?) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                replay(self, s)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                decode(d)
            }
        }
    )*};
}

serde_via_view!(
    OwnedIcon,
    OwnedImplementation,
    OwnedAnnotations,
    OwnedResource,
    OwnedResourceTemplate,
    OwnedPromptArgument,
    OwnedPrompt,
    OwnedResourceContents,
    OwnedContentBlock,
    OwnedPromptMessage,
    OwnedSubscriptionFilter,
);

serde_via_encode!(
    OwnedServerCapabilities,
    OwnedDiscoverResult,
    OwnedListResourcesResult,
    OwnedListResourceTemplatesResult,
    OwnedListPromptsResult,
    OwnedReadResourceResult,
    OwnedGetPromptResult,
    OwnedCompleteResult,
    OwnedInputRequest,
    OwnedInputRequiredResult,
    OwnedListenResult,
    OwnedAcknowledged,
    OwnedResourceUpdated,
    OwnedListChanged,
    OwnedCancelled,
    OwnedErrorResponse,
);

/// Any JSON value, as is.
impl Serialize for OwnedJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Replay(self.as_raw()).serialize(s)
    }
}

impl<'de> Deserialize<'de> for OwnedJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        decode(d)
    }
}

/// `{"jsonrpc":"2.0","id":…,"result":…}`.
impl<R: Encode> Serialize for OwnedResponse<R> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        replay(self, s)
    }
}

impl<'de, R: FromJsonText> Deserialize<'de> for OwnedResponse<R> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        decode(d)
    }
}
