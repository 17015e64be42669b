//! [`JsonLog`]: one JSON line per finished request (and per refusal).

use std::io::Write;
use std::sync::Mutex;
use std::time::UNIX_EPOCH;

use mcp_context::observe::Era;
use serde_json::{Map, Value, json};

use super::{Finished, Refused, Sink};

/// A [`Sink`] writing one JSON object per line: `{"ts_ms", "method", "request_id",
/// "target", "caller", "era", "session_id", "outcome", "error_type", "duration_ms",
/// "trace_id", "annotations"}` per request, `{"ts_ms", "refused", "caller"}` per refusal.
pub struct JsonLog {
    out: Mutex<Box<dyn Write + Send>>,
}

impl std::fmt::Debug for JsonLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonLog").finish_non_exhaustive()
    }
}

impl JsonLog {
    /// Lines to `out`.
    pub fn new(out: impl Write + Send + 'static) -> Self {
        Self {
            out: Mutex::new(Box::new(out)),
        }
    }

    /// Lines to standard error (stdout is the stdio transport's).
    #[must_use]
    pub fn stderr() -> Self {
        Self::new(std::io::stderr())
    }

    fn line(&self, v: &Value) {
        let mut out = self
            .out
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let _ = writeln!(out, "{v}");
        let _ = out.flush();
    }
}

fn ms(t: std::time::SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Sink for JsonLog {
    fn request(&self, f: &Finished<'_>) {
        let r = f.record;
        let mut buf = [0u8; 12];
        let annotations: Map<String, Value> = r
            .annotations
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        self.line(&json!({
            "ts_ms": ms(f.end),
            "method": r.method,
            "request_id": r.request_id,
            "target": r.target,
            "caller": r.caller,
            "era": match r.era { Era::Modern => "2026-07-28", Era::Legacy => "2025-11-25" },
            "session_id": r.session_id,
            "outcome": r.outcome.label(),
            "error_type": r.outcome.error_type(&mut buf),
            "duration_ms": r.end_ms.saturating_sub(r.start_ms),
            "trace_id": f.parent.map(|p| p.trace_id_hex()),
            "annotations": annotations,
        }));
    }

    fn refused(&self, r: &Refused) {
        self.line(&json!({
            "ts_ms": ms(r.at),
            "refused": r.refusal.limit.as_str(),
            "caller": r.refusal.caller,
        }));
    }
}
