//! JSON-ish input read key by key: the configurations and option objects both engines take.
//! The addon implements [`Source`] over live JS values, the wasm crate uses the
//! `serde_json::Value` implementation here (the glue sends `JSON.stringify` output), so each
//! input is read by one function for both.

use serde_json::Value;

use crate::error::{Error, Result};
use crate::value::MAX_SAFE;

/// A JS value being read.
pub trait Source: Sized {
    /// The value of `key` when the value is an object and the key is neither absent nor
    /// `undefined` (`null` is returned: see [`Source::is_null`]).
    fn get(&self, key: &str) -> Result<Option<Self>>;
    /// Whether the value is `null` (or `undefined`).
    fn is_null(&self) -> bool;
    /// A string.
    fn string(&self, what: &str) -> Result<String>;
    /// A boolean.
    fn boolean(&self, what: &str) -> Result<bool>;
    /// A non-negative integer: a `number` below 2^53 or a `bigint` below 2^64.
    fn uint(&self, what: &str) -> Result<u64>;
    /// Bytes (a `Buffer`, a typed array, an array of numbers).
    fn bytes(&self, what: &str) -> Result<Vec<u8>>;
    /// The items of an array.
    fn items(&self, what: &str) -> Result<Vec<Self>>;
    /// The own enumerable keys of an object.
    fn keys(&self, what: &str) -> Result<Vec<String>>;
    /// The value as JSON text (`JSON.stringify`); `TypeError` when it has none.
    fn json(&self, what: &str) -> Result<String>;

    /// The value of `key` unless it is absent, `undefined` or `null`.
    fn field(&self, key: &str) -> Result<Option<Self>> {
        Ok(self.get(key)?.filter(|v| !v.is_null()))
    }

    /// An array of strings.
    fn strings(&self, what: &str) -> Result<Vec<String>> {
        self.items(what)?
            .iter()
            .map(|s| s.string(what))
            .collect::<Result<Vec<_>>>()
            .map_err(|_| Error::Type(format!("{what} must be an array of strings")))
    }
}

/// A `number` as a `u64`: an exact non-negative integer, else a `TypeError` naming `what`.
pub fn uint_of(n: f64, what: &str) -> Result<u64> {
    #[allow(clippy::cast_precision_loss)]
    if n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n <= MAX_SAFE as f64 {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Ok(n as u64)
    } else {
        Err(Error::Type(format!(
            "{what} must be a non-negative integer (a bigint beyond 2^53), not {n}"
        )))
    }
}

/// A time in milliseconds from a `number`: what `Date.now()` or `performance.now()` return,
/// a fraction floored.
pub fn time_of(n: f64) -> Result<u64> {
    #[allow(clippy::cast_precision_loss)]
    if n.is_finite() && n >= 0.0 && n <= MAX_SAFE as f64 {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Ok(n.floor() as u64)
    } else {
        uint_of(n, "nowMs")
    }
}

fn kind_error(what: &str, kind: &str) -> Error {
    Error::Type(format!("{what} must be {kind}"))
}

/// JSON from the glue: integers beyond 2^53 arrive as decimal strings (the glue's bigints).
impl Source for Value {
    fn get(&self, key: &str) -> Result<Option<Self>> {
        Ok(self.get(key).cloned())
    }
    fn is_null(&self) -> bool {
        Value::is_null(self)
    }
    fn string(&self, what: &str) -> Result<String> {
        self.as_str()
            .map(str::to_owned)
            .ok_or_else(|| kind_error(what, "a string"))
    }
    fn boolean(&self, what: &str) -> Result<bool> {
        self.as_bool().ok_or_else(|| kind_error(what, "a boolean"))
    }
    fn uint(&self, what: &str) -> Result<u64> {
        match self {
            Value::String(s) => s
                .parse()
                .map_err(|_| Error::Type(format!("{what} must be an integer in 0..2^64"))),
            _ => match self.as_f64() {
                Some(n) => uint_of(n, what),
                None => Err(kind_error(what, "a non-negative integer")),
            },
        }
    }
    fn bytes(&self, what: &str) -> Result<Vec<u8>> {
        // `JSON.stringify(buffer)` is `{"type":"Buffer","data":[…]}`.
        let list = self.get("data").unwrap_or(self);
        serde_json::from_value(list.clone()).map_err(|_| kind_error(what, "bytes"))
    }
    fn items(&self, what: &str) -> Result<Vec<Self>> {
        self.as_array()
            .cloned()
            .ok_or_else(|| kind_error(what, "an array"))
    }
    fn keys(&self, what: &str) -> Result<Vec<String>> {
        self.as_object()
            .map(|m| m.keys().cloned().collect())
            .ok_or_else(|| kind_error(what, "an object"))
    }
    fn json(&self, _what: &str) -> Result<String> {
        Ok(self.to_string())
    }
}

/// Parses the glue's JSON text; `what` names it in the `TypeError`.
pub fn parse(text: &str, what: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| Error::Type(format!("{what}: {e}")))
}
