//! A level-1 template router: `resources/read` of `repo://…` URIs is routed by RFC 6570
//! templates to handlers that render markdown from a small in-memory issue tracker.
//!
//! | template | handler |
//! | --- | --- |
//! | `repo://{owner}/{repo}` | the repository's overview and open issues |
//! | `repo://{owner}/{repo}/issues/{number}` | one issue (`# Issue 812 in acme/web`) |
//! | `repo://{owner}/{repo}/issues/{number}/comments/{comment}` | one comment |
//!
//! Served by `mcp-context-primitives-host`: the machine matches the URI (the crate's indexed
//! router), decodes the variables (`web%20app` → `web app`) and calls the template's async
//! handler with them ([`ReadRequest::var`]); a URI no template matches, or one naming
//! nothing in the tracker, is -32602 "Resource not found" with `data.uri`, never an empty
//! `contents` (spec: Resources, "Error Handling").

use mcp_context::messages::owned::{
    OwnedImplementation, OwnedResourceContents, OwnedResourceTemplate,
};
use mcp_context::server::{CacheHint, ServerConfig, TemplateEntry};
use mcp_context_host::{App, Context, Error, ReadRequest};

/// The templates, in the order [`RepoRouter::new`] registers them.
pub const TEMPLATES: [&str; 3] = [
    "repo://{owner}/{repo}",
    "repo://{owner}/{repo}/issues/{number}",
    "repo://{owner}/{repo}/issues/{number}/comments/{comment}",
];

/// One issue of the tracker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// `owner/repo`.
    pub repo: &'static str,
    /// The issue number.
    pub number: u32,
    /// Its title.
    pub title: &'static str,
    /// Its body (markdown).
    pub body: &'static str,
    /// Its comments, in order (numbered from 1).
    pub comments: &'static [&'static str],
}

/// The tracker behind the handlers.
pub const ISSUES: &[Issue] = &[
    Issue {
        repo: "acme/web",
        number: 812,
        title: "Checkout button hidden on narrow screens",
        body: "Below 360 px the checkout button scrolls out of view.",
        comments: &[
            "Reproduced on a 320 px viewport.",
            "Fixed by the sticky footer.",
        ],
    },
    Issue {
        repo: "acme/web",
        number: 813,
        title: "Dark mode contrast on links",
        body: "Links fail WCAG AA contrast in dark mode.",
        comments: &[],
    },
    Issue {
        repo: "acme/web app",
        number: 812,
        title: "Repository names with spaces",
        body: "Percent-encoded names must round-trip: `web%20app` is `web app`.",
        comments: &["Covered by the router's tests."],
    },
];

/// The router: the three templates, each with its async handler, cacheable for 60 s,
/// public, `text/markdown`.
#[must_use]
pub fn app() -> App {
    let mut app = App::with_config(ServerConfig {
        server_info: Some(OwnedImplementation::new(
            "repo-router",
            env!("CARGO_PKG_VERSION"),
        )),
        instructions: Some("Issues are resources: repo://{owner}/{repo}/issues/{number}.".into()),
        ..ServerConfig::default()
    });
    for (text, name) in [
        (TEMPLATES[0], "repository"),
        (TEMPLATES[1], "issue"),
        (TEMPLATES[2], "comment"),
    ] {
        let mut template = OwnedResourceTemplate::new(text, name);
        template.mime_type = Some("text/markdown".into());
        let entry = TemplateEntry {
            template,
            cache: Some(CacheHint::public(60_000)),
            completions: Vec::new(),
        };
        app.template_entry(entry, |req: ReadRequest, _cx: Context| async move {
            let md = render(&req).ok_or(Error::not_found())?;
            Ok(OwnedResourceContents::text(
                &req.uri,
                Some("text/markdown"),
                md,
            ))
        });
    }
    app
}

/// Renders the markdown a read resolves to, or `None` when it names nothing.
#[must_use]
pub fn render(req: &ReadRequest) -> Option<String> {
    let template = req.template.as_deref()?;
    let repo = format!("{}/{}", req.var("owner")?, req.var("repo")?);
    let mut issues = ISSUES.iter().filter(|i| i.repo == repo);
    if template == TEMPLATES[0] {
        let list: Vec<String> = issues
            .map(|i| format!("- #{} {}", i.number, i.title))
            .collect();
        return (!list.is_empty())
            .then(|| format!("# {repo}\n\nOpen issues:\n{}\n", list.join("\n")));
    }
    let number: u32 = digits(req.var("number")?)?;
    let issue = issues.find(|i| i.number == number)?;
    if template == TEMPLATES[1] {
        return Some(format!(
            "# Issue {number} in {repo}\n\n**{}**\n\n{}\n\n{} comment(s)\n",
            issue.title,
            issue.body,
            issue.comments.len()
        ));
    }
    let n: usize = digits(req.var("comment")?)?;
    let text = issue.comments.get(n.checked_sub(1)?)?;
    Some(format!(
        "# Comment {n} on issue {number} in {repo}\n\n{text}\n"
    ))
}

/// A decimal number written with ASCII digits only (`+1`, ` 1` and `1e3` name nothing).
fn digits<T: core::str::FromStr>(s: &str) -> Option<T> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}
