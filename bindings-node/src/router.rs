//! `Router` (many templates, one URI: the core's indexed `Router`) and the capture
//! conversion shared with `UriTemplate.match`.
//!
//! Captured values come back decoded: a string per variable, an array of strings for an
//! exploded one (`{/path*}`). A value whose percent-decoding is not UTF-8 is given raw.

use mcp_context::json::{EncodeError, Writer};
use mcp_context::template::{
    Captures, Encoded, InsertError, MatchError, OwnedTemplate, PatternError, Router as Core,
};
use napi::bindgen_prelude::{Either, Null, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::errors;
use crate::fast;

/// Captures beyond this many variables are refused (`ERR_TOO_MANY_VARIABLES`).
pub(crate) const MAX_VARS: usize = 32;

/// Writes the captures of a match as a JSON object `{"name": "value", …}` (an array for an
/// exploded variable) into `w`. The result crosses to JS as one string and one `JSON.parse`:
/// far fewer engine calls than setting each property.
pub(crate) fn write_captures<const N: usize>(
    w: &mut Writer<'_, String>,
    caps: &Captures<'_, '_, N>,
) -> std::result::Result<(), EncodeError> {
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

/// The JSON text built by `build` as a JS value.
pub(crate) fn json_result<'e>(
    env: &'e Env,
    build: impl FnOnce(&mut Writer<'_, String>) -> std::result::Result<(), EncodeError>,
) -> Result<Unknown<'e>> {
    let mut text = String::with_capacity(128);
    build(&mut Writer::new(&mut text))
        .map_err(|e| errors::context_error(env, e.to_string(), String::from("ERR_ENCODE")))?;
    errors::json_parse(env, text)
}

/// A `TemplateError` (unparsable) or `McpContextError` `ERR_TEMPLATE_NOT_MATCHABLE`.
pub(crate) fn pattern_error(env: &Env, source: &str, e: PatternError) -> napi::Error {
    match e {
        PatternError::Parse(p) => errors::parse_error(env, source, p),
        other => errors::context_error(
            env,
            other.to_string(),
            String::from("ERR_TEMPLATE_NOT_MATCHABLE"),
        ),
    }
}

pub(crate) fn match_error(env: &Env, e: MatchError) -> napi::Error {
    errors::context_error(env, e.to_string(), String::from("ERR_TOO_MANY_VARIABLES"))
}

/// Routes a URI among many RFC 6570 templates at once (docs/matching.md §7): the cost does
/// not grow with templates that share no prefix with the URI. Precedence: at the first
/// segment where templates differ, literal text beats mixed text, beats a bare `{var}`,
/// beats anything spanning segments; equal kinds keep registration order.
///
/// ```js
/// const router = new Router()
/// router.insert('repo://{owner}/{repo}')           // 0
/// router.insert('repo://{owner}/{repo}/issues/{n}') // 1
/// router.route('repo://acme/web/issues/7')
/// // { id: 1, template: 'repo://{owner}/{repo}/issues/{n}', variables: { owner: 'acme', repo: 'web', n: '7' } }
/// ```
#[napi]
pub struct Router {
    /// The router's slot in the registry (`fast.rs`), shared with the fast path.
    handle: u32,
}

impl Drop for Router {
    fn drop(&mut self) {
        fast::drop_router(self.handle);
    }
}

#[napi]
impl Router {
    /// An empty router.
    #[napi(constructor, catch_unwind)]
    #[allow(clippy::new_without_default)] // a JS constructor
    pub fn new() -> Self {
        Self {
            handle: fast::add_router(),
        }
    }

    /// The registry handle, for `template.js` (which removes this method from the prototype
    /// after taking it).
    #[napi(js_name = "__handle", skip_typescript, catch_unwind)]
    pub fn handle(&self) -> u32 {
        self.handle
    }

    /// Registers `template`; returns its id (the registration index).
    ///
    /// @throws {TemplateError} `template` does not parse.
    /// @throws {McpContextError} `ERR_TEMPLATE_NOT_MATCHABLE`, `ERR_ROUTE_INDISTINGUISHABLE`
    /// or `ERR_ROUTE_SHADOWED` (a registered template makes it unreachable).
    #[napi(catch_unwind)]
    pub fn insert(&mut self, env: Env, template: String) -> Result<u32> {
        // Parsed twice (here for the names, in the core's insert): registration is not a hot
        // path, and the core's error wins.
        let names = OwnedTemplate::parse(&template)
            .map(|t| mcp_context_node_adapter::records::names_of(&t))
            .unwrap_or_default();
        fast::with_router_mut(self.handle, |r| {
            let id = r.core.insert(&template, ()).map_err(|e| {
                let code = match e {
                    InsertError::Parse(p) => return errors::parse_error(&env, &template, p),
                    InsertError::Compile(_) => "ERR_TEMPLATE_NOT_MATCHABLE",
                    InsertError::Indistinguishable { .. } => "ERR_ROUTE_INDISTINGUISHABLE",
                    InsertError::Shadowed { .. } => "ERR_ROUTE_SHADOWED",
                    InsertError::CapacityExceeded => "ERR_ROUTE_CAPACITY",
                    // A variant added later: its code from the core's identifier.
                    other => {
                        let code = crate::ident::err_code(other.ident());
                        return errors::context_error(&env, format!("{template}: {e}"), code);
                    }
                };
                errors::context_error(&env, format!("{template}: {e}"), code.to_string())
            })?;
            r.names.push(names);
            Ok(u32::try_from(id.index()).unwrap_or(u32::MAX))
        })
    }

    /// The template `uri` routes to with its decoded variables, or `null`.
    ///
    /// @throws {McpContextError} `ERR_TOO_MANY_VARIABLES` (more than 32 in one template).
    #[napi(
        catch_unwind,
        ts_return_type = "{ id: number; template: string; variables: Record<string, string | string[]> } | null"
    )]
    pub fn route<'e>(&self, env: &'e Env, uri: String) -> Result<Either<Unknown<'e>, Null>> {
        fast::with_router(self.handle, |r| self.route_in(env, &r.core, &uri))
    }

    /// The number of templates.
    #[napi(getter, catch_unwind)]
    pub fn length(&self) -> Result<u32> {
        fast::with_router(self.handle, |r| {
            Ok(u32::try_from(r.core.len()).unwrap_or(u32::MAX))
        })
    }
}

impl Router {
    fn route_in<'e>(
        &self,
        env: &'e Env,
        core: &Core<()>,
        uri: &str,
    ) -> Result<Either<Unknown<'e>, Null>> {
        let mut caps = Captures::<MAX_VARS>::new();
        match core.route(uri, &mut caps) {
            Ok(hit) => json_result(env, |w| {
                w.begin_object()?;
                w.key("id")?;
                w.u64(hit.id.index() as u64)?;
                w.key("template")?;
                w.str(hit.template)?;
                w.key("variables")?;
                write_captures(w, &caps)?;
                w.end_object()
            })
            .map(Either::A),
            Err(MatchError::NoMatch) => Ok(Either::B(Null)),
            Err(e) => Err(match_error(env, e)),
        }
    }
}
