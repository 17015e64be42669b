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
//! ```

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
