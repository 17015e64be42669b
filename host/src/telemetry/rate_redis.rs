//! [`RedisRateLimit`]: the per-caller token bucket kept in Redis (feature `redis`), the
//! core's `fleet::rate` (one Lua script, one key form, one refusal), so a fleet of Rust,
//! Python and Node instances on one Redis enforces one rate per caller.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use mcp_context::fleet::rate::{
    OnFailure, RATE_FAILURE_ANNOTATION, RATE_KEY_PREFIX, RATE_UNAVAILABLE_MESSAGE,
    REDIS_TOKEN_BUCKET, rate_key, rate_limited_message,
};

use super::{Call, Middleware, RATE_LIMITED};
use crate::Error;

/// Refuses a caller's request when its bucket in Redis is empty: `burst` tokens refilled at
/// `rate` per second on Redis's clock, one per request, shared by every instance (of any
/// runner) on the same Redis and key prefix. A refused request is answered with
/// [`RATE_LIMITED`] and `Rate limit exceeded: retry after N ms`, counted as a `rate` refusal.
///
/// One round trip per request on a connection of its own (the middleware hook is
/// synchronous: on a multi-threaded runtime the wait is `block_in_place`). When Redis cannot
/// answer within [`RedisRateLimit::timeout`], the core's one policy applies
/// (`fleet::rate::OnFailure`, docs/rules.md §23.6): the request is admitted (fails open)
/// unless [`RedisRateLimit::fail_closed`] refuses it with [`RATE_LIMITED`] and
/// `Rate limit unavailable: request refused`; either way one line goes to stderr, the
/// request is annotated `mcp_context.rate_limit.failure` = `open` or `closed`, and the next
/// request reconnects.
///
/// ```no_run
/// use mcp_context_host::App;
/// use mcp_context_host::telemetry::RedisRateLimit;
///
/// let mut app = App::named("notes", "1.0.0");
/// app.middleware(RedisRateLimit::per_caller("redis://10.0.0.5:6379/0", 10.0, 20.0).unwrap());
/// ```
pub struct RedisRateLimit {
    client: redis::Client,
    conn: Mutex<Option<redis::Connection>>,
    rate: f64,
    burst: f64,
    prefix: String,
    timeout: Duration,
    on_failure: OnFailure,
}

impl std::fmt::Debug for RedisRateLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisRateLimit")
            .field("rate", &self.rate)
            .field("burst", &self.burst)
            .field("prefix", &self.prefix)
            .field("on_failure", &self.on_failure)
            .finish_non_exhaustive()
    }
}

impl RedisRateLimit {
    /// `rate` requests per second per caller, bursts of `burst`, on the Redis at `url`
    /// (nothing connects before the first request).
    ///
    /// # Errors
    /// A URL the `redis` crate refuses.
    pub fn per_caller(url: &str, rate: f64, burst: f64) -> redis::RedisResult<Self> {
        Ok(Self {
            client: redis::Client::open(url)?,
            conn: Mutex::new(None),
            rate: rate.max(1e-9),
            burst: burst.max(1.0),
            prefix: RATE_KEY_PREFIX.to_owned(),
            timeout: Duration::from_secs(1),
            on_failure: OnFailure::default(),
        })
    }

    /// `true`: refuse a request when Redis cannot answer (fail closed); `false`, the default
    /// (`fleet::rate::FAIL_CLOSED_BY_DEFAULT`): admit it (fail open).
    #[must_use]
    pub fn fail_closed(mut self, fail_closed: bool) -> Self {
        self.on_failure = OnFailure::from_fail_closed(fail_closed);
        self
    }

    /// The key prefix (default `mcp:rate:`): fleets sharing one Redis each use their own.
    #[must_use]
    pub fn prefix(mut self, prefix: &str) -> Self {
        prefix.clone_into(&mut self.prefix);
        self
    }

    /// How long a round trip may take before the failure policy applies (1 s).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Takes one token of `caller`: `Ok(0)`, or `Ok(ms)` until one is back.
    ///
    /// # Errors
    /// Redis could not be reached or answered an error (the connection is dropped; the next
    /// call reconnects).
    pub fn take(&self, caller: &str) -> redis::RedisResult<u64> {
        let mut slot = self.conn.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            let c = self.client.get_connection_with_timeout(self.timeout)?;
            c.set_read_timeout(Some(self.timeout))?;
            c.set_write_timeout(Some(self.timeout))?;
            *slot = Some(c);
        }
        let Some(conn) = slot.as_mut() else {
            unreachable!("connected above")
        };
        let r = redis::cmd("EVAL")
            .arg(REDIS_TOKEN_BUCKET)
            .arg(1)
            .arg(rate_key(&self.prefix, caller))
            .arg(self.rate)
            .arg(self.burst)
            .query::<u64>(conn);
        if r.is_err() {
            *slot = None;
        }
        r
    }
}

impl Middleware for RedisRateLimit {
    fn before(&self, call: &mut Call) -> Result<(), Error> {
        let caller = call.caller.to_string();
        let take = || self.take(&caller);
        let multi = tokio::runtime::Handle::try_current()
            .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
        let r = if multi {
            tokio::task::block_in_place(take)
        } else {
            take()
        };
        match r {
            Ok(0) => Ok(()),
            Ok(ms) => Err(Error::application(RATE_LIMITED, rate_limited_message(ms))),
            Err(e) => {
                let policy = self.on_failure;
                call.annotate(RATE_FAILURE_ANNOTATION, policy.name());
                let verdict = if policy.admits() {
                    "admitted"
                } else {
                    "refused"
                };
                eprintln!(
                    "mcp-context rate limit: Redis did not answer ({e}), request {verdict} (fail {})",
                    policy.name()
                );
                if policy.admits() {
                    Ok(())
                } else {
                    Err(Error::application(RATE_LIMITED, RATE_UNAVAILABLE_MESSAGE))
                }
            }
        }
    }
}
