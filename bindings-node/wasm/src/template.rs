//! RFC 6570 templates and the router, for the glue's `UriTemplate` and `Router`.
//!
//! Crossing costs more than the work, so each call crosses once: `expand` takes the values
//! of the template's variables, in `variables()` order, joined by U+0000 (the glue falls back
//! to `expandJson` when a value is not a plain string or contains U+0000); `match` and
//! `route` return JSON text for `JSON.parse`.

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
        })
    }

    /// The variable names, in order of first appearance.
    #[wasm_bindgen(getter)]
    pub fn variables(&self) -> Vec<String> {
        self.names.clone()
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
}

#[wasm_bindgen]
impl WasmRouter {
    /// An empty router.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> WasmRouter {
        Self {
            inner: Router::new(),
        }
    }

    /// Adds a template; its id.
    pub fn insert(&mut self, template: &str) -> Result<u32, JsValue> {
        self.inner
            .insert(template, ())
            .map(|id| u32::try_from(id.index()).unwrap_or(u32::MAX))
            .map_err(|e| context_error("ERR_ROUTE", format!("{template}: {e}")))
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
