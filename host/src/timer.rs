//! The machines' timer on tokio: both machines give their next deadline (`poll_timeout`) as
//! milliseconds on the host's clock, which starts when the engine or client does.

use std::time::{Duration, Instant};

/// Sleeps until `deadline` ms after `start`; forever when there is none.
pub(crate) async fn sleep_until_deadline(start: Instant, deadline: Option<u64>) {
    match deadline {
        Some(d) => tokio::time::sleep_until((start + Duration::from_millis(d)).into()).await,
        None => std::future::pending::<()>().await,
    }
}
