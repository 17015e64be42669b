//! `WasmServer`'s observations (docs/operations.md), as the addon's: on/off, the next
//! observation as JSON text (the adapter's object), open counts, annotations, the response cap.

use mcp_context_node_adapter::observe::{observation, open_counts};
use wasm_bindgen::prelude::*;

use crate::json::int;
use crate::server::WasmServer;

#[wasm_bindgen]
impl WasmServer {
    /// Turns the core's observations on or off.
    pub fn observe(&mut self, on: bool) {
        self.inner_mut().machine().observe(on);
    }

    /// The next observation as JSON text, or `undefined`.
    #[wasm_bindgen(js_name = pollObservation)]
    pub fn poll_observation(&mut self, now_ms: f64) -> Option<String> {
        let o = self.inner_mut().machine().poll_observation(int(now_ms))?;
        Some(observation(o).to_json())
    }

    /// `{listens, sessions}` as JSON text.
    #[wasm_bindgen(js_name = openCounts)]
    pub fn open_counts(&self) -> String {
        open_counts(self.inner_ref().machine_ref()).to_json()
    }

    /// Adds `key = value` to the observation of `handle`'s request.
    pub fn annotate(&mut self, handle: f64, key: &str, value: &str) {
        self.inner_mut().annotate(int(handle), key, value);
    }

    /// Caps answers at `max` bytes (`undefined`: no cap).
    #[wasm_bindgen(js_name = limitResponses)]
    pub fn limit_responses(&mut self, max: Option<f64>) {
        let max = max.map(|m| usize::try_from(int(m)).unwrap_or(usize::MAX));
        self.inner_mut().machine().limit_responses(max);
    }
}

/// The attribute and metric names (`observe::attr`) and the two error codes, as JSON text.
#[wasm_bindgen(js_name = observeNames)]
#[allow(unreachable_pub)]
#[must_use]
pub fn observe_names() -> String {
    mcp_context_node_adapter::observe::names().to_json()
}

/// The core's parse of a `traceparent` header, as JSON text (`null` when invalid).
#[wasm_bindgen(js_name = parseTraceParent)]
#[allow(unreachable_pub)]
#[must_use]
pub fn parse_trace_parent(text: &str) -> String {
    mcp_context_node_adapter::observe::trace_parent(text).to_json()
}
