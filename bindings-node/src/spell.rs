//! Spellings of the core's enum identifiers (`mcp_context::ident`, docs/server-machine.md
//! §Bindings), shared by both engines of the npm package: the napi addon (`mod spell`) and
//! the WebAssembly build (`bindings-node/wasm`, which includes this file by path). Pure
//! functions of the identifier: a new core variant gets its spelling from the core, with
//! no table on either side.

/// `missing_host` → `ERR_MISSING_HOST`.
pub(crate) fn err_code(ident: &str) -> String {
    format!("ERR_{}", ident.to_ascii_uppercase())
}

/// `invalid_characters` → `invalidCharacters`.
pub(crate) fn camel(ident: &str) -> String {
    let mut out = String::with_capacity(ident.len());
    let mut upper = false;
    for c in ident.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}
