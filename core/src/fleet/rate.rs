//! The rate limit a fleet shares through Redis (docs/operations.md "A rate limit across
//! instances", docs/rules.md §23.5): one token bucket per caller, one algorithm, one key form
//! and one refusal, whatever runner serves the request. Every runner's Redis rate limit runs
//! [`REDIS_TOKEN_BUCKET`] on the key [`rate_key`] and refuses with
//! [`RATE_LIMITED`](crate::observe::RATE_LIMITED) and [`rate_limited_message`], so a Python,
//! a Node and a Rust instance on one Redis take from the same bucket.
//!
//! ```
//! use mcp_context::fleet::rate;
//!
//! assert_eq!(rate::rate_key(rate::RATE_KEY_PREFIX, "7"), "mcp:rate:7");
//! assert_eq!(rate::rate_limited_message(250), "Rate limit exceeded: retry after 250 ms");
//! assert!(rate::REDIS_TOKEN_BUCKET.contains("redis.call('TIME')"));
//! assert_eq!(rate::OnFailure::default(), rate::OnFailure::Open);
//! assert!(rate::OnFailure::Open.admits() && !rate::OnFailure::Closed.admits());
//! ```
//!
//! When Redis cannot answer (unreachable, an error, or no answer within the runner's
//! timeout) every runner follows one policy, [`OnFailure`]: by default the request is
//! admitted (fail open, like a proxy's rate-limit filter: an outage of the limiter is not an
//! outage of the service); the option `fail_closed` (`failClosed` in JavaScript) refuses it
//! instead, with [`RATE_LIMITED`](crate::observe::RATE_LIMITED) and
//! [`RATE_UNAVAILABLE_MESSAGE`]. Either way the runner logs one line and annotates the
//! request with [`RATE_FAILURE_ANNOTATION`] = the policy's [`OnFailure::name`].

use alloc::format;
use alloc::string::String;

/// The token bucket, a Lua script run atomically by Redis (`EVAL`/`EVALSHA`, one key): `KEYS[1]`
/// the caller's key ([`rate_key`]), `ARGV[1]` the rate (tokens per second, > 0), `ARGV[2]`
/// the burst (tokens, >= 1). The bucket is a hash (`tokens`, `at` in ms) refilled on Redis's
/// own clock (`TIME`: the instances' clocks never matter), starts full, and expires once it
/// would be full again. Returns `0` when a token was taken, else the milliseconds until one
/// is back (the request is refused, nothing taken).
pub const REDIS_TOKEN_BUCKET: &str = "\
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(b[1]) or burst, tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) * 1000 / rate) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return wait
";

/// The default key prefix; an application sharing one Redis between fleets gives each its
/// own.
pub const RATE_KEY_PREFIX: &str = "mcp:rate:";

/// The bucket's key: `prefix` then the caller (the caller-context id as decimal text, or
/// the application's own key).
#[must_use]
pub fn rate_key(prefix: &str, caller: &str) -> String {
    format!("{prefix}{caller}")
}

/// The refusal's message: `Rate limit exceeded: retry after {wait_ms} ms`.
#[must_use]
pub fn rate_limited_message(wait_ms: u64) -> String {
    format!("Rate limit exceeded: retry after {wait_ms} ms")
}

/// What a Redis rate limit does with a request when Redis cannot answer: the one failure
/// policy of every runner (docs/rules.md §23.6). The default is [`OnFailure::Open`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnFailure {
    /// Admit the request (fail open): the default.
    Open,
    /// Refuse it with `RATE_LIMITED` and [`RATE_UNAVAILABLE_MESSAGE`] (fail closed): the
    /// option `fail_closed` / `failClosed`.
    Closed,
}

impl Default for OnFailure {
    fn default() -> Self {
        DEFAULT_ON_FAILURE
    }
}

/// The policy of every runner's Redis rate limit when not told otherwise.
pub const DEFAULT_ON_FAILURE: OnFailure = OnFailure::Open;

impl OnFailure {
    /// The policy for a runner's `fail_closed` option.
    #[must_use]
    pub const fn from_fail_closed(fail_closed: bool) -> Self {
        if fail_closed {
            Self::Closed
        } else {
            Self::Open
        }
    }

    /// Whether the request is admitted.
    #[must_use]
    pub const fn admits(self) -> bool {
        matches!(self, Self::Open)
    }

    /// `open` or `closed`: the value of [`RATE_FAILURE_ANNOTATION`] and of the log line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Closed => "closed",
        }
    }
}

/// Whether a runner's Redis rate limit fails closed when not told (`false`: it fails open).
pub const FAIL_CLOSED_BY_DEFAULT: bool = !DEFAULT_ON_FAILURE.admits();

/// The refusal's message when Redis cannot answer and the limit fails closed.
pub const RATE_UNAVAILABLE_MESSAGE: &str = "Rate limit unavailable: request refused";

/// The annotation (span attribute, log line field) on a request whose limit could not reach
/// Redis; its value is the policy applied ([`OnFailure::name`]).
pub const RATE_FAILURE_ANNOTATION: &str = "mcp_context.rate_limit.failure";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runners_fail_open_unless_told_to_fail_closed() {
        assert_eq!(OnFailure::default(), OnFailure::Open);
        const { assert!(!FAIL_CLOSED_BY_DEFAULT) };
        assert_eq!(
            OnFailure::from_fail_closed(FAIL_CLOSED_BY_DEFAULT),
            OnFailure::default()
        );
        assert_eq!(OnFailure::from_fail_closed(true), OnFailure::Closed);
        assert!(OnFailure::Open.admits());
        assert!(!OnFailure::Closed.admits());
        assert_eq!(
            (OnFailure::Open.name(), OnFailure::Closed.name()),
            ("open", "closed")
        );
    }
}
