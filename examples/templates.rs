//! Expands a resource template and shows the result: the README's "run" command until the
//! demo server lands.

use mcp_context::template::{OwnedTemplate, Value};

fn main() {
    let source = "repo://{owner}/{repo}/issues/{number}{?fields*}";
    let template = match OwnedTemplate::parse(source) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let fields = [("state", "open"), ("sort", "recent first")];
    let vars = [
        ("owner", Value::Str("acme")),
        ("repo", Value::Str("web app")),
        ("number", Value::Str("812")),
        ("fields", Value::Assoc(&fields)),
    ];
    match template.expand(&vars[..]) {
        Ok(uri) => println!("{source}\n  expands to {uri}"),
        Err(e) => eprintln!("{e}"),
    }
}
