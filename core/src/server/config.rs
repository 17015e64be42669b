//! [`ServerConfig`]: identity, versions, cache hints, limits and timeouts, with documented
//! defaults.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::auth::resource_server::ResourceServerConfig;
use crate::error_code::version;
use crate::http::HttpConfig;
use crate::json::Limits;
use crate::messages::CacheScope;
use crate::messages::owned::OwnedImplementation;

/// Caching hints for a cacheable result (docs/rules.md §4): `ttlMs` and `cacheScope`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CacheHint {
    /// `ttlMs` (0 = immediately stale).
    pub ttl_ms: u64,
    /// `cacheScope`. The machine turns it into `private` whenever the result depends on the
    /// caller's `auth` (a visibility filter is installed), docs/rules.md §4.
    pub scope: CacheScope,
}

impl CacheHint {
    /// `{ttlMs, cacheScope: "public"}`.
    #[must_use]
    pub const fn public(ttl_ms: u64) -> Self {
        Self {
            ttl_ms,
            scope: CacheScope::Public,
        }
    }

    /// `{ttlMs, cacheScope: "private"}`.
    #[must_use]
    pub const fn private(ttl_ms: u64) -> Self {
        Self {
            ttl_ms,
            scope: CacheScope::Private,
        }
    }
}

/// One `requestState` sealing key (see [`crate::state`]): the newest key seals, every key
/// opens (rotation).
#[derive(Clone, PartialEq, Eq)]
pub struct SealingKey {
    /// The key id written into tokens.
    pub id: u32,
    /// The secret, at least [`crate::state::MIN_KEY_LEN`] bytes.
    pub secret: Vec<u8>,
}

impl fmt::Debug for SealingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SealingKey")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// The server's configuration. Every field has a default ([`ServerConfig::default`]).
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// `_meta["io.modelcontextprotocol/serverInfo"]`, put on every result (docs/rules.md §1.2,
    /// §16.1 rule 7). `None` = configured not to. Default: `mcp-context` and the crate version.
    pub server_info: Option<OwnedImplementation>,
    /// `server/discover` `instructions`. Default: none.
    pub instructions: Option<String>,
    /// Protocol versions served; a request naming another gets -32022 (docs/rules.md §2). Default:
    /// `["2026-07-28"]`.
    pub supported_versions: Vec<String>,
    /// Items per list page (at least 1). Default: 50.
    pub page_size: usize,
    /// Hints on `server/discover`. Default: 5 minutes, public.
    pub discover_cache: CacheHint,
    /// Hints on every `resources/list` page. Default: 1 minute, public.
    pub resources_list_cache: CacheHint,
    /// Hints on every `resources/templates/list` page. Default: 1 minute, public.
    pub templates_list_cache: CacheHint,
    /// Hints on every `prompts/list` page. Default: 1 minute, public.
    pub prompts_list_cache: CacheHint,
    /// Hints on every `tools/list` page of the registered tools. Default: 1 minute, public.
    pub tools_list_cache: CacheHint,
    /// Hints on `resources/read` results when neither the resource nor its template has its
    /// own. Default: 0 ms, private (the safe reading: contents may depend on the caller).
    pub read_cache: CacheHint,
    /// How long the application has to answer an event before the client gets -32603.
    /// Default: 30 s.
    pub request_timeout_ms: u64,
    /// Notifications a listen subscription may have queued and not yet polled; one more
    /// tears the subscription down with an [`Event::StreamOverflow`](super::Event). Equal
    /// `list_changed` notifications and `updated` for the same URI coalesce while queued.
    /// Default: 256.
    pub stream_queue: usize,
    /// Keys for sealing `requestState` (newest first). Without keys the machine sends no
    /// `requestState` and refuses any it receives. Default: none.
    pub state_keys: Vec<SealingKey>,
    /// Lifetime of a sealed `requestState` (docs/rules.md §13 "a short expiry"). Default: 10 min.
    pub state_ttl_ms: u64,
    /// Forward reads of URIs that match no resource or template to the application as
    /// [`ReadTarget::Unlisted`](super::ReadTarget) instead of answering -32602. Default: false.
    pub forward_unlisted_reads: bool,
    /// `resources/list` lists the registered resources, then the host's own pages
    /// ([`Event::ListResources`](super::Event), answered with
    /// [`Server::respond_list`](super::Server::respond_list)); the last registered page, when
    /// it has room left, carries the host's first page too; `resources` is declared, and
    /// reads of URIs that match nothing registered go to the host as
    /// [`ReadTarget::Unlisted`](super::ReadTarget) (it listed them). Default: false.
    pub dynamic_resources: bool,
    /// Declare `resources` even with nothing registered. Default: false.
    pub declare_resources: bool,
    /// Declare `prompts` even with nothing registered. Default: false.
    pub declare_prompts: bool,
    /// Declare `completions` and forward completions without a value set as
    /// [`Event::Complete`](super::Event). Without it, `completions` is declared only when a
    /// value set is registered, and other completions answer an empty list. Default: false.
    pub completion_events: bool,
    /// JSON size and depth limits for incoming messages. Default: [`Limits::DEFAULT`].
    pub limits: Limits,
    /// Live `subscriptions/listen` subscriptions one stream may hold. On stdio the stream is
    /// the whole connection; on HTTP every listen is its own POST, so this bounds a stdio
    /// client. One more is refused with -32603 (docs/server-machine.md §Limits). Default: 64.
    pub max_listens_per_stream: usize,
    /// Live subscriptions on the whole server, all streams together. Default: 10 000.
    pub max_listens: usize,
    /// Requests one stream may have waiting for the application (events not yet answered).
    /// One more is refused with -32603. Default: 1 024.
    pub max_pending_per_stream: usize,
    /// Requests waiting for the application on the whole server. Default: 10 000.
    pub max_pending: usize,
    /// The Streamable HTTP endpoint ([`Server::handle_http`](super::Server::handle_http)):
    /// path, body limit, allowed hosts and origins. Default: [`HttpConfig::default`].
    pub http: HttpConfig,
    /// Serve 2025-11-25 clients too (docs/server-machine.md §"Legacy sessions"): an
    /// `initialize` makes a stdio connection legacy, or opens an HTTP session
    /// (`Mcp-Session-Id`). Default: true. Without feature `legacy` the era is not compiled
    /// in, and this is taken as false.
    pub legacy_sessions: bool,
    /// Legacy HTTP sessions open at once. When the table is full, a new `initialize` takes
    /// the place of the oldest half-open session (one that has seen no request since its
    /// `initialize`); when every session is established it gets -32603 with HTTP 503 and
    /// `Retry-After` (docs/server-machine.md §"Legacy sessions"). Default: 1024.
    pub max_sessions: usize,
    /// A legacy HTTP session without a request for this long (and no GET stream open) ends;
    /// its id then gets 404. Default: 30 min.
    pub session_idle_ms: u64,
    /// The longest stdio line (one message) a runner accepts, in bytes before the `\n`;
    /// a longer one is answered -32600 ([`Server::handle_line_too_long`](super::Server::handle_line_too_long))
    /// and skipped, never buffered ([`crate::stdio::LineSplitter`]). Default: the HTTP body
    /// limit, [`DEFAULT_MAX_BODY`](crate::http::DEFAULT_MAX_BODY) (4 MiB, as the official
    /// SDKs): one bound for a message on either transport.
    pub max_line: usize,
    /// A legacy HTTP session that has seen no request since its `initialize` (no
    /// `notifications/initialized`, no other request, no GET) ends after this long. A real
    /// client sends `notifications/initialized` one round trip after the `initialize`
    /// answer; 10 s leaves room for slow links and makes a flood of handshakes that never
    /// complete cost a table slot for 10 s at most (they are evicted first anyway).
    /// Default: 10 s.
    pub session_handshake_ms: u64,
    /// Legacy HTTP sessions one peer ([`Ctx::peer`](super::Ctx), IPv6 grouped by /64) may
    /// hold. At the bound, the peer's oldest half-open session makes room; when all of them
    /// are established the `initialize` gets -32603 with HTTP 429 and `Retry-After`. A host
    /// behind a reverse proxy passes the client address the proxy reports (or raises this
    /// to `max_sessions`): every connection otherwise comes from the proxy. Default: 256
    /// (a quarter of `max_sessions`).
    pub max_sessions_per_peer: usize,
    /// The HTTP endpoint as an OAuth 2.1 protected resource (docs/rules.md §22): its
    /// metadata is served, requests carry a bearer token the host verifies
    /// ([`Server::http_authenticate`](super::Server::http_authenticate)), items may require
    /// scopes. Stdio stays credential-free. Default: none (every caller is trusted).
    pub protection: Option<ResourceServerConfig>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            server_info: Some(OwnedImplementation::new(
                "mcp-context",
                env!("CARGO_PKG_VERSION"),
            )),
            instructions: None,
            supported_versions: vec![String::from(version::CURRENT)],
            page_size: 50,
            discover_cache: CacheHint::public(300_000),
            resources_list_cache: CacheHint::public(60_000),
            templates_list_cache: CacheHint::public(60_000),
            prompts_list_cache: CacheHint::public(60_000),
            tools_list_cache: CacheHint::public(60_000),
            read_cache: CacheHint::private(0),
            request_timeout_ms: 30_000,
            stream_queue: 256,
            state_keys: Vec::new(),
            state_ttl_ms: 600_000,
            forward_unlisted_reads: false,
            dynamic_resources: false,
            declare_resources: false,
            declare_prompts: false,
            completion_events: false,
            limits: Limits::DEFAULT,
            max_listens_per_stream: 64,
            max_listens: 10_000,
            max_pending_per_stream: 1_024,
            max_pending: 10_000,
            http: HttpConfig::default(),
            legacy_sessions: true,
            max_sessions: 1024,
            session_idle_ms: 30 * 60 * 1000,
            max_line: crate::http::DEFAULT_MAX_BODY,
            session_handshake_ms: 10_000,
            max_sessions_per_peer: 256,
            protection: None,
        }
    }
}

/// A configuration the machine cannot run with (caller error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ConfigError {
    /// `supported_versions` is empty.
    NoSupportedVersion,
    /// `page_size`, `stream_queue` or one of the `max_*` limits (`max_line` included) is 0.
    ZeroCapacity,
    /// A state key is shorter than [`crate::state::MIN_KEY_LEN`] bytes.
    StateKeyTooShort,
    /// [`ServerConfig::protection`] is not
    /// [valid](crate::auth::resource_server::ResourceServerConfig::is_valid).
    InvalidProtection,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NoSupportedVersion => "no supported protocol version configured",
            Self::ZeroCapacity => "page_size, stream_queue and the max_* limits must be at least 1",
            Self::StateKeyTooShort => "a requestState key is too short",
            Self::InvalidProtection => {
                "protection: resource must be an http(s) URL, with an authorization server and at most 64 valid scopes"
            }
        })
    }
}

impl core::error::Error for ConfigError {}

/// A name [`ServerConfig::set_limit`] does not know (the caller's typo).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnknownLimit;

impl fmt::Display for UnknownLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown limit (see ServerConfig::LIMITS)")
    }
}

impl core::error::Error for UnknownLimit {}

/// The named limits: each name, its field (a path in [`ServerConfig`]) and its kind
/// (`size`: `usize`, `ms`: `u64`). One list makes [`ServerConfig::LIMITS`], `set_limit` and
/// `limit`.
macro_rules! limits {
    ($($name:literal => $($field:ident).+ : $kind:ident),* $(,)?) => {
        impl ServerConfig {
            /// The numeric settings a runner's user sets by name
            /// ([`ServerConfig::set_limit`]): the fields of the same name, and `max_body`
            /// ([`HttpConfig::max_body`]). A package layer takes exactly these (Python
            /// keywords as they are, Node options in camelCase), so every binding offers
            /// the same set.
            pub const LIMITS: &'static [&'static str] = &[$($name),*];

            /// Sets the limit `name` (one of [`ServerConfig::LIMITS`]) to `value` (saturated
            /// to `usize` for sizes). A zero capacity is refused later, by
            /// [`Server::new`](super::Server::new) ([`ConfigError::ZeroCapacity`]).
            ///
            /// # Errors
            /// [`UnknownLimit`] for a name not in [`ServerConfig::LIMITS`].
            pub fn set_limit(&mut self, name: &str, value: u64) -> Result<(), UnknownLimit> {
                match name {
                    $($name => self.$($field).+ = limits!(@from $kind, value),)*
                    _ => return Err(UnknownLimit),
                }
                Ok(())
            }

            /// The current value of the limit `name`; `None` for a name not in
            /// [`ServerConfig::LIMITS`].
            #[must_use]
            pub fn limit(&self, name: &str) -> Option<u64> {
                match name {
                    $($name => Some(limits!(@to $kind, self.$($field).+)),)*
                    _ => None,
                }
            }
        }
    };
    (@from size, $v:expr) => { usize::try_from($v).unwrap_or(usize::MAX) };
    (@from ms, $v:expr) => { $v };
    (@to size, $v:expr) => { u64::try_from($v).unwrap_or(u64::MAX) };
    (@to ms, $v:expr) => { $v };
}

limits! {
    "page_size" => page_size: size,
    "request_timeout_ms" => request_timeout_ms: ms,
    "stream_queue" => stream_queue: size,
    "state_ttl_ms" => state_ttl_ms: ms,
    "max_listens_per_stream" => max_listens_per_stream: size,
    "max_listens" => max_listens: size,
    "max_pending_per_stream" => max_pending_per_stream: size,
    "max_pending" => max_pending: size,
    "max_sessions" => max_sessions: size,
    "max_sessions_per_peer" => max_sessions_per_peer: size,
    "session_handshake_ms" => session_handshake_ms: ms,
    "session_idle_ms" => session_idle_ms: ms,
    "max_line" => max_line: size,
    "max_body" => http.max_body: size,
}

impl ServerConfig {
    pub(crate) fn check(&self) -> Result<(), ConfigError> {
        if self.supported_versions.is_empty() {
            return Err(ConfigError::NoSupportedVersion);
        }
        let capacities = [
            self.page_size,
            self.stream_queue,
            self.max_listens_per_stream,
            self.max_listens,
            self.max_pending_per_stream,
            self.max_pending,
            self.max_line,
            self.max_sessions_per_peer,
        ];
        if capacities.contains(&0) {
            return Err(ConfigError::ZeroCapacity);
        }
        if self
            .state_keys
            .iter()
            .any(|k| k.secret.len() < crate::state::MIN_KEY_LEN)
        {
            return Err(ConfigError::StateKeyTooShort);
        }
        if self.protection.as_ref().is_some_and(|p| !p.is_valid()) {
            return Err(ConfigError::InvalidProtection);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_limit_sets_its_field() {
        for (i, name) in ServerConfig::LIMITS.iter().enumerate() {
            let mut c = ServerConfig::default();
            let value = 7_000 + i as u64;
            assert_ne!(c.limit(name), Some(value), "{name}");
            c.set_limit(name, value).unwrap();
            assert_eq!(c.limit(name), Some(value), "{name}");
            // Exactly one field changed: every other name reads its default.
            let d = ServerConfig::default();
            for other in ServerConfig::LIMITS.iter().filter(|o| *o != name) {
                assert_eq!(c.limit(other), d.limit(other), "{name} moved {other}");
            }
        }
        let mut c = ServerConfig::default();
        c.set_limit("max_line", 64).unwrap();
        assert_eq!(c.max_line, 64);
        c.set_limit("max_body", 9).unwrap();
        assert_eq!(c.http.max_body, 9);
        assert_eq!(c.set_limit("max_lines", 1), Err(UnknownLimit));
        assert_eq!(c.limit("max_lines"), None);
    }
}
