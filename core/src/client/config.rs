//! [`ClientConfig`]: who the client is, what it speaks, and its limits.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::cache::CacheLimits;
use crate::error_code::version;
use crate::messages::ClientCapabilities;
use crate::messages::owned::{OwnedImplementation, OwnedJson};

/// How the host carries messages: it decides how a cancellation is signalled
/// (docs/rules.md §11.4, §12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// stdio: one shared channel; cancelling sends `notifications/cancelled` ("The client
    /// **MUST** send a `notifications/cancelled`", docs/rules.md §11.4).
    Stdio,
    /// Streamable HTTP: one POST per request; cancelling closes that request's response
    /// stream ([`Output::CloseStream`](super::Output::CloseStream)), no notification.
    Http,
}

/// The client's configuration. [`ClientConfig::new`] gives the defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientConfig {
    /// `io.modelcontextprotocol/clientInfo` (and legacy `clientInfo`). Clients SHOULD send it
    /// on every request (docs/rules.md §1.1); `None` leaves it out.
    pub client_info: Option<OwnedImplementation>,
    /// `ClientCapabilities` sent on every request (`{}` = none). Declare `elicitation`,
    /// `sampling` or `roots` only if the host fulfils those input requests (docs/rules.md §13).
    pub capabilities: OwnedJson,
    /// Modern protocol versions (2026-07-28 and later), most preferred first. The first is
    /// probed with `server/discover`.
    pub versions: Vec<String>,
    /// Legacy versions for the dual-era fallback (`initialize`, docs/rules.md §17), most preferred
    /// first. Empty: modern only, no fallback.
    pub legacy_versions: Vec<String>,
    /// The transport, for cancellation.
    pub transport: Transport,
    /// How long a request may stay unanswered before it fails with a timeout.
    pub request_timeout_ms: u64,
    /// How long the `server/discover` probe waits before the server is taken as legacy
    /// (docs/rules.md §17.2 "no answer within a timeout").
    pub probe_timeout_ms: u64,
    /// At most this many pages are fetched by one aggregated list call.
    pub max_pages: usize,
    /// At most this many `input_required` rounds per call.
    pub max_input_rounds: u8,
    /// Result cache limits; `None` disables caching.
    pub cache: Option<CacheLimits>,
}

impl ClientConfig {
    /// Defaults for a client named `name` at `version`: no capabilities, protocol
    /// 2026-07-28 with a 2025-11-25 fallback, stdio, 30 s requests, 5 s probe, 64 pages,
    /// 8 input rounds, a 256-entry / 4 MiB cache.
    #[must_use]
    pub fn new(name: &str, version: &str) -> Self {
        Self {
            client_info: Some(OwnedImplementation::new(name, version)),
            capabilities: OwnedJson::empty_object(),
            versions: vec![String::from(version::CURRENT)],
            legacy_versions: vec![String::from(version::LEGACY_2025_11_25)],
            transport: Transport::Stdio,
            request_timeout_ms: 30_000,
            probe_timeout_ms: 5_000,
            max_pages: 64,
            max_input_rounds: 8,
            cache: Some(CacheLimits::default()),
        }
    }

    pub(crate) fn check(&self) -> Result<(), ConfigError> {
        if self.versions.is_empty() {
            return Err(ConfigError::NoVersions);
        }
        if self
            .versions
            .iter()
            .chain(&self.legacy_versions)
            .any(String::is_empty)
        {
            return Err(ConfigError::EmptyVersion);
        }
        ClientCapabilities::decode_raw(self.capabilities.as_raw(), "capabilities")
            .map_err(|_| ConfigError::InvalidCapabilities)?;
        if self.max_pages == 0 || self.max_input_rounds == 0 {
            return Err(ConfigError::ZeroLimit);
        }
        Ok(())
    }

    /// The capabilities as a view (checked by [`ClientConfig::check`]).
    pub(crate) fn capabilities(&self) -> ClientCapabilities<'_> {
        ClientCapabilities::decode_raw(self.capabilities.as_raw(), "capabilities")
            .unwrap_or_default()
    }
}

/// A configuration the client refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// `versions` is empty: a client must speak at least one modern version.
    NoVersions,
    /// A version string is empty.
    EmptyVersion,
    /// `capabilities` is not a valid `ClientCapabilities` object.
    InvalidCapabilities,
    /// `max_pages` or `max_input_rounds` is 0.
    ZeroLimit,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NoVersions => "no modern protocol version configured",
            Self::EmptyVersion => "empty protocol version string",
            Self::InvalidCapabilities => "capabilities is not a valid ClientCapabilities object",
            Self::ZeroLimit => "max_pages and max_input_rounds must be at least 1",
        })
    }
}

impl core::error::Error for ConfigError {}
