//! JS-shaped values: what the machines' outputs look like on the JS side, built once here
//! and rendered by each engine (the napi addon into JS objects, the wasm crate into JSON text
//! for `JSON.parse`, [`Js::write_json`]).

use std::borrow::Cow;

use mcp_context::jsonrpc::OwnedRequestId;

use crate::error::Error;

/// The largest integer a JS `number` holds exactly.
pub const MAX_SAFE: u64 = (1 << 53) - 1;

/// A value as JS sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Js {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A `u64`: a `number` while exact, else a `bigint` (in JSON text: decimal digits in a
    /// string, which the wasm glue makes a `bigint` where such keys are read).
    U64(u64),
    /// A `number`.
    Num(f64),
    /// A string.
    Str(Cow<'static, str>),
    /// JSON text the engine parses (`JSON.parse`): the JSON the core holds, verbatim.
    Json(String),
    /// Bytes: a `Buffer` on the addon, an array of numbers in JSON text.
    Bytes(Vec<u8>),
    /// A request id with its exact value and JSON type (a string, a `number` while exact,
    /// else a `bigint`; in JSON text a decimal string with a sibling `bigId: true`).
    Id(OwnedRequestId),
    /// An array.
    Arr(Vec<Js>),
    /// An object of own keys.
    Obj(Obj),
    /// An `Error` object carried by an output (not thrown).
    Error(Box<Error>),
}

/// An object: keys in insertion order, each an own key (`__proto__` included).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Obj(pub Vec<(Cow<'static, str>, Js)>);

impl Obj {
    /// `{type: ty}`.
    #[must_use]
    pub fn typed(ty: impl Into<Cow<'static, str>>) -> Self {
        Self(vec![(Cow::Borrowed("type"), Js::Str(ty.into()))])
    }

    /// Adds `key: value`.
    pub fn set(&mut self, key: impl Into<Cow<'static, str>>, value: impl Into<Js>) -> &mut Self {
        self.0.push((key.into(), value.into()));
        self
    }

    /// `[(k, v), …]` as an object of strings (later duplicates win when parsed).
    #[must_use]
    pub fn pairs(pairs: &[(String, String)]) -> Self {
        Self(
            pairs
                .iter()
                .map(|(k, v)| (Cow::Owned(k.clone()), Js::Str(Cow::Owned(v.clone()))))
                .collect(),
        )
    }

    /// The value of `key`, if set.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Js> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl From<Obj> for Js {
    fn from(o: Obj) -> Self {
        Js::Obj(o)
    }
}
impl From<bool> for Js {
    fn from(b: bool) -> Self {
        Js::Bool(b)
    }
}
impl From<u64> for Js {
    fn from(n: u64) -> Self {
        Js::U64(n)
    }
}
impl From<u32> for Js {
    fn from(n: u32) -> Self {
        Js::U64(u64::from(n))
    }
}
impl From<u16> for Js {
    fn from(n: u16) -> Self {
        Js::U64(u64::from(n))
    }
}
impl From<&'static str> for Js {
    fn from(s: &'static str) -> Self {
        Js::Str(Cow::Borrowed(s))
    }
}
impl From<String> for Js {
    fn from(s: String) -> Self {
        Js::Str(Cow::Owned(s))
    }
}
impl From<Error> for Js {
    fn from(e: Error) -> Self {
        Js::Error(Box::new(e))
    }
}
impl<T: Into<Js>> From<Option<T>> for Js {
    fn from(v: Option<T>) -> Self {
        v.map_or(Js::Null, Into::into)
    }
}
impl From<Vec<String>> for Js {
    fn from(v: Vec<String>) -> Self {
        Js::Arr(v.into_iter().map(Js::from).collect())
    }
}

/// `(name, value)` header pairs as `[[name, value], …]`.
pub fn header_pairs<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> Js {
    Js::Arr(
        pairs
            .map(|(k, v)| Js::Arr(vec![Js::from(k.to_owned()), Js::from(v.to_owned())]))
            .collect(),
    )
}

impl Js {
    /// This value as JSON text for `JSON.parse` on the wasm side (the marks of
    /// [`Js::U64`], [`Js::Id`] and [`Js::Error`] are read back by `wasm/engine.mjs`).
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    /// Appends this value as JSON text.
    pub fn write_json(&self, out: &mut String) {
        match self {
            Js::Null => out.push_str("null"),
            Js::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Js::U64(n) if *n <= MAX_SAFE => out.push_str(&n.to_string()),
            Js::U64(n) => push_string(out, &n.to_string()),
            Js::Num(n) => out.push_str(&serde_json::Value::from(*n).to_string()),
            Js::Str(s) => push_string(out, s),
            Js::Json(text) => out.push_str(text),
            Js::Bytes(b) => {
                out.push('[');
                for (i, byte) in b.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&byte.to_string());
                }
                out.push(']');
            }
            Js::Id(id) => match id {
                OwnedRequestId::Str(s) => push_string(out, s),
                OwnedRequestId::Int(i) if !id_is_big(id) => out.push_str(&i.to_string()),
                OwnedRequestId::Int(i) => push_string(out, &i.to_string()),
                OwnedRequestId::BigInt(digits) => push_string(out, digits),
            },
            Js::Arr(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write_json(out);
                }
                out.push(']');
            }
            Js::Obj(o) => {
                out.push('{');
                for (i, (k, v)) in o.0.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    push_string(out, k);
                    out.push(':');
                    v.write_json(out);
                    if matches!(v, Js::Id(id) if id_is_big(id)) {
                        out.push_str(",\"bigId\":true");
                    }
                }
                out.push('}');
            }
            Js::Error(e) => e.spec().write_json(out),
        }
    }
}

/// Whether a request id is an integer beyond what a JS `number` holds exactly.
#[must_use]
pub fn id_is_big(id: &OwnedRequestId) -> bool {
    const SAFE: i64 = (1 << 53) - 1;
    match id {
        OwnedRequestId::Str(_) => false,
        OwnedRequestId::Int(i) => !(-SAFE..=SAFE).contains(i),
        OwnedRequestId::BigInt(_) => true,
    }
}

/// Appends `s` as a JSON string literal.
pub fn push_string(out: &mut String, s: &str) {
    out.push_str(&serde_json::Value::from(s).to_string());
}
