//! `Cache`: the core's scope-aware result cache (`mcp_context::cache::Cache`, docs/rules.md §4) with
//! JS types: keys are the method and its one key parameter, values opaque `Buffer`s.

use mcp_context::cache::{
    Attempt, AuthContext, Cache as Core, CacheHints, CacheKey, CacheLimits, CacheScope,
    Invalidation, ListKind, Lookup, Refused,
};
use napi::bindgen_prelude::{Buffer, Either, JsObjectValue, Null, Object};
use napi::{Env, Result};
use napi_derive::napi;

use crate::convert::{self, Int};
use crate::errors;

/// The caching hints of a result as received: `ttlMs` (absent, 0 or negative: stale at
/// once) and `cacheScope` (absent reads as `'private'`).
#[napi(object)]
pub struct CacheHintsIn {
    /// `ttlMs`.
    pub ttl_ms: Option<f64>,
    /// `cacheScope`.
    #[napi(ts_type = "'public' | 'private'")]
    pub cache_scope: Option<String>,
}

fn key<'k>(env: &Env, method: &str, param: Option<&'k str>) -> Result<CacheKey<'k>> {
    CacheKey::new(method, param).map_err(|e| {
        let code = crate::ident::err_code(e.ident());
        errors::context_error(env, format!("{method}: {e}"), code)
    })
}

fn auth_of(env: &Env, auth: Option<&Int>) -> Result<Option<AuthContext>> {
    auth.map(|a| convert::u64_in(env, a, "auth").map(AuthContext))
        .transpose()
}

/// A bounded, scope-aware cache of serialized results (docs/rules.md §4): `private` results are
/// served only to the authorization context (`auth`) that stored them; change notifications
/// invalidate; results of `input_required` retries are never stored.
///
/// ```js
/// const cache = new Cache({ maxEntries: 256, maxBytes: 4 << 20 })
/// cache.insert('resources/read', 'file:///a', body, { ttlMs: 60000, cacheScope: 'public' }, Date.now())
/// cache.get('resources/read', 'file:///a', Date.now()) // Buffer
/// cache.invalidate('notifications/resources/updated', 'file:///a') // 1
/// ```
#[napi]
pub struct Cache {
    inner: Core,
}

#[napi]
impl Cache {
    /// An empty cache holding at most `maxEntries` (256) entries and `maxBytes` (4 MiB).
    #[napi(
        constructor,
        catch_unwind,
        ts_args_type = "limits?: { maxEntries?: number; maxBytes?: number }"
    )]
    pub fn new(limits: Option<Object<'_>>) -> Result<Self> {
        let mut l = CacheLimits {
            max_entries: 256,
            max_bytes: 4 << 20,
        };
        if let Some(o) = limits {
            if let Some(n) = o.get_named_property::<Option<u32>>("maxEntries")? {
                l.max_entries = n as usize;
            }
            if let Some(n) = o.get_named_property::<Option<u32>>("maxBytes")? {
                l.max_bytes = n as usize;
            }
        }
        Ok(Self {
            inner: Core::new(l),
        })
    }

    /// Stores `value`, the result of `method` (`server/discover`, a list with its `cursor`,
    /// `resources/read` with its `uri` as `key`) received at `nowMs` with `hints`, for `auth`
    /// (`null`: anonymous). `retry: true` marks the result of an `input_required` retry.
    /// Returns `'stored'` or why not: `'retry'`, `'immediatelyStale'`, `'tooLarge'`.
    ///
    /// @throws {McpContextError} `ERR_NOT_CACHEABLE`, `ERR_MISSING_URI`.
    #[napi(
        catch_unwind,
        ts_args_type = "method: string, key: string | null, value: Buffer | string, hints: CacheHintsIn, nowMs: number | bigint, auth?: number | bigint | null, retry?: boolean",
        ts_return_type = "'stored' | 'retry' | 'immediatelyStale' | 'tooLarge'"
    )]
    #[allow(clippy::too_many_arguments)] // mirrors the core's insert
    pub fn insert(
        &mut self,
        env: Env,
        method: String,
        key_param: Option<String>,
        value: Either<Buffer, String>,
        hints: CacheHintsIn,
        now_ms: Int,
        auth: Option<Int>,
        retry: Option<bool>,
    ) -> Result<&'static str> {
        let k = key(&env, &method, key_param.as_deref())?;
        let now = convert::time_in(&env, &now_ms)?;
        let auth = auth_of(&env, auth.as_ref())?;
        let scope = match hints.cache_scope.as_deref() {
            None => None,
            Some("public") => Some(CacheScope::Public),
            Some("private") => Some(CacheScope::Private),
            Some(other) => {
                return Err(errors::type_error(
                    &env,
                    format!("cacheScope must be 'public' or 'private', not '{other}'"),
                ));
            }
        };
        #[allow(clippy::cast_possible_truncation)]
        let h = CacheHints {
            ttl_ms: hints.ttl_ms.filter(|t| t.is_finite()).map(|t| t as i64),
            scope,
        };
        let attempt = if retry.unwrap_or(false) {
            Attempt::Retry
        } else {
            Attempt::Original
        };
        let bytes: &[u8] = match &value {
            Either::A(b) => b,
            Either::B(s) => s.as_bytes(),
        };
        Ok(match self.inner.insert(&k, auth, h, attempt, bytes, now) {
            Ok(()) => "stored",
            Err(Refused::Retry) => "retry",
            Err(Refused::ImmediatelyStale) => "immediatelyStale",
            Err(_) => "tooLarge",
        })
    }

    /// The fresh result for (`method`, `key`) that `auth` may see, or `null`.
    ///
    /// @throws {McpContextError} `ERR_NOT_CACHEABLE`, `ERR_MISSING_URI`.
    #[napi(
        catch_unwind,
        ts_args_type = "method: string, key: string | null, nowMs: number | bigint, auth?: number | bigint | null"
    )]
    pub fn get(
        &mut self,
        env: Env,
        method: String,
        key_param: Option<String>,
        now_ms: Int,
        auth: Option<Int>,
    ) -> Result<Option<Buffer>> {
        let k = key(&env, &method, key_param.as_deref())?;
        let now = convert::time_in(&env, &now_ms)?;
        let auth = auth_of(&env, auth.as_ref())?;
        Ok(self
            .inner
            .get(&k, auth, now)
            .map(|v| Buffer::from(v.to_vec())))
    }

    /// The best result that `auth` may see: `{fresh: true, value}`, a stale one
    /// (`fresh: false`: re-fetch, MAY serve it if that fails), or `null`.
    #[napi(
        catch_unwind,
        ts_args_type = "method: string, key: string | null, nowMs: number | bigint, auth?: number | bigint | null",
        ts_return_type = "{ fresh: boolean; value: Buffer } | null"
    )]
    pub fn lookup<'e>(
        &mut self,
        env: &'e Env,
        method: String,
        key_param: Option<String>,
        now_ms: Int,
        auth: Option<Int>,
    ) -> Result<Either<Object<'e>, Null>> {
        let k = key(env, &method, key_param.as_deref())?;
        let now = convert::time_in(env, &now_ms)?;
        let auth = auth_of(env, auth.as_ref())?;
        let (fresh, v) = match self.inner.lookup(&k, auth, now) {
            Lookup::Fresh(v) => (true, v),
            Lookup::Stale(v) => (false, v),
            Lookup::Miss => return Ok(Either::B(Null)),
        };
        let mut o = Object::new(env)?;
        o.set_named_property("fresh", fresh)?;
        o.set_named_property("value", Buffer::from(v.to_vec()))?;
        Ok(Either::A(o))
    }

    /// Drops what a notification makes stale (`notifications/resources/updated` with its
    /// `uri`, the `list_changed` ones); returns how many entries.
    #[napi(catch_unwind)]
    pub fn invalidate(&mut self, notification: String, uri: Option<String>) -> u32 {
        Invalidation::from_notification(&notification, uri.as_deref())
            .map_or(0, |e| to_u32(self.inner.invalidate(e)))
    }

    /// The server rejected a cursor of `method`'s list: drops every page of that list.
    ///
    /// @throws {McpContextError} `ERR_NOT_CACHEABLE`: not a list method.
    #[napi(catch_unwind)]
    pub fn invalidate_cursor(&mut self, env: Env, method: String) -> Result<u32> {
        let list = match method.as_str() {
            "resources/list" => ListKind::Resources,
            "resources/templates/list" => ListKind::ResourceTemplates,
            "prompts/list" => ListKind::Prompts,
            "tools/list" => ListKind::Tools,
            _ => {
                return Err(errors::context_error(
                    &env,
                    format!("{method} is not a list method"),
                    String::from("ERR_NOT_CACHEABLE"),
                ));
            }
        };
        Ok(to_u32(
            self.inner.invalidate(Invalidation::CursorRejected { list }),
        ))
    }

    /// Drops every private entry of `auth` (`null`: anonymous); returns how many.
    #[napi(catch_unwind)]
    pub fn forget_context(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint | null")] auth: Option<Int>,
    ) -> Result<u32> {
        let auth = auth_of(&env, auth.as_ref())?;
        Ok(to_u32(self.inner.forget_context(auth)))
    }

    /// Drops every entry that is not fresh at `nowMs`; returns how many.
    #[napi(catch_unwind)]
    pub fn purge_stale(
        &mut self,
        env: Env,
        #[napi(ts_arg_type = "number | bigint")] now_ms: Int,
    ) -> Result<u32> {
        let now = convert::time_in(&env, &now_ms)?;
        Ok(to_u32(self.inner.purge_stale(now)))
    }

    /// Drops everything.
    #[napi(catch_unwind)]
    pub fn clear(&mut self) {
        self.inner.clear();
    }

    /// The number of entries.
    #[napi(getter, catch_unwind)]
    pub fn length(&self) -> u32 {
        to_u32(self.inner.len())
    }

    /// Key and value bytes held.
    #[napi(getter, catch_unwind)]
    pub fn bytes(&self) -> u32 {
        to_u32(self.inner.bytes())
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
