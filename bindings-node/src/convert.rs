//! Value conversions shared by every class: 64-bit integers (`number` or `bigint`), JSON
//! text to and from JS values (through the engine's own `JSON`), wire-shaped values through
//! the core's decoders, request ids, string pairs to objects.
//!
//! Integers: the core's ids, handles and times are `u64`. JS gives `number` (exact up to
//! 2^53 − 1) or `bigint`; the addon returns a `number` while it is exact and a `bigint`
//! beyond, so nothing is ever rounded.

use mcp_context::jsonrpc::OwnedRequestId;
use mcp_context::messages::owned::FromJsonText;
use napi::bindgen_prelude::{
    BigInt, Either, Function, JsObjectValue, JsValue, Object, ToNapiValue, Unknown,
};
use napi::{Env, Property, Result, ValueType};

use mcp_context_node_adapter::Error;
use mcp_context_node_adapter::source::{time_of, uint_of};
use mcp_context_node_adapter::value::MAX_SAFE;

use crate::{adapt, errors};

/// A `u64` on the JS side: `number` (exact integers only) or `bigint`.
pub(crate) type Int = Either<f64, BigInt>;

/// Reads a non-negative integer; anything else is a `TypeError` naming `what`.
pub(crate) fn u64_in(env: &Env, value: &Int, what: &str) -> Result<u64> {
    match value {
        Either::A(n) => uint_of(*n, what).map_err(|e| adapt::throw(env, e)),
        Either::B(b) => match b.get_u64() {
            (false, v, true) => Ok(v),
            _ => Err(errors::type_error(
                env,
                format!("{what} must be a bigint in 0..2^64"),
            )),
        },
    }
}

/// A time in milliseconds: what `Date.now()` or `performance.now()` return (a fractional
/// value is floored), or a `bigint`.
pub(crate) fn time_in(env: &Env, value: &Int) -> Result<u64> {
    match value {
        Either::A(n) => time_of(*n).map_err(|e| adapt::throw(env, e)),
        Either::B(_) => u64_in(env, value, "nowMs"),
    }
}

/// An optional integer, `0` when absent.
pub(crate) fn u64_or_zero(env: &Env, value: Option<&Int>, what: &str) -> Result<u64> {
    value.map_or(Ok(0), |v| u64_in(env, v, what))
}

/// A `u64` for JS: a `number` while exact, else a `bigint`.
pub(crate) fn u64_out(n: u64) -> Int {
    if n <= MAX_SAFE {
        #[allow(clippy::cast_precision_loss)]
        Either::A(n as f64)
    } else {
        Either::B(BigInt::from(n))
    }
}

fn json_fn<'e>(env: &'e Env, name: &str) -> Result<Function<'e, Unknown<'e>, Unknown<'e>>> {
    let global = env.get_global()?;
    let json: Object<'_> = global.get_named_property("JSON")?;
    json.get_named_property(name)
}

/// `JSON.stringify(value)`; `what` names the argument in the `TypeError` thrown when the
/// value has no JSON form (`undefined`, a function).
pub(crate) fn stringify(env: &Env, value: Unknown<'_>, what: &str) -> Result<String> {
    stringify_text(env, value, what).map_err(|e| adapt::throw(env, e))
}

/// `JSON.stringify(value)` for the adapter's readers.
pub(crate) fn stringify_text(
    env: &Env,
    value: Unknown<'_>,
    what: &str,
) -> std::result::Result<String, Error> {
    let napi_err = |e: napi::Error| Error::Type(e.reason);
    let f = json_fn(env, "stringify").map_err(napi_err)?;
    let out = f.call(value).map_err(napi_err)?;
    if out.get_type().map_err(napi_err)? == ValueType::String {
        out.coerce_to_string()
            .and_then(|s| s.into_utf8())
            .and_then(|s| s.into_owned())
            .map_err(napi_err)
    } else {
        Err(Error::Type(format!(
            "{what} must be a JSON value (an object in the spec's wire shape)"
        )))
    }
}

/// A wire-shaped JS value as JSON text (`JSON.stringify`), for the adapter's decoders.
pub(crate) fn text(env: &Env, value: Unknown<'_>, what: &str) -> Result<String> {
    stringify(env, value, what)
}

/// [`text`] of an optional value; `null` and `undefined` are `None`.
pub(crate) fn opt_text(
    env: &Env,
    value: Option<Unknown<'_>>,
    what: &str,
) -> Result<Option<String>> {
    match value {
        Some(v) if !matches!(v.get_type()?, ValueType::Null | ValueType::Undefined) => {
            text(env, v, what).map(Some)
        }
        _ => Ok(None),
    }
}

/// `JSON.parse(text)`.
pub(crate) fn parse_json<'e>(env: &'e Env, text: &str) -> Result<Unknown<'e>> {
    let f = json_fn(env, "parse")?;
    let s = env.create_string(text)?;
    f.call(s.to_unknown())
}

/// Sets `o[key] = value` as an own data property, whatever `key` is: peer data names keys,
/// and an assignment to `__proto__` would set the prototype instead.
pub(crate) fn set_own<'e, V: ToNapiValue>(
    env: &'e Env,
    o: &mut Object<'e>,
    key: &str,
    value: V,
) -> Result<()> {
    if key == "__proto__" {
        let v = value.into_unknown(env)?;
        o.define_properties(&[Property::new().with_utf8_name(key)?.with_value(&v)])
    } else {
        o.set_named_property(key, value)
    }
}

/// A JSON integer literal's decimal digits (optional leading `-`) as a `bigint`, exactly.
pub(crate) fn bigint_from_decimal(text: &str) -> Option<BigInt> {
    let (sign_bit, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut words: Vec<u64> = vec![0];
    for b in digits.bytes() {
        let mut carry = u128::from(b - b'0');
        for w in &mut words {
            let v = u128::from(*w) * 10 + carry;
            #[allow(clippy::cast_possible_truncation)]
            {
                *w = v as u64;
            }
            carry = v >> 64;
        }
        if carry > 0 {
            #[allow(clippy::cast_possible_truncation)]
            words.push(carry as u64);
        }
    }
    Some(BigInt { sign_bit, words })
}

/// Decodes a wire-shaped JS value through the core (`FromJsonText`).
pub(crate) fn decode<T: FromJsonText>(env: &Env, value: Unknown<'_>, what: &str) -> Result<T> {
    let text = stringify(env, value, what)?;
    mcp_context_node_adapter::error::decode(&text, what).map_err(|e| adapt::throw(env, e))
}

/// A request id as JS, with its exact value and JSON type: a string for a string id; an
/// integer as a `number` while exact (|id| < 2^53), else as a `bigint` (any size).
pub(crate) fn request_id<'e>(env: &'e Env, id: &OwnedRequestId) -> Result<Unknown<'e>> {
    const SAFE: i64 = (1 << 53) - 1;
    Ok(match id {
        OwnedRequestId::Str(s) => env.create_string(s)?.to_unknown(),
        #[allow(clippy::cast_precision_loss)]
        OwnedRequestId::Int(i) if (-SAFE..=SAFE).contains(i) => (*i as f64).into_unknown(env)?,
        OwnedRequestId::Int(i) => BigInt::from(*i).into_unknown(env)?,
        OwnedRequestId::BigInt(digits) => match bigint_from_decimal(digits) {
            Some(b) => b.into_unknown(env)?,
            None => {
                return Err(errors::context_error(
                    env,
                    format!("request id {digits} is not an integer literal"),
                    String::from("ERR_INVALID_ID"),
                ));
            }
        },
    })
}
