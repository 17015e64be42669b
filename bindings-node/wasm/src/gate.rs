//! `WasmServer`'s gate (docs/rules.md §26.7), as the addon's: requests stopped for the
//! middleware (JSON text), admitted or refused by id; stdio lines handed back for the gate.

use mcp_context_node_adapter::Js;
use mcp_context_node_adapter::server::{Head, context};
use wasm_bindgen::prelude::*;

use crate::json::{int, thrown, value};
use crate::server::WasmServer;

/// `[[key, value], …]` JSON text as pairs (anything else: none).
fn pairs(text: &str) -> Vec<(String, String)> {
    serde_json::from_str::<Vec<(String, String)>>(text).unwrap_or_default()
}

#[wasm_bindgen]
impl WasmServer {
    /// Turns the gate on or off.
    pub fn gate(&mut self, on: bool) {
        self.inner_mut().machine().gate(on);
    }

    /// The gated request as JSON text, or `undefined`.
    #[wasm_bindgen(js_name = gateRequest)]
    pub fn gate_request(
        &mut self,
        message: &[u8],
        now_ms: f64,
        stream: f64,
        auth: f64,
        http: bool,
    ) -> Result<Option<String>, JsValue> {
        let transport = if http { "http" } else { "stdio" };
        let ctx = context(int(stream), int(auth), Some(transport), None).map_err(thrown)?;
        Ok(self
            .inner_mut()
            .gate_request(message, int(now_ms), ctx)
            .map(|o| Js::Obj(o).to_json()))
    }

    /// The gated HTTP request as JSON text, or `undefined`.
    #[wasm_bindgen(js_name = httpGateRequest)]
    pub fn http_gate_request(
        &mut self,
        head_text: &str,
        body: &[u8],
        now_ms: f64,
        stream: f64,
        auth: f64,
    ) -> Result<Option<String>, JsValue> {
        let h = Head::read(&value(head_text, "head")?).map_err(thrown)?;
        let ctx = context(int(stream), int(auth), Some("http"), None).map_err(thrown)?;
        Ok(self
            .inner_mut()
            .http_gate_request(&h, body, int(now_ms), ctx)
            .map(|o| Js::Obj(o).to_json()))
    }

    /// Admits gate `gate` with annotations (JSON `[[key, value], …]`).
    #[wasm_bindgen(js_name = gateAdmit)]
    pub fn gate_admit(&mut self, gate: f64, annotations: &str) -> Result<(), JsValue> {
        self.inner_mut()
            .gate_admit(int(gate), pairs(annotations))
            .map_err(thrown)
    }

    /// Refuses gate `gate` with `code` and `message`.
    #[wasm_bindgen(js_name = gateRefuse)]
    pub fn gate_refuse(
        &mut self,
        gate: f64,
        code: i32,
        message: String,
        annotations: &str,
        drain: bool,
    ) -> Result<String, JsValue> {
        let r = self
            .inner_mut()
            .gate_refuse(int(gate), code, message, pairs(annotations));
        self.done_unit(r, drain)
    }

    /// Refuses an HTTP gate: the response (JSON text, its body in linear memory).
    #[wasm_bindgen(js_name = httpGateRefuse)]
    pub fn http_gate_refuse(
        &mut self,
        gate: f64,
        code: i32,
        message: String,
        annotations: &str,
        drain: bool,
    ) -> Result<String, JsValue> {
        let p = self
            .inner_mut()
            .http_gate_refuse(int(gate), code, message, pairs(annotations))
            .map_err(thrown)?;
        Ok(self.done_polled(p, drain))
    }

    /// Stdio bytes split into lines by the core: the messages joined by `\n` (an over-long
    /// line is answered by the machine).
    #[wasm_bindgen(js_name = splitStdio)]
    pub fn split_stdio(
        &mut self,
        bytes: &[u8],
        end: bool,
        now_ms: f64,
        stream: f64,
        auth: f64,
    ) -> Result<Vec<u8>, JsValue> {
        let ctx = context(int(stream), int(auth), None, None).map_err(thrown)?;
        let lines = self.inner_mut().split_stdio(bytes, end, int(now_ms), ctx);
        Ok(lines.join(&b'\n'))
    }
}
