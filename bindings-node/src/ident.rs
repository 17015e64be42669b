//! Spellings of the core's enum identifiers (`mcp_context::ident`, docs/server-machine.md
//! §Bindings): error codes are `ERR_` + the identifier in upper case, string values the
//! identifier in lowerCamelCase (the shared adapter's `spell`, also the WebAssembly build's). No
//! binding-side tables: a new variant gets its spelling from the core. `coreIdentifiers()`
//! exposes the core's tables so the JS table test (`__test__/idents.test.mjs`) checks every
//! spelling the binding produces against them.

use mcp_context::cache::KeyError;
use mcp_context::client::{CallError, ClientError, ConnectError, Notice};
use mcp_context::http::{HeaderProblem, OriginError};
use mcp_context::server::{RegisterError, RespondError};
use napi_derive::napi;

pub(crate) use mcp_context_node_adapter::spell::{camel, err_code};

/// The core's identifier tables for the enums whose spellings this binding exposes, with
/// the binding's spelling of each: `{ OriginError: [[ident, code], …], HeaderProblem: … }`
/// (error codes for `OriginError`, `KeyError`, `RegisterError`, `RespondError`,
/// `ClientError`, `ConnectError`, `CallError`; values for `HeaderProblem`, `Notice`).
#[napi(catch_unwind, ts_return_type = "Record<string, [string, string][]>")]
#[allow(unreachable_pub)]
pub fn core_identifiers() -> std::collections::HashMap<String, Vec<Vec<String>>> {
    let table = |idents: &[&str], spell: fn(&str) -> String| {
        idents
            .iter()
            .map(|i| vec![(*i).to_owned(), spell(i)])
            .collect::<Vec<_>>()
    };
    let mut m = std::collections::HashMap::new();
    m.insert(
        String::from("OriginError"),
        table(OriginError::IDENTS, err_code),
    );
    m.insert(
        String::from("HeaderProblem"),
        table(HeaderProblem::IDENTS, camel),
    );
    for (name, idents) in [
        ("KeyError", KeyError::IDENTS),
        ("RegisterError", RegisterError::IDENTS),
        ("RespondError", RespondError::IDENTS),
        ("ClientError", ClientError::IDENTS),
        ("ConnectError", ConnectError::IDENTS),
        ("CallError", CallError::IDENTS),
    ] {
        m.insert(String::from(name), table(idents, err_code));
    }
    m.insert(String::from("Notice"), table(Notice::IDENTS, camel));
    m
}
