//! Helpers shared by the message tests: value equality, and recording every message the
//! crate emits under `target/emitted/<TypeName>/` for `tests/schema/validate_emitted.py`.
#![allow(dead_code)]

use std::path::PathBuf;

/// JSON equality as values: object key order is ignored and numbers compare by value
/// (`1` equals `1.0`), as JSON Schema and most JSON libraries read them.
pub(crate) fn json_eq(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    match (a, b) {
        (V::Number(x), V::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(p), Some(q), ..) => p == q,
            (.., Some(p), Some(q)) => p == q,
            _ => x.as_f64() == y.as_f64(),
        },
        (V::Array(x), V::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (V::Object(x), V::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Parses both texts with serde_json and compares them as values.
pub(crate) fn same_json(a: &[u8], b: &[u8]) -> bool {
    match (serde_json::from_slice(a), serde_json::from_slice(b)) {
        (Ok(x), Ok(y)) => json_eq(&x, &y),
        _ => false,
    }
}

fn emitted_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/emitted")
}

/// Records `json` as an emitted instance of `$defs/<type_name>` (file `<tag>.json`).
pub(crate) fn emit(type_name: &str, tag: &str, json: &[u8]) {
    let dir = emitted_dir().join(type_name);
    std::fs::create_dir_all(&dir).expect("create target/emitted");
    std::fs::write(dir.join(format!("{tag}.json")), json).expect("write emitted message");
}
