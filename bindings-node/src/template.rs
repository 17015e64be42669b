//! `UriTemplate`: RFC 6570 templates (parse, expand) over the core's `OwnedTemplate`.
//!
//! The only work here is converting JS values into the core's `OwnedValue`s: strings as is,
//! numbers and bigints through `String()`, arrays as lists, other objects as associative
//! arrays (their enumerable string keys, in property order), `null`/`undefined` as undefined.
//! Every rule of expansion is the core's.

use mcp_context::template::{
    Captures, MatchError, OwnedPattern, OwnedTemplate, OwnedValue, OwnedVariables,
};
use napi::bindgen_prelude::{Either, FromNapiValue, Null};
use napi::bindgen_prelude::{JsObjectValue, JsValue, Object, Unknown};
use napi::{Env, Result, ValueType};
use napi_derive::napi;

use crate::errors;
use crate::fast;
use crate::router;

fn type_name(value_type: ValueType) -> &'static str {
    match value_type {
        ValueType::Boolean => "boolean",
        ValueType::Function => "function",
        ValueType::Symbol => "symbol",
        ValueType::External => "external",
        ValueType::Object => "object",
        _ => "value",
    }
}

/// A string, or a number/bigint through `String()`.
fn scalar(env: &Env, name: &str, value: &Unknown<'_>) -> Result<String> {
    match value.get_type()? {
        ValueType::String | ValueType::Number | ValueType::BigInt => {
            value.coerce_to_string()?.into_utf8()?.into_owned()
        }
        other => Err(errors::type_error(
            env,
            format!(
                "template variable '{name}': list items and object values must be strings or numbers, not {}",
                type_name(other)
            ),
        )),
    }
}

fn value(env: &Env, name: &str, value: &Unknown<'_>) -> Result<Option<OwnedValue>> {
    match value.get_type()? {
        ValueType::Null | ValueType::Undefined => Ok(None),
        ValueType::String | ValueType::Number | ValueType::BigInt => {
            scalar(env, name, value).map(|s| Some(OwnedValue::Str(s)))
        }
        ValueType::Object if value.is_array()? => {
            let array = value.coerce_to_object()?;
            let len = array.get_array_length()?;
            (0..len)
                .map(|i| scalar(env, name, &array.get_element::<Unknown<'_>>(i)?))
                .collect::<Result<_>>()
                .map(|l| Some(OwnedValue::List(l)))
        }
        ValueType::Object => {
            let object = value.coerce_to_object()?;
            Object::keys(&object)?
                .into_iter()
                .map(|key| {
                    let v = scalar(env, name, &object.get_named_property::<Unknown<'_>>(&key)?)?;
                    Ok((key, v))
                })
                .collect::<Result<_>>()
                .map(|a| Some(OwnedValue::Assoc(a)))
        }
        other => Err(errors::type_error(
            env,
            format!(
                "template variable '{name}' must be a string, number, bigint, array or object, not {}",
                type_name(other)
            ),
        )),
    }
}

/// `expand` with the variables as a JS object (the path for lists, objects, numbers and
/// every type error; `template.js` takes plain strings through `fast.rs`).
/// The values are read first (a getter may run any JS), then the registry is entered.
fn expand_object(env: &Env, handle: u32, vars: Option<Unknown<'_>>) -> Result<String> {
    let names = fast::with_template(handle, |t| Ok(t.names.clone()))?;
    let mut owned = OwnedVariables::new();

    if let Some(vars) = vars {
        match vars.get_type()? {
            ValueType::Null | ValueType::Undefined => {}
            ValueType::Object if !vars.is_array()? => {
                // Only the template's own names are read: the fewest engine calls, and
                // a property the template does not use cannot matter.
                let object = vars.coerce_to_object()?;
                for name in &names {
                    let v = object.get_named_property::<Unknown<'_>>(name)?;
                    if v.get_type()? == ValueType::String {
                        owned.insert(name.clone(), OwnedValue::Str(String::from_unknown(v)?));
                    } else if let Some(v) = value(env, name, &v)? {
                        owned.insert(name.clone(), v);
                    }
                }
            }
            other => {
                return Err(errors::type_error(
                    env,
                    format!(
                        "expand() takes an object of variables, not {}",
                        if vars.is_array()? {
                            "an array"
                        } else {
                            type_name(other)
                        }
                    ),
                ));
            }
        }
    }
    fast::with_template(handle, |t| {
        owned
            .expand(t.inner.as_ref())
            .map_err(|err| errors::expand_error(env, t.inner.source(), err))
    })
}

/// An RFC 6570 URI template (levels 1–4), parsed once and expanded many times.
///
/// ```js
/// const t = new UriTemplate('repo://{owner}/{repo}/issues{?labels}')
/// t.expand({ owner: 'acme', repo: 'web app', labels: ['bug', 'ui'] })
/// // 'repo://acme/web%20app/issues?labels=bug,ui'
/// ```
#[napi]
pub struct UriTemplate {
    /// The template's slot in the registry (`fast.rs`), shared with the fast paths.
    handle: u32,
}

impl Drop for UriTemplate {
    fn drop(&mut self) {
        fast::drop_template(self.handle);
    }
}

#[napi]
impl UriTemplate {
    /// Parses `source`.
    ///
    /// @throws {TemplateError} `source` is not a valid template; `code` says why and
    /// `position` where.
    #[napi(constructor, catch_unwind, ts_args_type = "source: string")]
    pub fn new(env: Env, source: Unknown<'_>) -> Result<Self> {
        if source.get_type()? != ValueType::String {
            return Err(errors::type_error(
                &env,
                String::from("new UriTemplate(source): source must be a string"),
            ));
        }
        let source = source.coerce_to_string()?.into_utf8()?.into_owned()?;
        let inner =
            OwnedTemplate::parse(&source).map_err(|err| errors::parse_error(&env, &source, err))?;
        let names = mcp_context_node_adapter::records::names_of(&inner);
        let handle = fast::add_template(fast::TemplateEntry {
            inner,
            pattern: OwnedPattern::parse(&source),
            names,
        });
        Ok(Self { handle })
    }

    /// The registry handle, for `template.js` (which removes this method from the prototype
    /// after taking it).
    #[napi(js_name = "__handle", skip_typescript, catch_unwind)]
    pub fn handle(&self) -> u32 {
        self.handle
    }

    /// The template text, exactly as given.
    #[napi(getter, catch_unwind)]
    pub fn source(&self) -> Result<String> {
        fast::with_template(self.handle, |t| Ok(t.inner.source().to_owned()))
    }

    /// The variable names in template order, each once.
    #[napi(getter, catch_unwind)]
    pub fn variables(&self) -> Result<Vec<String>> {
        fast::with_template(self.handle, |t| Ok(t.names.clone()))
    }

    /// Expands the template (RFC 6570 §3). Values: strings; numbers and bigints (through
    /// `String()`); arrays of those (lists); plain objects of those (associative arrays, in
    /// property order); `null`, `undefined` or a missing name is undefined and expands to
    /// nothing. Only the template's own variable names are read from `vars`.
    ///
    /// @throws {TypeError} a value of another type (booleans included: pass `'true'`).
    /// @throws {TemplateError} a prefix modifier (`{var:3}`) applied to an array or object
    /// (`code` `ERR_TEMPLATE_PREFIX_ON_COMPOSITE`).
    #[napi(catch_unwind, ts_args_type = "vars?: Record<string, VarValue>")]
    pub fn expand(&self, env: Env, vars: Option<Unknown<'_>>) -> Result<String> {
        expand_object(&env, self.handle, vars)
    }

    /// Matches `uri` against the template (docs/matching.md): the decoded variables
    /// (`{name: 'value'}`, an array for an exploded variable), or `null` when it does not
    /// match.
    ///
    /// @throws {McpContextError} `ERR_TEMPLATE_NOT_MATCHABLE`: the template cannot be
    /// matched (an ambiguous shape); `ERR_TOO_MANY_VARIABLES` beyond 32 variables.
    #[napi(
        js_name = "match",
        catch_unwind,
        ts_return_type = "Record<string, string | string[]> | null"
    )]
    pub fn match_uri<'e>(&self, env: &'e Env, uri: String) -> Result<Either<Unknown<'e>, Null>> {
        fast::with_template(self.handle, |t| {
            let pattern = match &t.pattern {
                Ok(p) => p,
                Err(e) => return Err(router::pattern_error(env, t.inner.source(), *e)),
            };
            let mut caps = Captures::<{ router::MAX_VARS }>::new();
            match pattern.matches(&uri, &mut caps) {
                Ok(()) => {
                    router::json_result(env, |w| router::write_captures(w, &caps)).map(Either::A)
                }
                Err(MatchError::NoMatch) => Ok(Either::B(Null)),
                Err(e) => Err(router::match_error(env, e)),
            }
        })
    }

    /// The template source (so a template interpolates as its text).
    #[napi(js_name = "toString", catch_unwind)]
    pub fn to_js_string(&self) -> Result<String> {
        self.source()
    }

    /// The template source (so `JSON.stringify` writes the `uriTemplate` string).
    #[napi(js_name = "toJSON", catch_unwind)]
    pub fn to_json(&self) -> Result<String> {
        self.source()
    }
}
