//! `ClientMachine`'s inputs read from JS objects: the configuration (`ClientConfig`), the
//! options of cacheable and list calls, and string maps (prompt arguments, completion
//! context).

use mcp_context::cache::CacheLimits;
use mcp_context::client::{CachePolicy, ClientConfig, ListMode, Transport};
use mcp_context::messages::owned::{OwnedImplementation, OwnedJson};
use napi::bindgen_prelude::{JsObjectValue, JsValue, Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use crate::convert::{self, Int, decode};
use crate::errors;

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

pub(crate) fn policy(refresh: Option<bool>) -> CachePolicy {
    if refresh.unwrap_or(false) {
        CachePolicy::Refresh
    } else {
        CachePolicy::PreferCache
    }
}

pub(crate) fn list_mode(o: Option<&ListOptions>) -> ListMode {
    match o {
        Some(o) if o.page.unwrap_or(false) || o.cursor.is_some() => {
            ListMode::Page(o.cursor.clone())
        }
        _ => ListMode::All,
    }
}

pub(crate) fn string_pairs(
    env: &Env,
    value: Option<Object<'_>>,
    what: &str,
) -> Result<Vec<(String, String)>> {
    let Some(o) = value else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for key in Object::keys(&o)? {
        let v: Unknown<'_> = o.get_named_property(&key)?;
        if v.get_type()? != napi::ValueType::String {
            return Err(errors::type_error(
                env,
                format!("{what}.{key} must be a string"),
            ));
        }
        out.push((key, v.coerce_to_string()?.into_utf8()?.into_owned()?));
    }
    Ok(out)
}

pub(crate) fn config_from(env: &Env, o: Option<Object<'_>>) -> Result<ClientConfig> {
    let Some(o) = o else {
        return Ok(ClientConfig::new(
            "mcp-context-node",
            env!("CARGO_PKG_VERSION"),
        ));
    };
    let mut c = ClientConfig::new("mcp-context-node", env!("CARGO_PKG_VERSION"));
    let info: Unknown<'_> = o.get_named_property("clientInfo")?;
    match info.get_type()? {
        napi::ValueType::Undefined => {}
        napi::ValueType::Null => c.client_info = None,
        _ => c.client_info = Some(decode::<OwnedImplementation>(env, info, "clientInfo")?),
    }
    let caps: Unknown<'_> = o.get_named_property("capabilities")?;
    if caps.get_type()? != napi::ValueType::Undefined {
        let text = convert::stringify(env, caps, "capabilities")?;
        c.capabilities = OwnedJson::parse(text)
            .map_err(|e| errors::type_error(env, format!("capabilities must be JSON: {e}")))?;
    }
    if let Some(v) = o.get_named_property::<Option<Vec<String>>>("versions")? {
        c.versions = v;
    }
    if let Some(v) = o.get_named_property::<Option<Vec<String>>>("legacyVersions")? {
        c.legacy_versions = v;
    }
    match o
        .get_named_property::<Option<String>>("transport")?
        .as_deref()
    {
        None | Some("stdio") => c.transport = Transport::Stdio,
        Some("http") => c.transport = Transport::Http,
        Some(other) => {
            return Err(errors::type_error(
                env,
                format!("transport must be 'stdio' or 'http', not '{other}'"),
            ));
        }
    }
    for (key, slot) in [
        ("requestTimeoutMs", &mut c.request_timeout_ms),
        ("probeTimeoutMs", &mut c.probe_timeout_ms),
    ] {
        if let Some(v) = o.get_named_property::<Option<Int>>(key)? {
            *slot = convert::u64_in(env, &v, key)?;
        }
    }
    if let Some(n) = o.get_named_property::<Option<u32>>("maxPages")? {
        c.max_pages = n as usize;
    }
    if let Some(n) = o.get_named_property::<Option<u32>>("maxInputRounds")? {
        c.max_input_rounds = u8::try_from(n).unwrap_or(u8::MAX);
    }
    let cache: Unknown<'_> = o.get_named_property("cache")?;
    match cache.get_type()? {
        napi::ValueType::Undefined => {}
        napi::ValueType::Null => c.cache = None,
        _ => {
            let co = cache.coerce_to_object()?;
            let mut limits = c.cache.unwrap_or(CacheLimits {
                max_entries: 256,
                max_bytes: 4 << 20,
            });
            if let Some(n) = co.get_named_property::<Option<u32>>("maxEntries")? {
                limits.max_entries = n as usize;
            }
            if let Some(n) = co.get_named_property::<Option<u32>>("maxBytes")? {
                limits.max_bytes = n as usize;
            }
            c.cache = Some(limits);
        }
    }
    Ok(c)
}
