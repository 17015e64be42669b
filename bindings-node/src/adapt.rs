//! The shared adapter (`mcp-context-node-adapter`) on this engine: its values rendered as JS
//! values, its errors thrown (or carried) as this addon's error classes, and live JS values
//! read through its `Source` trait.

use mcp_context_node_adapter::server::Polled;
use mcp_context_node_adapter::source::{Source, uint_of};
use mcp_context_node_adapter::{Error, Js, Obj};
use napi::bindgen_prelude::{
    Array, BigInt, Buffer, BufferSlice, Either, JsObjectValue, JsValue, Null, Object, ToNapiValue,
    Unknown,
};
use napi::{Env, ValueType};

use crate::convert;
use crate::errors;

/// An adapter error as the thrown error.
#[allow(clippy::needless_pass_by_value)]
pub(crate) fn throw(env: &Env, e: Error) -> napi::Error {
    match e {
        Error::Type(m) => errors::type_error(env, m),
        Error::Context { code, message } => errors::context_error(env, message, code),
        Error::Refused {
            code,
            message,
            late,
        } => errors::refused_error(env, message, code, late),
        Error::Mcp {
            code,
            message,
            data,
            status,
        } => errors::mcp_error(env, message, code, data.map(|d| d.to_json()), status),
        Error::Origin {
            code,
            message,
            status,
        } => errors::origin_error(env, message, code, status),
    }
}

/// A closure for `map_err` that throws an adapter error.
pub(crate) fn thrower(env: &Env) -> impl Fn(Error) -> napi::Error + '_ {
    move |e| throw(env, e)
}

/// An adapter value as a JS value.
pub(crate) fn render<'e>(env: &'e Env, v: Js) -> napi::Result<Unknown<'e>> {
    Ok(match v {
        Js::Null => Null.into_unknown(env)?,
        Js::Bool(b) => b.into_unknown(env)?,
        Js::U64(n) => convert::u64_out(n).into_unknown(env)?,
        Js::Num(n) => n.into_unknown(env)?,
        Js::Str(s) => env.create_string(&s)?.to_unknown(),
        Js::Json(text) => errors::json_parse(env, text)?,
        Js::Bytes(b) => BufferSlice::copy_from(env, &b)?.to_unknown(),
        Js::Id(id) => convert::request_id(env, &id)?,
        Js::Arr(items) => {
            let mut a = env.create_array(u32::try_from(items.len()).unwrap_or(u32::MAX))?;
            for (i, item) in (0u32..).zip(items) {
                a.set(i, render(env, item)?)?;
            }
            a.to_unknown()
        }
        Js::Obj(o) => object(env, o)?.to_unknown(),
        Js::Error(e) => napi::JsError::from(throw(env, *e)).into_unknown(*env),
    })
}

/// An adapter object as a JS object of own keys.
pub(crate) fn object(env: &Env, o: Obj) -> napi::Result<Object<'_>> {
    let mut out = Object::new(env)?;
    for (k, v) in o.0 {
        let v = render(env, v)?;
        convert::set_own(env, &mut out, &k, v)?;
    }
    Ok(out)
}

/// An output or HTTP answer as a JS object, its bytes as a `Buffer` under `bytes_key`.
pub(crate) fn polled<'e>(env: &'e Env, p: Polled, bytes_key: &str) -> napi::Result<Object<'e>> {
    let mut o = object(env, p.shape)?;
    if let Some(b) = p.bytes {
        // Copied into a buffer V8 owns: an external buffer costs a finalizer per output.
        o.set_named_property(bytes_key, BufferSlice::copy_from(env, &b)?)?;
    }
    Ok(o)
}

fn napi_error(e: &napi::Error) -> Error {
    Error::Type(e.reason.clone())
}

/// A live JS value for the adapter's readers: the value of `key` on `holder` (the root value
/// sits in a holder object of its own), read with the type the reader asks for.
pub(crate) struct In<'e> {
    env: &'e Env,
    holder: Object<'e>,
    key: String,
}

impl<'e> In<'e> {
    /// Wraps a JS value.
    pub(crate) fn root(env: &'e Env, value: Unknown<'e>) -> napi::Result<Self> {
        let mut holder = Object::new(env)?;
        holder.set_named_property("v", value)?;
        Ok(Self {
            env,
            holder,
            key: String::from("v"),
        })
    }

    /// Wraps an optional JS value.
    pub(crate) fn opt(env: &'e Env, value: Option<Unknown<'e>>) -> napi::Result<Option<Self>> {
        value.map(|v| Self::root(env, v)).transpose()
    }

    fn value(&self) -> Result<Unknown<'e>, Error> {
        self.holder
            .get_named_property::<Unknown<'e>>(&self.key)
            .map_err(|e| napi_error(&e))
    }

    fn ty(&self) -> ValueType {
        self.value()
            .and_then(|v| v.get_type().map_err(|e| napi_error(&e)))
            .unwrap_or(ValueType::Undefined)
    }

    fn typed<T: napi::bindgen_prelude::FromNapiValue + napi::bindgen_prelude::ValidateNapiValue>(
        &self,
        what: &str,
        kind: &str,
    ) -> Result<T, Error> {
        self.holder
            .get_named_property::<T>(&self.key)
            .map_err(|_| Error::Type(format!("{what} must be {kind}")))
    }

    fn object(&self) -> Option<Object<'e>> {
        matches!(self.ty(), ValueType::Object | ValueType::Function)
            .then(|| self.value().ok()?.coerce_to_object().ok())
            .flatten()
    }
}

impl Source for In<'_> {
    fn get(&self, key: &str) -> Result<Option<Self>, Error> {
        let Some(holder) = self.object() else {
            return Ok(None);
        };
        let v = holder
            .get_named_property::<Unknown<'_>>(key)
            .map_err(|e| napi_error(&e))?;
        if v.get_type().map_err(|e| napi_error(&e))? == ValueType::Undefined {
            return Ok(None);
        }
        Ok(Some(Self {
            env: self.env,
            holder,
            key: key.to_owned(),
        }))
    }

    fn is_null(&self) -> bool {
        matches!(self.ty(), ValueType::Null | ValueType::Undefined)
    }

    fn string(&self, what: &str) -> Result<String, Error> {
        if self.ty() != ValueType::String {
            return Err(Error::Type(format!("{what} must be a string")));
        }
        self.typed::<String>(what, "a string")
    }

    fn boolean(&self, what: &str) -> Result<bool, Error> {
        if self.ty() != ValueType::Boolean {
            return Err(Error::Type(format!("{what} must be a boolean")));
        }
        self.typed::<bool>(what, "a boolean")
    }

    fn uint(&self, what: &str) -> Result<u64, Error> {
        match self.typed::<Either<f64, BigInt>>(what, "a non-negative integer")? {
            Either::A(n) => uint_of(n, what),
            Either::B(b) => match b.get_u64() {
                (false, v, true) => Ok(v),
                _ => Err(Error::Type(format!("{what} must be a bigint in 0..2^64"))),
            },
        }
    }

    fn bytes(&self, what: &str) -> Result<Vec<u8>, Error> {
        let v = self.value()?;
        if v.is_buffer().unwrap_or(false) || v.is_typedarray().unwrap_or(false) {
            return Ok(self.typed::<Buffer>(what, "bytes")?.to_vec());
        }
        self.items(what)?
            .iter()
            .map(|b| {
                u8::try_from(b.uint(what)?)
                    .map_err(|_| Error::Type(format!("{what} must be bytes")))
            })
            .collect()
    }

    fn items(&self, what: &str) -> Result<Vec<Self>, Error> {
        let v = self.value()?;
        if !v.is_array().unwrap_or(false) {
            return Err(Error::Type(format!("{what} must be an array")));
        }
        let array: Array<'_> = self.typed(what, "an array")?;
        let holder = v.coerce_to_object().map_err(|e| napi_error(&e))?;
        Ok((0..array.len())
            .map(|i| Self {
                env: self.env,
                holder,
                key: i.to_string(),
            })
            .collect())
    }

    fn keys(&self, what: &str) -> Result<Vec<String>, Error> {
        let o = self
            .object()
            .ok_or_else(|| Error::Type(format!("{what} must be an object")))?;
        Object::keys(&o).map_err(|e| napi_error(&e))
    }

    fn json(&self, what: &str) -> Result<String, Error> {
        let v = self.value()?;
        convert::stringify_text(self.env, v, what)
    }
}
