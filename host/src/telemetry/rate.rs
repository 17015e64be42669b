//! A token-bucket rate limit per caller, in this process.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use super::{Call, Middleware, RATE_LIMITED};
use crate::Error;

/// Callers remembered at most; past it the idle ones (full buckets) are forgotten.
const MAX_CALLERS: usize = 65_536;

/// Refuses a caller's request when its bucket is empty: each caller
/// ([`Call::caller`]) gets `burst` tokens, refilled at `rate` per second; a request takes
/// one. A refused request is answered with [`RATE_LIMITED`] and
/// `Rate limit exceeded: retry after N ms`, counted as a `rate` refusal. For a limit that
/// holds across instances, share the buckets (the Python package's Redis one).
#[derive(Debug)]
pub struct RateLimit {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<u64, (f64, Instant)>>,
}

impl RateLimit {
    /// `rate` requests per second per caller, bursts of `burst`.
    #[must_use]
    pub fn per_caller(rate: f64, burst: f64) -> Self {
        Self {
            rate: rate.max(f64::MIN_POSITIVE),
            burst: burst.max(1.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token of `caller` at `now`: `Ok`, or the milliseconds until one is back.
    ///
    /// # Errors
    /// The wait, when the bucket is empty.
    pub fn take(&self, caller: u64, now: Instant) -> Result<(), u64> {
        let mut b = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if b.len() >= MAX_CALLERS && !b.contains_key(&caller) {
            let (rate, burst) = (self.rate, self.burst);
            b.retain(|_, (t, at)| *t + now.duration_since(*at).as_secs_f64() * rate < burst);
        }
        let (tokens, at) = b.entry(caller).or_insert((self.burst, now));
        let refilled =
            (*tokens + now.duration_since(*at).as_secs_f64() * self.rate).min(self.burst);
        *at = now;
        if refilled >= 1.0 {
            *tokens = refilled - 1.0;
            Ok(())
        } else {
            *tokens = refilled;
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let wait = ((1.0 - refilled) / self.rate * 1000.0).ceil() as u64;
            Err(wait)
        }
    }
}

impl Middleware for RateLimit {
    fn before(&self, call: &mut Call) -> Result<(), Error> {
        self.take(call.caller, Instant::now()).map_err(|ms| {
            Error::application(
                RATE_LIMITED,
                format!("Rate limit exceeded: retry after {ms} ms"),
            )
        })
    }
}
