//! `ClientMachine`'s inputs: the options of cacheable and list calls (napi objects), and the
//! configuration and string maps read through the adapter.

use mcp_context::client::{CachePolicy, ClientConfig, ListMode};
use mcp_context_node_adapter::config;
use napi::bindgen_prelude::{JsValue, Object};
use napi::{Env, Result};
use napi_derive::napi;

use crate::adapt::{In, thrower};

/// Options of a cacheable call.
#[napi(object)]
pub struct CallOptions {
    /// Always ask the server (the result still refreshes the cache). Default: a fresh cached
    /// result is served without a request.
    pub refresh: Option<bool>,
}

/// Options of a list call.
#[napi(object)]
pub struct ListOptions {
    /// Fetch one page only, starting at `cursor` (absent: the first page). Default: every
    /// page (following `nextCursor`, at most `maxPages`).
    pub page: Option<bool>,
    /// The cursor of the page to fetch (implies `page`).
    pub cursor: Option<String>,
    /// Always ask the server.
    pub refresh: Option<bool>,
}

/// The options' cache policy.
pub(crate) fn policy(refresh: Option<bool>) -> CachePolicy {
    config::policy(refresh.unwrap_or(false))
}

/// The list options' mode.
pub(crate) fn list_mode(o: Option<&ListOptions>) -> ListMode {
    let o = o.map(|o| (o.page.unwrap_or(false), o.cursor.clone()));
    let (page, cursor) = o.unwrap_or_default();
    config::list_mode(page, cursor)
}

/// A string map argument (prompt arguments, completion context).
pub(crate) fn string_pairs(
    env: &Env,
    value: Option<Object<'_>>,
    what: &str,
) -> Result<Vec<(String, String)>> {
    let value = In::opt(env, value.map(|o| o.to_unknown()))?;
    config::string_pairs(value.as_ref(), what).map_err(thrower(env))
}

/// The `ClientConfig` argument.
pub(crate) fn config_from(env: &Env, o: Option<Object<'_>>) -> Result<ClientConfig> {
    let value = In::opt(env, o.map(|o| o.to_unknown()))?;
    config::client_config(value.as_ref()).map_err(thrower(env))
}
