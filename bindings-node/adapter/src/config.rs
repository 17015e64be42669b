//! The machines' configurations and option objects, read from any [`Source`]: the server's
//! `ServerConfig`, cache hints and completion value sets; the client's `ClientConfig`, call
//! and list options, string maps.

use mcp_context::cache::CacheLimits;
use mcp_context::client::{CachePolicy, ClientConfig, ListMode};
use mcp_context::messages::owned::{OwnedImplementation, OwnedJson};
use mcp_context::server::{CacheHint, SealingKey, ServerConfig};

use crate::error::{Error, Result, decode};
use crate::source::Source;

fn usize_of(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// Optional cache hints (`{ttlMs, cacheScope}`); `null` is none.
pub fn cache_hint<S: Source>(value: Option<&S>, what: &str) -> Result<Option<CacheHint>> {
    match value {
        Some(v) if !v.is_null() => decode::<CacheHint>(&v.json(what)?, what).map(Some),
        _ => Ok(None),
    }
}

/// `{name: ['a', 'b'], …}` as completion value sets (`completions` of templates and
/// prompts); `null` is none.
pub fn value_sets<S: Source>(value: Option<&S>) -> Result<Vec<(String, Vec<String>)>> {
    let Some(o) = value.filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for key in o.keys("completions")? {
        let what = format!("completions.{key}");
        let values = match o.get(&key)? {
            Some(v) => v.strings(&what)?,
            None => Vec::new(),
        };
        out.push((key, values));
    }
    Ok(out)
}

/// `{k: 'v', …}` as pairs in key order; every value must be a string.
pub fn string_pairs<S: Source>(value: Option<&S>, what: &str) -> Result<Vec<(String, String)>> {
    let Some(o) = value.filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for key in o.keys(what)? {
        let v = o.get(&key)?;
        let s = v
            .as_ref()
            .map(|v| v.string(what))
            .transpose()
            .ok()
            .flatten()
            .ok_or_else(|| Error::Type(format!("{what}.{key} must be a string")))?;
        out.push((key, s));
    }
    Ok(out)
}

/// The server machine's configuration: `serverInfo`, `instructions`, `supportedVersions`,
/// the core's limits ([`ServerConfig::LIMITS`] in camelCase: `pageSize`, `requestTimeoutMs`,
/// `maxLine`, `maxSessions`, `sessionHandshakeMs`, `maxSessionsPerPeer`, …), the list and
/// read cache hints, the flags (`legacySessions` among them), `http` (`path`, `maxBody`, `allowedHosts`, `allowedOrigins`), `protection` (`protect::protection`) and
/// `stateKeys` (`[{id, secret}]`).
pub fn server_config<S: Source>(o: Option<&S>) -> Result<ServerConfig> {
    let mut c = ServerConfig::default();
    let Some(o) = o.filter(|o| !o.is_null()) else {
        return Ok(c);
    };
    if let Some(v) = o.field("serverInfo")? {
        c.server_info = Some(decode::<OwnedImplementation>(
            &v.json("serverInfo")?,
            "serverInfo",
        )?);
    }
    if let Some(v) = o.field("instructions")? {
        c.instructions = Some(v.string("instructions")?);
    }
    if let Some(v) = o.field("supportedVersions")? {
        c.supported_versions = v.strings("supportedVersions")?;
    }
    // The core's named limits, in camelCase (`maxLine`, `sessionHandshakeMs`, …).
    for name in ServerConfig::LIMITS {
        let key = crate::spell::camel(name);
        if let Some(v) = o.field(&key)? {
            let n = v.uint(&key)?;
            c.set_limit(name, n)
                .map_err(|e| Error::Type(format!("{key}: {e}")))?;
        }
    }
    for (key, slot) in [
        ("discoverCache", &mut c.discover_cache),
        ("resourcesListCache", &mut c.resources_list_cache),
        ("templatesListCache", &mut c.templates_list_cache),
        ("promptsListCache", &mut c.prompts_list_cache),
        ("toolsListCache", &mut c.tools_list_cache),
        ("readCache", &mut c.read_cache),
    ] {
        if let Some(h) = cache_hint(o.field(key)?.as_ref(), key)? {
            *slot = h;
        }
    }
    for (key, slot) in [
        ("forwardUnlistedReads", &mut c.forward_unlisted_reads),
        ("declareResources", &mut c.declare_resources),
        ("declarePrompts", &mut c.declare_prompts),
        ("completionEvents", &mut c.completion_events),
        ("dynamicResources", &mut c.dynamic_resources),
        ("legacySessions", &mut c.legacy_sessions),
    ] {
        if let Some(v) = o.field(key)? {
            *slot = v.boolean(key)?;
        }
    }
    if let Some(h) = o.field("http")? {
        match h.get("path")? {
            None => {}
            Some(p) if p.is_null() => c.http.path = None,
            Some(p) => c.http.path = Some(p.string("http.path")?),
        }
        if let Some(v) = h.field("maxBody")? {
            c.http.max_body = usize_of(v.uint("maxBody")?);
        }
        for (key, slot) in [
            ("allowedHosts", &mut c.http.allowed_hosts),
            ("allowedOrigins", &mut c.http.allowed_origins),
        ] {
            if let Some(v) = h.field(key)? {
                *slot = v.strings(key)?;
            }
        }
    }
    if let Some(p) = o.field("protection")? {
        c.protection = Some(crate::protect::protection(&p)?);
    }
    if let Some(keys) = o.field("stateKeys")? {
        for k in keys.items("stateKeys")? {
            let id = match k.field("id")? {
                Some(v) => v.uint("id")?,
                None => 0,
            };
            let secret = k
                .field("secret")?
                .ok_or_else(|| Error::context("ERR_CONFIG", "stateKeys[].secret must be bytes"))?
                .bytes("stateKeys[].secret")?;
            c.state_keys.push(SealingKey {
                id: u32::try_from(id).unwrap_or(u32::MAX),
                secret,
            });
        }
    }
    Ok(c)
}

/// A cacheable call's policy: `refresh` always asks the server.
#[must_use]
pub fn policy(refresh: bool) -> CachePolicy {
    if refresh {
        CachePolicy::Refresh
    } else {
        CachePolicy::PreferCache
    }
}

/// A list call's mode: one page from `cursor` when `page` or a cursor is given, else all.
#[must_use]
pub fn list_mode(page: bool, cursor: Option<String>) -> ListMode {
    if page || cursor.is_some() {
        ListMode::Page(cursor)
    } else {
        ListMode::All
    }
}

/// The client machine's configuration: `clientInfo` (`null` leaves it out),
/// `capabilities`, `versions`, `legacyVersions`, `transport`, `requestTimeoutMs`,
/// `probeTimeoutMs`, `maxPages`, `maxInputRounds`, `cache` (`{maxEntries, maxBytes}`, `null`:
/// no cache).
pub fn client_config<S: Source>(o: Option<&S>) -> Result<ClientConfig> {
    let mut c = ClientConfig::new("mcp-context-node", env!("CARGO_PKG_VERSION"));
    let Some(o) = o.filter(|o| !o.is_null()) else {
        return Ok(c);
    };
    match o.get("clientInfo")? {
        None => {}
        Some(v) if v.is_null() => c.client_info = None,
        Some(v) => {
            c.client_info = Some(decode::<OwnedImplementation>(
                &v.json("clientInfo")?,
                "clientInfo",
            )?);
        }
    }
    if let Some(caps) = o.get("capabilities")? {
        c.capabilities = OwnedJson::parse(caps.json("capabilities")?)
            .map_err(|e| Error::Type(format!("capabilities must be JSON: {e}")))?;
    }
    for (key, slot) in [
        ("versions", &mut c.versions),
        ("legacyVersions", &mut c.legacy_versions),
    ] {
        if let Some(v) = o.field(key)? {
            *slot = v.strings(key)?;
        }
    }
    match o.field("transport")? {
        None => c.transport = mcp_context::client::Transport::Stdio,
        Some(v) => {
            c.transport = match v.string("transport")?.as_str() {
                "stdio" => mcp_context::client::Transport::Stdio,
                "http" => mcp_context::client::Transport::Http,
                other => {
                    return Err(Error::Type(format!(
                        "transport must be 'stdio' or 'http', not '{other}'"
                    )));
                }
            }
        }
    }
    for (key, slot) in [
        ("requestTimeoutMs", &mut c.request_timeout_ms),
        ("probeTimeoutMs", &mut c.probe_timeout_ms),
    ] {
        if let Some(v) = o.field(key)? {
            *slot = v.uint(key)?;
        }
    }
    let small = |v: &S, key: &str| v.uint(key).map(|n| n.min(u64::from(u32::MAX)));
    if let Some(v) = o.field("maxPages")? {
        c.max_pages = usize_of(small(&v, "maxPages")?);
    }
    if let Some(v) = o.field("maxInputRounds")? {
        c.max_input_rounds = u8::try_from(small(&v, "maxInputRounds")?).unwrap_or(u8::MAX);
    }
    match o.get("cache")? {
        None => {}
        Some(v) if v.is_null() => c.cache = None,
        Some(co) => {
            let mut limits = c.cache.unwrap_or(CacheLimits {
                max_entries: 256,
                max_bytes: 4 << 20,
            });
            if let Some(v) = co.field("maxEntries")? {
                limits.max_entries = usize_of(small(&v, "maxEntries")?);
            }
            if let Some(v) = co.field("maxBytes")? {
                limits.max_bytes = usize_of(small(&v, "maxBytes")?);
            }
            c.cache = Some(limits);
        }
    }
    Ok(c)
}
