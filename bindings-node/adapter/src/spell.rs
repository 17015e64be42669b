//! Spellings of the core's enum identifiers (`mcp_context::ident`, docs/server-machine.md
//! §Bindings), shared by both engines of the npm package (the napi addon and the
//! WebAssembly build). Pure
//! functions of the identifier: a new core variant gets its spelling from the core, with
//! no table on either side. One spelling is read back: a `fail` call's `kind` ([`failure`]).

use mcp_context::server::Failure;

/// `missing_host` → `ERR_MISSING_HOST`.
pub fn err_code(ident: &str) -> String {
    format!("ERR_{}", ident.to_ascii_uppercase())
}

/// `invalid_characters` → `invalidCharacters`.
pub fn camel(ident: &str) -> String {
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

/// A `fail` call's `{kind, message, code}` (`FailureSpec`) as the core's `Failure`:
/// `notFound`, `invalidParams` (`message`), `internal`, `application` (`code`, -32603 when
/// absent, and `message`). Another `kind` is refused: `Err` holds the message both engines
/// throw.
pub fn failure(kind: &str, message: Option<String>, code: Option<i32>) -> Result<Failure, String> {
    let message = message.unwrap_or_default();
    Ok(match kind {
        "notFound" => Failure::NotFound,
        "invalidParams" => Failure::InvalidParams(message.into()),
        "internal" => Failure::Internal,
        // The core sorts the code into its range (`Failure::from_code`).
        "application" => Failure::from_code(code.unwrap_or(-32603), message),
        // The handler's own failure: a tool error (`isError`) on a tool call, else -32603.
        "handler" => Failure::Handler(message.into()),
        other => {
            return Err(format!(
                "failure.kind must be notFound, invalidParams, internal, application or handler, not '{other}'"
            ));
        }
    })
}
