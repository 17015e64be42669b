//! `ServerMachine`'s structured inputs read from JS objects: the configuration
//! (`ServerConfig`), cache hints and completion value sets. Wire-shaped values go through
//! the core's decoders (`convert::decode`); the rest is read key by key, with `TypeError`s
//! naming the key.

use mcp_context::messages::owned::OwnedImplementation;
use mcp_context::server::{CacheHint, SealingKey, ServerConfig};
use napi::bindgen_prelude::{Buffer, JsObjectValue, JsValue, Object, Unknown};
use napi::{Env, Result};

use crate::convert::{self, Int, decode};
use crate::errors;

pub(crate) fn cache_hint(
    env: &Env,
    value: Option<Unknown<'_>>,
    what: &str,
) -> Result<Option<CacheHint>> {
    match value {
        Some(v) if !is_nullish(&v)? => decode::<CacheHint>(env, v, what).map(Some),
        _ => Ok(None),
    }
}

pub(crate) fn is_nullish(v: &Unknown<'_>) -> Result<bool> {
    Ok(matches!(
        v.get_type()?,
        napi::ValueType::Null | napi::ValueType::Undefined
    ))
}

fn get<'e>(o: &Object<'e>, key: &str) -> Result<Option<Unknown<'e>>> {
    let v: Unknown<'e> = o.get_named_property(key)?;
    Ok(if is_nullish(&v)? { None } else { Some(v) })
}

fn get_u64(env: &Env, o: &Object<'_>, key: &str) -> Result<Option<u64>> {
    match o.get_named_property::<Option<Int>>(key)? {
        Some(v) => convert::u64_in(env, &v, key).map(Some),
        None => Ok(None),
    }
}

fn get_usize(env: &Env, o: &Object<'_>, key: &str) -> Result<Option<usize>> {
    Ok(get_u64(env, o, key)?.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
}

/// `{name: ['a', 'b'], …}` → value sets (`completions` of templates and prompts).
pub(crate) fn value_sets(
    env: &Env,
    value: Option<Unknown<'_>>,
) -> Result<Vec<(String, Vec<String>)>> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    if is_nullish(&value)? {
        return Ok(Vec::new());
    }
    let o = value.coerce_to_object()?;
    let mut out = Vec::new();
    for key in Object::keys(&o)? {
        let values: Vec<String> = o.get_named_property(&key).map_err(|_| {
            errors::type_error(
                env,
                format!("completions.{key} must be an array of strings"),
            )
        })?;
        out.push((key, values));
    }
    Ok(out)
}

pub(crate) fn config_from(env: &Env, o: Option<Object<'_>>) -> Result<ServerConfig> {
    let mut c = ServerConfig::default();
    let Some(o) = o else { return Ok(c) };
    if let Some(v) = get(&o, "serverInfo")? {
        c.server_info = Some(decode::<OwnedImplementation>(env, v, "serverInfo")?);
    }
    c.instructions = o.get_named_property::<Option<String>>("instructions")?;
    if let Some(v) = o.get_named_property::<Option<Vec<String>>>("supportedVersions")? {
        c.supported_versions = v;
    }
    if let Some(n) = get_usize(env, &o, "pageSize")? {
        c.page_size = n;
    }
    if let Some(n) = get_u64(env, &o, "requestTimeoutMs")? {
        c.request_timeout_ms = n;
    }
    if let Some(n) = get_usize(env, &o, "streamQueue")? {
        c.stream_queue = n;
    }
    if let Some(n) = get_u64(env, &o, "stateTtlMs")? {
        c.state_ttl_ms = n;
    }
    for (key, slot) in [
        ("discoverCache", &mut c.discover_cache),
        ("resourcesListCache", &mut c.resources_list_cache),
        ("templatesListCache", &mut c.templates_list_cache),
        ("promptsListCache", &mut c.prompts_list_cache),
        ("readCache", &mut c.read_cache),
    ] {
        if let Some(h) = cache_hint(env, get(&o, key)?, key)? {
            *slot = h;
        }
    }
    for (key, slot) in [
        ("forwardUnlistedReads", &mut c.forward_unlisted_reads),
        ("declareResources", &mut c.declare_resources),
        ("declarePrompts", &mut c.declare_prompts),
        ("completionEvents", &mut c.completion_events),
        ("dynamicResources", &mut c.dynamic_resources),
    ] {
        if let Some(b) = o.get_named_property::<Option<bool>>(key)? {
            *slot = b;
        }
    }
    if let Some(h) = o.get_named_property::<Option<Object<'_>>>("http")? {
        let path: Unknown<'_> = h.get_named_property("path")?;
        match path.get_type()? {
            napi::ValueType::Undefined => {}
            napi::ValueType::Null => c.http.path = None,
            _ => c.http.path = Some(h.get_named_property::<String>("path")?),
        }
        if let Some(n) = get_usize(env, &h, "maxBody")? {
            c.http.max_body = n;
        }
        if let Some(v) = h.get_named_property::<Option<Vec<String>>>("allowedHosts")? {
            c.http.allowed_hosts = v;
        }
        if let Some(v) = h.get_named_property::<Option<Vec<String>>>("allowedOrigins")? {
            c.http.allowed_origins = v;
        }
    }
    if let Some(keys) = o.get_named_property::<Option<Vec<Object<'_>>>>("stateKeys")? {
        for k in keys {
            let id = get_u64(env, &k, "id")?.unwrap_or(0);
            let secret: Buffer = k.get_named_property("secret")?;
            c.state_keys.push(SealingKey {
                id: u32::try_from(id).unwrap_or(u32::MAX),
                secret: secret.to_vec(),
            });
        }
    }
    Ok(c)
}
