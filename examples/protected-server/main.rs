//! A protected Streamable HTTP server on the axum host (docs/authorization.md): the endpoint
//! is an OAuth 2.1 protected resource whose tokens come from one authorization server.
//!
//! ```text
//! protected-server ISSUER     serve http://127.0.0.1:PORT/mcp (a free port), tokens checked by
//!                             JwtVerifier against ISSUER/jwks; prints `READY <endpoint URL>`
//! ```
//!
//! `secret://note` needs the scope `mcp:read` (required of every token); it answers with the
//! verified caller's client and scopes. `mine://note` answers the same, cached a minute
//! (private, as every result of a protected server), and `admin://note` needs `mcp:write` (a
//! 403 step-up): the clients' cache tests read them. The official clients' tests run it
//! (`tests/auth-server/test_official_client.py`).

use std::sync::Arc;

use mcp_context::auth::resource_server::ResourceServerConfig;
use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents};
use mcp_context::server::{CacheHint, ResourceEntry, Scoped};
use mcp_context_host::http::HttpOptions;
use mcp_context_host::protect::JwtVerifier;
use mcp_context_host::{App, Context, ReadRequest};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let Some(issuer) = std::env::args().nth(1) else {
        eprintln!("usage: protected-server ISSUER");
        std::process::exit(2);
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    let mut app = App::named("protected-axum", "1.0.0");
    let mut rs = ResourceServerConfig::new(&url, &issuer);
    rs.scopes_supported = vec!["mcp:read".into(), "mcp:write".into()];
    rs.required_scopes = vec!["mcp:read".into()];
    app.config_mut().protection = Some(rs);
    app.resource(
        OwnedResource::new("secret://note", "secret note"),
        |req: ReadRequest, cx: Context| async move {
            let (client, scopes) = cx
                .principal()
                .map(|c| (c.client_id.clone().unwrap_or_default(), c.scopes.join(" ")))
                .unwrap_or_default();
            Ok(OwnedResourceContents::text(
                &req.uri,
                None,
                format!("secret for {client} with {scopes}"),
            ))
        },
    );
    app.resource_entry(
        ResourceEntry {
            resource: OwnedResource::new("mine://note", "my note"),
            contents: None,
            cache: Some(CacheHint::private(60_000)),
        },
        |req: ReadRequest, cx: Context| async move {
            let (client, scopes) = cx
                .principal()
                .map(|c| (c.client_id.clone().unwrap_or_default(), c.scopes.join(" ")))
                .unwrap_or_default();
            Ok(OwnedResourceContents::text(
                &req.uri,
                None,
                format!("mine for {client} with {scopes}"),
            ))
        },
    );
    app.resource(
        OwnedResource::new("admin://note", "admin note"),
        |req: ReadRequest, _cx: Context| async move {
            Ok(OwnedResourceContents::text(&req.uri, None, "admin"))
        },
    );
    app.with_server(|s| s.require_scopes(Scoped::Resource("admin://note"), &["mcp:write"]));
    let host = app
        .build()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    let verifier = Arc::new(JwtVerifier::new(&format!("{issuer}/jwks"), &issuer, &url));
    let options = HttpOptions {
        verifier: Some(verifier),
        ..HttpOptions::default()
    };
    println!("READY {url}");
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    host.serve_http_with(listener, options, stop).await
}
