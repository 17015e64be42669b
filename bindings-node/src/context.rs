//! `selectContext`: the core's context selection (`mcp_context::context::select`, docs/rules.md
//! §14.3): which resources to attach within a budget, by audience, priority and recency.

#![allow(unreachable_pub)] // the #[napi] items are exported through the addon

use mcp_context::context::{self, Audience, Budget, Candidate, Role};
use napi::bindgen_prelude::{JsObjectValue, JsValue, Object, Unknown};
use napi::{Env, Result, ValueType};
use napi_derive::napi;

use crate::errors;

/// What `selectContext` chose: indices into the candidates, in selection order, and the
/// budget they use.
#[napi(object)]
pub struct ContextSelection {
    /// The chosen candidates' indices.
    pub indices: Vec<u32>,
    /// The budget used, in the budget's unit.
    pub used: f64,
}

struct Owned {
    uri: String,
    size: Option<u64>,
    tokens: Option<u64>,
    audience: Option<Audience>,
    priority: Option<f64>,
    last_modified: Option<String>,
}

fn count(env: &Env, o: &Object<'_>, key: &str, i: u32) -> Result<Option<u64>> {
    match o.get_named_property::<Option<f64>>(key)? {
        None => Ok(None),
        Some(n) if n.is_finite() && n >= 0.0 && n.fract() == 0.0 =>
        {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Ok(Some(n as u64))
        }
        Some(n) => Err(errors::type_error(
            env,
            format!("candidates[{i}].{key} must be a non-negative integer, not {n}"),
        )),
    }
}

fn candidate(env: &Env, o: &Object<'_>, i: u32) -> Result<Owned> {
    let uri = o
        .get_named_property::<Option<String>>("uri")?
        .ok_or_else(|| errors::type_error(env, format!("candidates[{i}].uri must be a string")))?;
    let mut c = Owned {
        uri,
        size: count(env, o, "size", i)?,
        tokens: count(env, o, "tokens", i)?,
        audience: None,
        priority: None,
        last_modified: None,
    };
    let a: Unknown<'_> = o.get_named_property("annotations")?;
    if a.get_type()? == ValueType::Object {
        let a = a.coerce_to_object()?;
        if let Some(roles) = a.get_named_property::<Option<Vec<String>>>("audience")? {
            c.audience = Some(Audience::from_roles(roles.iter().map(String::as_str)));
        }
        c.priority = a.get_named_property::<Option<f64>>("priority")?;
        c.last_modified = a.get_named_property::<Option<String>>("lastModified")?;
    }
    Ok(c)
}

/// Chooses which resources to attach to a model's context (docs/rules.md §14.3): keep those whose
/// `annotations.audience` suits `target` (`'user'` / `'assistant'`; absent audience suits
/// all), order by `priority` (absent: 0.5), then `lastModified` (newest first), then `uri`,
/// and take greedily every one whose cost fits what is left of `budget` (`{bytes}`: sum of
/// `size`; `{tokens}`: sum of `tokens`, else `size`/4). A candidate without a cost is never
/// chosen. Candidates are `Resource`-shaped objects (`uri`, `size`, `annotations`) with an
/// optional `tokens` estimate.
///
/// @throws {TypeError} a malformed candidate or budget.
#[napi(catch_unwind)]
pub fn select_context(
    env: Env,
    #[napi(
        ts_arg_type = "Array<{ uri: string; size?: number; tokens?: number; annotations?: Annotations }>"
    )]
    candidates: Vec<Object<'_>>,
    #[napi(ts_arg_type = "{ bytes: number } | { tokens: number }")] budget: Object<'_>,
    #[napi(ts_arg_type = "'user' | 'assistant' | null")] target: Option<String>,
) -> Result<ContextSelection> {
    let owned = candidates
        .iter()
        .zip(0u32..)
        .map(|(o, i)| candidate(&env, o, i))
        .collect::<Result<Vec<_>>>()?;
    let views: Vec<Candidate<'_>> = owned
        .iter()
        .map(|c| Candidate {
            uri: &c.uri,
            size: c.size,
            tokens: c.tokens,
            audience: c.audience,
            priority: c.priority,
            last_modified: c.last_modified.as_deref(),
        })
        .collect();
    let bytes = budget.get_named_property::<Option<f64>>("bytes")?;
    let tokens = budget.get_named_property::<Option<f64>>("tokens")?;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let b = match (bytes, tokens) {
        (Some(n), None) if n >= 0.0 => Budget::Bytes(n as u64),
        (None, Some(n)) if n >= 0.0 => Budget::Tokens(n as u64),
        _ => {
            return Err(errors::type_error(
                &env,
                String::from("budget must be { bytes: n } or { tokens: n } with n >= 0"),
            ));
        }
    };
    let role = match target.as_deref() {
        None => None,
        Some(s) => Some(Role::parse(s).ok_or_else(|| {
            errors::type_error(
                &env,
                format!("target must be 'user' or 'assistant', not '{s}'"),
            )
        })?),
    };
    let mut out = vec![0usize; views.len()];
    let s = context::select(&views, b, role, &mut out)
        .map_err(|e| errors::context_error(&env, e.to_string(), String::from("ERR_CONTEXT")))?;
    #[allow(clippy::cast_precision_loss)]
    Ok(ContextSelection {
        indices: out
            .iter()
            .take(s.count)
            .map(|&i| u32::try_from(i).unwrap_or(u32::MAX))
            .collect(),
        used: s.used as f64,
    })
}
