//! RFC 6570 templates and the router, for the glue's `UriTemplate` and `Router`.
//!
//! Crossing costs more than the work, so strings do not go through wasm-bindgen's
//! conversions on the hot paths: each object owns an input and an output buffer in linear
//! memory; the glue writes UTF-8 into the input (`inputBuffer` gives its address), calls
//! `expandInput` / `matchInput` / `routeInput` with the length, and reads the output
//! (`outputAddress`, the returned length). `expand` takes the values of the template's
//! variables, in `variables()` order, joined by U+0000 (the glue falls back to `expandJson`
//! when a value is not a plain string or contains U+0000); `match` and `route` write JSON
//! text for `JSON.parse`. The buffers are plain `Vec<u8>`s: no unsafe code here.

use mcp_context::json::{EncodeError, Writer};
use mcp_context::template::{
    Captures, Encoded, MatchError, OwnedPattern, OwnedTemplate, OwnedValue, OwnedVariables, Router,
};
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::json::context_error;

const MAX_VARS: usize = 32;

fn write_captures<const N: usize>(
    w: &mut Writer<'_, String>,
    caps: &Captures<'_, '_, N>,
) -> Result<(), EncodeError> {
    let decoded = |v: Encoded<'_>| {
        v.decode()
            .map_or_else(|_| v.raw().to_string(), |d| d.into_owned())
    };
    w.begin_object()?;
    for c in caps.iter() {
        w.key(c.name())?;
        if c.is_exploded() {
            w.begin_array()?;
            for v in c.values() {
                w.str(&decoded(v))?;
            }
            w.end_array()?;
        } else {
            w.str(&decoded(c.value()))?;
        }
    }
    w.end_object()
}

/// A parsed template.
#[wasm_bindgen]
pub struct WasmTemplate {
    inner: OwnedTemplate,
    pattern: Option<OwnedPattern>,
    names: Vec<String>,
    buffers: Buffers,
}

/// The input and output buffers of one object.
#[derive(Default)]
struct Buffers {
    input: Vec<u8>,
    output: Vec<u8>,
}

impl Buffers {
    fn input(&mut self, len: usize) -> usize {
        if self.input.len() < len {
            self.input.resize(len, 0);
        }
        self.input.as_mut_ptr() as usize
    }

    fn text(&self, len: usize) -> Result<&str, JsValue> {
        let bytes = self
            .input
            .get(..len)
            .ok_or_else(|| context_error("ERR_INPUT", "input past the buffer"))?;
        core::str::from_utf8(bytes).map_err(|_| context_error("ERR_INPUT", "input is not UTF-8"))
    }

    fn set_output(&mut self, text: String) -> usize {
        self.output = text.into_bytes();
        self.output.len()
    }
}

#[wasm_bindgen]
impl WasmTemplate {
    /// Parses `source`.
    #[wasm_bindgen(constructor)]
    pub fn new(source: &str) -> Result<WasmTemplate, JsValue> {
        let inner = OwnedTemplate::parse(source)
            .map_err(|e| context_error("ERR_TEMPLATE_PARSE", format!("{source}: {e}")))?;
        let mut names: Vec<String> = Vec::new();
        for spec in inner.variables() {
            if !names.iter().any(|n| n == spec.name) {
                names.push(spec.name.to_string());
            }
        }
        Ok(Self {
            inner,
            pattern: OwnedPattern::parse(source).ok(),
            names,
            buffers: Buffers::default(),
        })
    }

    /// The variable names, in order of first appearance.
    #[wasm_bindgen(getter)]
    pub fn variables(&self) -> Vec<String> {
        self.names.clone()
    }

    /// Makes the input buffer at least `len` bytes; its address in linear memory.
    #[wasm_bindgen(js_name = inputBuffer)]
    pub fn input_buffer(&mut self, len: usize) -> usize {
        self.buffers.input(len)
    }

    /// The output buffer's address in linear memory.
    #[wasm_bindgen(js_name = outputAddress)]
    pub fn output_address(&self) -> usize {
        self.buffers.output.as_ptr() as usize
    }

    /// `expandJoined` on the input buffer's first `len` bytes; the output's length.
    #[wasm_bindgen(js_name = expandInput)]
    pub fn expand_input(&mut self, len: usize) -> Result<usize, JsValue> {
        let out = self.expand_joined(self.buffers.text(len)?)?;
        Ok(self.buffers.set_output(out))
    }

    /// `matchUri` on the input buffer's first `len` bytes: the output's length (JSON text),
    /// or -1 when the URI does not match.
    #[wasm_bindgen(js_name = matchInput)]
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    pub fn match_input(&mut self, len: usize) -> Result<i32, JsValue> {
        match self.match_uri(self.buffers.text(len)?)? {
            Some(text) => Ok(self.buffers.set_output(text) as i32),
            None => Ok(-1),
        }
    }

    /// Expands string values given in `variables()` order, joined by U+0000.
    #[wasm_bindgen(js_name = expandJoined)]
    pub fn expand_joined(&self, joined: &str) -> Result<String, JsValue> {
        let mut vars = OwnedVariables::new();
        for (name, v) in self.names.iter().zip(joined.split('\0')) {
            vars.insert(name.clone(), OwnedValue::Str(v.to_owned()));
        }
        vars.expand(self.inner.as_ref())
            .map_err(|e| context_error("ERR_EXPAND", e.to_string()))
    }

    /// Expands variables given as JSON text (`{name: string | string[] | {k: v}}`).
    #[wasm_bindgen(js_name = expandJson)]
    pub fn expand_json(&self, vars: &str) -> Result<String, JsValue> {
        let v: serde_json::Map<String, Value> = serde_json::from_str(vars)
            .map_err(|e| context_error("ERR_INVALID_ARG_TYPE", e.to_string()))?;
        let scalar = |v: &Value| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        };
        let mut owned = OwnedVariables::new();
        for name in &self.names {
            let value = match v.get(name) {
                None | Some(Value::Null) => continue,
                Some(Value::Array(a)) => OwnedValue::List(a.iter().filter_map(scalar).collect()),
                Some(Value::Object(o)) => OwnedValue::Assoc(
                    o.iter()
                        .filter_map(|(k, v)| Some((k.clone(), scalar(v)?)))
                        .collect(),
                ),
                Some(other) => match scalar(other) {
                    Some(s) => OwnedValue::Str(s),
                    None => {
                        return Err(context_error(
                            "ERR_INVALID_ARG_TYPE",
                            format!("template variable '{name}'"),
                        ));
                    }
                },
            };
            owned.insert(name.clone(), value);
        }
        owned
            .expand(self.inner.as_ref())
            .map_err(|e| context_error("ERR_EXPAND", e.to_string()))
    }

    /// The decoded variables of `uri` as JSON text, or `undefined` when it does not match.
    #[wasm_bindgen(js_name = matchUri)]
    pub fn match_uri(&self, uri: &str) -> Result<Option<String>, JsValue> {
        let Some(pattern) = &self.pattern else {
            return Err(context_error(
                "ERR_TEMPLATE_NOT_MATCHABLE",
                self.inner.source().to_owned(),
            ));
        };
        let mut caps = Captures::<MAX_VARS>::new();
        match pattern.matches(uri, &mut caps) {
            Ok(()) => {
                let mut text = String::with_capacity(64);
                write_captures(&mut Writer::new(&mut text), &caps)
                    .map_err(|e| context_error("ERR_ENCODE", e.to_string()))?;
                Ok(Some(text))
            }
            Err(MatchError::NoMatch) => Ok(None),
            Err(e) => Err(context_error("ERR_TOO_MANY_VARIABLES", e.to_string())),
        }
    }
}

/// Many templates, one URI: the core's indexed router.
#[wasm_bindgen]
pub struct WasmRouter {
    inner: Router<()>,
    buffers: Buffers,
}

#[wasm_bindgen]
impl WasmRouter {
    /// An empty router.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> WasmRouter {
        Self {
            inner: Router::new(),
            buffers: Buffers::default(),
        }
    }

    /// Adds a template; its id.
    pub fn insert(&mut self, template: &str) -> Result<u32, JsValue> {
        self.inner
            .insert(template, ())
            .map(|id| u32::try_from(id.index()).unwrap_or(u32::MAX))
            .map_err(|e| context_error("ERR_ROUTE", format!("{template}: {e}")))
    }

    /// Makes the input buffer at least `len` bytes; its address in linear memory.
    #[wasm_bindgen(js_name = inputBuffer)]
    pub fn input_buffer(&mut self, len: usize) -> usize {
        self.buffers.input(len)
    }

    /// The output buffer's address in linear memory.
    #[wasm_bindgen(js_name = outputAddress)]
    pub fn output_address(&self) -> usize {
        self.buffers.output.as_ptr() as usize
    }

    /// `route` on the input buffer's first `len` bytes: the output's length (JSON text), or
    /// -1 when no template matches.
    #[wasm_bindgen(js_name = routeInput)]
    #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
    pub fn route_input(&mut self, len: usize) -> Result<i32, JsValue> {
        match self.route(self.buffers.text(len)?)? {
            Some(text) => Ok(self.buffers.set_output(text) as i32),
            None => Ok(-1),
        }
    }

    /// `{id, template, variables}` as JSON text, or `undefined`.
    pub fn route(&self, uri: &str) -> Result<Option<String>, JsValue> {
        let mut caps = Captures::<MAX_VARS>::new();
        match self.inner.route(uri, &mut caps) {
            Ok(hit) => {
                let mut text = String::with_capacity(128);
                let mut w = Writer::new(&mut text);
                let r: Result<(), EncodeError> = (|| {
                    w.begin_object()?;
                    w.key("id")?;
                    w.u64(hit.id.index() as u64)?;
                    w.key("template")?;
                    w.str(hit.template)?;
                    w.key("variables")?;
                    write_captures(&mut w, &caps)?;
                    w.end_object()
                })();
                r.map_err(|e| context_error("ERR_ENCODE", e.to_string()))?;
                Ok(Some(text))
            }
            Err(MatchError::NoMatch) => Ok(None),
            Err(e) => Err(context_error("ERR_TOO_MANY_VARIABLES", e.to_string())),
        }
    }
}
