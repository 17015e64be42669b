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

use crate::errors;

/// A `u64` on the JS side: `number` (exact integers only) or `bigint`.
pub(crate) type Int = Either<f64, BigInt>;

/// The largest integer a `number` holds exactly.
const MAX_SAFE: u64 = (1 << 53) - 1;

/// Reads a non-negative integer; anything else is a `TypeError` naming `what`.
pub(crate) fn u64_in(env: &Env, value: &Int, what: &str) -> Result<u64> {
    match value {
        Either::A(n) => {
            if n.is_finite() && *n >= 0.0 && n.fract() == 0.0 && *n <= MAX_SAFE as f64 {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                Ok(*n as u64)
            } else {
                Err(errors::type_error(
                    env,
                    format!(
                        "{what} must be a non-negative integer (a bigint beyond 2^53), not {n}"
                    ),
                ))
            }
        }
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
        Either::A(n) if n.is_finite() && *n >= 0.0 && *n <= MAX_SAFE as f64 =>
        {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Ok(n.floor() as u64)
        }
        _ => u64_in(env, value, "nowMs"),
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
    let f = json_fn(env, "stringify")?;
    let out = f.call(value)?;
    if out.get_type()? == ValueType::String {
        out.coerce_to_string()?.into_utf8()?.into_owned()
    } else {
        Err(errors::type_error(
            env,
            format!("{what} must be a JSON value (an object in the spec's wire shape)"),
        ))
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

/// `[(k, v), …]` as a plain object `{k: v, …}` of own keys (later duplicates win).
pub(crate) fn pairs_object<'e>(env: &'e Env, pairs: &[(String, String)]) -> Result<Object<'e>> {
    let mut o = Object::new(env)?;
    for (k, v) in pairs {
        set_own(env, &mut o, k, v.as_str())?;
    }
    Ok(o)
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
    T::from_json_text(&text)
        .map_err(|e| errors::mcp_error(env, format!("{what}: {e}"), e.error_code().0, None, 400))
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
