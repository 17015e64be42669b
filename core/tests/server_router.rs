//! The server's default template router is the crate's indexed router: a `resources/read` of a
//! templated URI reaches the app with the template and its percent-decoded variables, and a
//! URI that matches no template is -32602 with `data.uri` (docs/rules.md §7, docs/matching.md).

use mcp_context::messages::owned::OwnedResourceTemplate;
use mcp_context::server::{
    Ctx, Event, Output, ReadTarget, Server, ServerConfig, StreamId, TemplateEntry,
};

fn read(uri: &str) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}},"uri":"{uri}"}}}}"#
    )
    .into_bytes()
}

fn server() -> Server {
    let mut s = Server::new(ServerConfig::default()).unwrap();
    for (t, name) in [
        ("repo://{owner}/{repo}/issues/{number}", "issue"),
        ("repo://{owner}/{repo}", "repo"),
        ("repo://acme/{repo}/issues/{number}", "acme-issue"),
    ] {
        s.add_template(TemplateEntry {
            template: OwnedResourceTemplate::new(t, name),
            cache: None,
            completions: Vec::new(),
        })
        .unwrap();
    }
    s
}

#[test]
fn templated_read_reaches_the_app_with_decoded_variables() {
    let mut s = server();
    s.handle_message(
        &read("repo://zeta/web%20app/issues/812"),
        0,
        Ctx::stdio(StreamId(0)),
    );
    let mut seen = None;
    while let Some(out) = s.poll_output() {
        if let Output::Event(Event::ReadResource(e)) = out {
            seen = Some(e);
        }
    }
    let e = seen.expect("a read event");
    let ReadTarget::Template { variables, .. } = e.target else {
        panic!("{:?}", e.target)
    };
    assert_eq!(
        variables,
        [("owner", "zeta"), ("repo", "web app"), ("number", "812")]
            .map(|(k, v)| (k.to_string(), v.to_string()))
    );
}

#[test]
fn more_literal_template_wins_and_misses_are_not_found() {
    let mut s = server();
    s.handle_message(
        &read("repo://acme/web/issues/1"),
        0,
        Ctx::stdio(StreamId(0)),
    );
    let mut vars = None;
    while let Some(out) = s.poll_output() {
        if let Output::Event(Event::ReadResource(e)) = out
            && let ReadTarget::Template { variables, .. } = e.target
        {
            vars = Some(variables);
        }
    }
    // The acme-specific template has no `owner` variable.
    assert_eq!(vars.unwrap().len(), 2);

    s.handle_message(&read("repo://acme/web/pulls/5"), 0, Ctx::stdio(StreamId(0)));
    let mut reply = String::new();
    while let Some(out) = s.poll_output() {
        if let Output::Transmit(t) = out {
            reply = String::from_utf8(t.bytes.to_vec()).unwrap();
        }
    }
    assert!(reply.contains(r#""code":-32602"#), "{reply}");
    assert!(
        reply.contains(r#""uri":"repo://acme/web/pulls/5""#),
        "{reply}"
    );
}
