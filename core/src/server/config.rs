//! [`ServerConfig`]: identity, versions, cache hints, limits and timeouts, with documented
//! defaults.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::error_code::version;
use crate::http::HttpConfig;
use crate::json::Limits;
use crate::messages::CacheScope;
use crate::messages::owned::OwnedImplementation;

/// Caching hints for a cacheable result (DIGEST §4): `ttlMs` and `cacheScope`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CacheHint {
    /// `ttlMs` (0 = immediately stale).
    pub ttl_ms: u64,
    /// `cacheScope`. The machine turns it into `private` whenever the result depends on the
    /// caller's `auth` (a visibility filter is installed), DIGEST §4.
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
    /// `_meta["io.modelcontextprotocol/serverInfo"]`, put on every result (DIGEST §1.2,
    /// §16.1 rule 7). `None` = configured not to. Default: `mcp-context` and the crate version.
    pub server_info: Option<OwnedImplementation>,
    /// `server/discover` `instructions`. Default: none.
    pub instructions: Option<String>,
    /// Protocol versions served; a request naming another gets -32022 (DIGEST §2). Default:
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
    /// Lifetime of a sealed `requestState` (DIGEST §13 "a short expiry"). Default: 10 min.
    pub state_ttl_ms: u64,
    /// Forward reads of URIs that match no resource or template to the application as
    /// [`ReadTarget::Unlisted`](super::ReadTarget) instead of answering -32602. Default: false.
    pub forward_unlisted_reads: bool,
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
    /// The Streamable HTTP endpoint ([`Server::handle_http`](super::Server::handle_http)):
    /// path, body limit, allowed hosts and origins. Default: [`HttpConfig::default`].
    pub http: HttpConfig,
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
            read_cache: CacheHint::private(0),
            request_timeout_ms: 30_000,
            stream_queue: 256,
            state_keys: Vec::new(),
            state_ttl_ms: 600_000,
            forward_unlisted_reads: false,
            declare_resources: false,
            declare_prompts: false,
            completion_events: false,
            limits: Limits::DEFAULT,
            http: HttpConfig::default(),
        }
    }
}

/// A configuration the machine cannot run with (caller error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ConfigError {
    /// `supported_versions` is empty.
    NoSupportedVersion,
    /// `page_size` or `stream_queue` is 0.
    ZeroCapacity,
    /// A state key is shorter than [`crate::state::MIN_KEY_LEN`] bytes.
    StateKeyTooShort,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NoSupportedVersion => "no supported protocol version configured",
            Self::ZeroCapacity => "page_size and stream_queue must be at least 1",
            Self::StateKeyTooShort => "a requestState key is too short",
        })
    }
}

impl core::error::Error for ConfigError {}

impl ServerConfig {
    pub(crate) fn check(&self) -> Result<(), ConfigError> {
        if self.supported_versions.is_empty() {
            return Err(ConfigError::NoSupportedVersion);
        }
        if self.page_size == 0 || self.stream_queue == 0 {
            return Err(ConfigError::ZeroCapacity);
        }
        if self
            .state_keys
            .iter()
            .any(|k| k.secret.len() < crate::state::MIN_KEY_LEN)
        {
            return Err(ConfigError::StateKeyTooShort);
        }
        Ok(())
    }
}
