//! RFC 6570 templates and the router, for the glue's `UriTemplate` and `Router`
//! (`wasm/template.mjs`).
//!
//! Crossing costs more than the work, so strings do not go through wasm-bindgen's
//! conversions on the hot paths, and nothing allocates once the buffers are warm: each object
//! owns its buffers in linear memory; the glue writes UTF-8 into the input (`inputBuffer`
//! gives its address), calls `expandInput` / `matchInput` / `routeInput` with a length, and
//! reads the output where `outputAddress` / `recordsAddress` point.
//!
//! * `expandInput(n, at)`: the input holds `n` u32 lengths (`u32::MAX`: undefined), one per
//!   variable in `variables` order, then the UTF-8 values back to back, ending before byte
//!   `at`. The expansion is written into the input from byte `at` on, and the result is its
//!   length: one call, no other buffer. The result is `-len - 1` when the input had to grow
//!   for it (it moved: the glue asks `inputBuffer` for its address again) or when it is not
//!   ASCII (never for a valid expansion); the glue then decodes it as UTF-8.
//! * `matchInput(len)` / `routeInput(len)`: the input holds the URI. The result is -1 for no
//!   match, else the length of the decoded text (the output); the records (u32s) say where
//!   each value is: see [`write_records`]. `routeInput`'s records start with the route's id.
//!
//! The buffers are plain `Vec`s: no unsafe code here.

use mcp_context::template::{
    Captures, ExpandError, MatchError, OwnedPattern, OwnedTemplate, OwnedValue, OwnedVariables,
    Router,
};
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::json::context_error;
use mcp_context_node_adapter::records::{Positional, names_of, write_records};

const MAX_VARS: usize = 32;

/// A parsed template.
#[wasm_bindgen]
pub struct WasmTemplate {
    inner: OwnedTemplate,
    pattern: Option<OwnedPattern>,
    names: Vec<String>,
    buffers: Buffers,
}

/// The buffers of one object.
#[derive(Default)]
struct Buffers {
    input: Vec<u8>,
    output: Vec<u8>,
    records: Vec<u32>,
    /// The error of the last call that returned [`FAILED`] (JSON text for the glue).
    error: Option<String>,
}

/// What the buffer calls return on error (the glue then calls `takeError`): a plain number
/// crosses for less than a `Result`.
const FAILED: i32 = i32::MIN;

impl Buffers {
    fn settle(&mut self, r: Result<i32, JsValue>) -> i32 {
        r.unwrap_or_else(|e| {
            self.error = Some(e.as_string().unwrap_or_default());
            FAILED
        })
    }

    fn input(&mut self, len: usize) -> usize {
        if self.input.len() < len {
            self.input.resize(len, 0);
        }
        self.input.as_mut_ptr() as usize
    }
}

fn input_text(input: &[u8], len: usize) -> Result<&str, JsValue> {
    let bytes = input
        .get(..len)
        .ok_or_else(|| context_error("ERR_INPUT", "input past the buffer"))?;
    core::str::from_utf8(bytes).map_err(|_| context_error("ERR_INPUT", "input is not UTF-8"))
}

/// Templates with more variables take the JSON path (the glue checks first).
const MAX_POSITIONAL: usize = 32;

#[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
fn as_i32(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

#[wasm_bindgen]
impl WasmTemplate {
    /// Parses `source`.
    #[wasm_bindgen(constructor)]
    pub fn new(source: &str) -> Result<WasmTemplate, JsValue> {
        let inner = OwnedTemplate::parse(source)
            .map_err(|e| context_error("ERR_TEMPLATE_PARSE", format!("{source}: {e}")))?;
        let names = names_of(&inner);
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

    /// The records' address in linear memory (a multiple of 4).
    #[wasm_bindgen(js_name = recordsAddress)]
    pub fn records_address(&self) -> usize {
        self.buffers.records.as_ptr() as usize
    }

    /// Expands the `n` positional values in the input's first `at` bytes (see the module
    /// docs): the length of the expansion written from input byte `at` on, or `-len - 1`
    /// when the input moved or the expansion is not ASCII, or [`FAILED`] (`takeError`).
    #[wasm_bindgen(js_name = expandInput)]
    pub fn expand_input(&mut self, n: usize, at: usize) -> i32 {
        let r = self.try_expand_input(n, at);
        self.buffers.settle(r)
    }

    /// The error of the last call that returned [`FAILED`], as JSON text.
    #[wasm_bindgen(js_name = takeError)]
    pub fn take_error(&mut self) -> Option<String> {
        self.buffers.error.take()
    }

    /// Matches the URI in the input's first `len` bytes: -1 for no match, else the length
    /// of the decoded text (the output), with the records (see the module docs); or
    /// [`FAILED`] (`takeError`).
    #[wasm_bindgen(js_name = matchInput)]
    pub fn match_input(&mut self, len: usize) -> i32 {
        let r = self.try_match_input(len);
        self.buffers.settle(r)
    }
}

impl WasmTemplate {
    fn try_expand_input(&mut self, n: usize, at: usize) -> Result<i32, JsValue> {
        if n > MAX_POSITIONAL {
            return Err(context_error("ERR_INPUT", "too many positional values"));
        }
        if at > self.buffers.input.len() {
            return Err(context_error("ERR_INPUT", "input past the buffer"));
        }
        let (values, room) = self.buffers.input.split_at_mut(at);
        let vars = Positional {
            names: &self.names,
            buf: values,
            n,
        };
        let len = match self.inner.as_ref().expand_to_slice(&vars, room) {
            Ok(len) => len,
            Err(ExpandError::BufferTooSmall { needed }) => {
                // The input grows to fit (it moves: the glue asks for its address again).
                self.buffers.input.resize(at + needed, 0);
                let (values, room) = self.buffers.input.split_at_mut(at);
                let vars = Positional {
                    names: &self.names,
                    buf: values,
                    n,
                };
                let len = self
                    .inner
                    .as_ref()
                    .expand_to_slice(&vars, room)
                    .map_err(|e| context_error("ERR_EXPAND", e.to_string()))?;
                return Ok(-as_i32(len) - 1);
            }
            Err(e) => return Err(context_error("ERR_EXPAND", e.to_string())),
        };
        let ascii = room.get(..len).is_some_and(<[u8]>::is_ascii);
        Ok(if ascii { as_i32(len) } else { -as_i32(len) - 1 })
    }

    fn try_match_input(&mut self, len: usize) -> Result<i32, JsValue> {
        let Some(pattern) = &self.pattern else {
            return Err(context_error(
                "ERR_TEMPLATE_NOT_MATCHABLE",
                self.inner.source().to_owned(),
            ));
        };
        let uri = input_text(&self.buffers.input, len)?;
        let mut caps = Captures::<MAX_VARS>::new();
        match pattern.matches(uri, &mut caps) {
            Ok(()) => {
                let (records, output) = (&mut self.buffers.records, &mut self.buffers.output);
                records.clear();
                output.clear();
                let _ = write_records(records, uri, &self.names, &caps, output); // a Vec is never full
                Ok(as_i32(output.len()))
            }
            Err(MatchError::NoMatch) => Ok(-1),
            Err(e) => Err(context_error("ERR_TOO_MANY_VARIABLES", e.to_string())),
        }
    }
}

#[wasm_bindgen]
impl WasmTemplate {
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
}

/// Many templates, one URI: the core's indexed router.
#[wasm_bindgen]
pub struct WasmRouter {
    inner: Router<()>,
    /// The variable names of each template, by id (the records index them).
    names: Vec<Vec<String>>,
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
            names: Vec::new(),
            buffers: Buffers::default(),
        }
    }

    /// Adds a template; its id.
    pub fn insert(&mut self, template: &str) -> Result<u32, JsValue> {
        let id = self
            .inner
            .insert(template, ())
            .map_err(|e| context_error("ERR_ROUTE", format!("{template}: {e}")))?;
        let names = OwnedTemplate::parse(template)
            .map(|t| names_of(&t))
            .unwrap_or_default();
        self.names.push(names);
        Ok(u32::try_from(id.index()).unwrap_or(u32::MAX))
    }

    /// The variable names of template `id`, each once, in template order.
    #[wasm_bindgen(js_name = routeNames)]
    pub fn route_names(&self, id: usize) -> Vec<String> {
        self.names.get(id).cloned().unwrap_or_default()
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

    /// The records' address in linear memory (a multiple of 4).
    #[wasm_bindgen(js_name = recordsAddress)]
    pub fn records_address(&self) -> usize {
        self.buffers.records.as_ptr() as usize
    }

    /// Routes the URI in the input's first `len` bytes: -1 when no template matches, else
    /// the length of the decoded text (the output); the records start with the route's id.
    /// [`FAILED`]: see `takeError`.
    #[wasm_bindgen(js_name = routeInput)]
    pub fn route_input(&mut self, len: usize) -> i32 {
        let r = self.try_route_input(len);
        self.buffers.settle(r)
    }

    /// The error of the last call that returned [`FAILED`], as JSON text.
    #[wasm_bindgen(js_name = takeError)]
    pub fn take_error(&mut self) -> Option<String> {
        self.buffers.error.take()
    }
}

impl WasmRouter {
    fn try_route_input(&mut self, len: usize) -> Result<i32, JsValue> {
        let uri = input_text(&self.buffers.input, len)?;
        let mut caps = Captures::<MAX_VARS>::new();
        match self.inner.route(uri, &mut caps) {
            Ok(hit) => {
                let (records, output) = (&mut self.buffers.records, &mut self.buffers.output);
                records.clear();
                output.clear();
                let id = hit.id.index();
                records.push(u32::try_from(id).unwrap_or(u32::MAX));
                let names = self.names.get(id).map_or(&[][..], Vec::as_slice);
                let _ = write_records(records, uri, names, &caps, output); // a Vec is never full
                Ok(as_i32(output.len()))
            }
            Err(MatchError::NoMatch) => Ok(-1),
            Err(e) => Err(context_error("ERR_TOO_MANY_VARIABLES", e.to_string())),
        }
    }
}

/// The module's linear memory, where the glue reads and writes the buffers.
#[wasm_bindgen(js_name = templateMemory)]
#[must_use]
#[allow(unreachable_pub)] // exported to JS by wasm-bindgen
pub fn template_memory() -> JsValue {
    wasm_bindgen::memory()
}
