//! The route table and URI of `route_scale` and `route_count`: `n - 1` templates
//! `/svc{i}/{owner}/{repo}/issues/{number}`, then the target, registered last.

pub(crate) const TEMPLATE: &str = "/repos/{owner}/{repo}/issues/{number}";
pub(crate) const URI: &str = "/repos/acme/web-app/issues/812";

/// The templates registered before the target.
pub(crate) fn others(n: usize) -> impl Iterator<Item = String> {
    (0..n.saturating_sub(1)).map(|i| format!("/svc{i}/{{owner}}/{{repo}}/issues/{{number}}"))
}

/// Our router over `n` templates, the target's value 0.
pub(crate) fn ours(n: usize) -> mcp_context::template::Router<usize> {
    let mut r = mcp_context::template::Router::new();
    for (i, t) in others(n).enumerate() {
        r.insert(&t, i + 1).expect("insert");
    }
    r.insert(TEMPLATE, 0).expect("insert target");
    r
}

/// matchit over the same table.
pub(crate) fn matchit_router(n: usize) -> matchit::Router<usize> {
    let mut r = matchit::Router::new();
    for (i, t) in others(n).enumerate() {
        r.insert(t, i + 1).expect("insert");
    }
    r.insert(TEMPLATE, 0).expect("insert target");
    r
}
