//! The boundary's plumbing: errors thrown as JSON text the glue turns into `Error`s
//! (the adapter's `Error::spec`), outputs as JSON text, inputs parsed for the adapter's
//! readers.

use mcp_context_node_adapter::server::Polled;
use mcp_context_node_adapter::source::parse;
use mcp_context_node_adapter::{Error, Js, Obj};
use serde_json::Value;
use wasm_bindgen::JsValue;

/// An adapter error as the thrown value (`{"name","code","message",…}` text).
#[allow(clippy::needless_pass_by_value)] // `map_err(thrown)`
pub(crate) fn thrown(e: Error) -> JsValue {
    JsValue::from_str(&e.spec().to_json())
}

/// A `McpContextError` with a stable `ERR_…` code, thrown.
pub(crate) fn context_error(code: &str, message: impl Into<String>) -> JsValue {
    thrown(Error::context(code, message))
}

/// The glue's JSON text (`JSON.stringify` output) as a value for the adapter's readers.
pub(crate) fn value(text: &str, what: &str) -> Result<Value, JsValue> {
    parse(text, what).map_err(thrown)
}

/// Optional JSON text as a value.
pub(crate) fn opt_value(text: Option<&str>, what: &str) -> Result<Option<Value>, JsValue> {
    text.map(|t| value(t, what)).transpose()
}

/// Puts `bytes` after what `buf` holds and names their range in `o` (`at: [start, end]`,
/// counted from the `ptr` the text carries): the glue copies them out of linear memory
/// without another call.
pub(crate) fn place(o: &mut Obj, bytes: Option<Vec<u8>>, buf: &mut Vec<u8>) {
    let Some(b) = bytes else { return };
    let start = buf.len();
    if start == 0 {
        *buf = b;
    } else {
        buf.extend_from_slice(&b);
    }
    o.set(
        "at",
        Js::Arr(vec![Js::U64(start as u64), Js::U64(buf.len() as u64)]),
    );
}

/// Where `buf` lies in linear memory.
pub(crate) fn ptr(buf: &[u8]) -> Js {
    Js::U64(buf.as_ptr() as usize as u64)
}

/// One output (or HTTP answer) as JSON text, its bytes in `buf` (`at`, `ptr`).
pub(crate) fn output(p: Polled, buf: &mut Vec<u8>) -> String {
    buf.clear();
    let mut o = p.shape;
    place(&mut o, p.bytes, buf);
    o.set("ptr", ptr(buf));
    Js::Obj(o).to_json()
}

/// An input call's answer as JSON text, `{value, outputs?, deadline?, ptr}`: `value` is what
/// the call returns (with `at` when it has bytes); with `drained` (the outputs the call
/// queued and the next deadline) the glue needs no `pollOutput`/`pollTimeout` calls.
pub(crate) fn batch(
    value: Js,
    value_bytes: Option<Vec<u8>>,
    drained: Option<(Vec<Polled>, Option<u64>)>,
    buf: &mut Vec<u8>,
) -> String {
    buf.clear();
    let value = match value {
        Js::Obj(mut o) => {
            place(&mut o, value_bytes, buf);
            Js::Obj(o)
        }
        other => other,
    };
    let mut top = Obj::default();
    top.set("value", value);
    if let Some((outputs, deadline)) = drained {
        let outputs = outputs
            .into_iter()
            .map(|p| {
                let mut o = p.shape;
                place(&mut o, p.bytes, buf);
                Js::Obj(o)
            })
            .collect();
        top.set("outputs", Js::Arr(outputs))
            .set("deadline", deadline);
    }
    top.set("ptr", ptr(buf));
    Js::Obj(top).to_json()
}

/// A `u64` that came in as an `f64`: the glue passes only integers below 2^53.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub(crate) fn int(n: f64) -> u64 {
    if n.is_finite() && n >= 0.0 {
        n as u64
    } else {
        0
    }
}
