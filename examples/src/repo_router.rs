//! A level-1 template router: `resources/read` of `repo://…` URIs is routed by RFC 6570
//! templates to handlers that render markdown from a small in-memory issue tracker.
//!
//! | template | handler |
//! | --- | --- |
//! | `repo://{owner}/{repo}` | the repository's overview and open issues |
//! | `repo://{owner}/{repo}/issues/{number}` | one issue (`# Issue 812 in acme/web`) |
//! | `repo://{owner}/{repo}/issues/{number}/comments/{comment}` | one comment |
//!
//! The machine matches the URI (the crate's indexed router), decodes the variables
//! (`web%20app` → `web app`) and hands the handler a [`ReadTarget::Template`]; a URI no
//! template matches, or one naming nothing in the tracker, is -32602 "Resource not found"
//! with `data.uri`, never an empty `contents` (DIGEST §7, §16.5 rule 30).

use mcp_context::messages::owned::{
    OwnedImplementation, OwnedResourceContents, OwnedResourceTemplate,
};
use mcp_context::server::{
    CacheHint, Event, Failure, ReadEvent, ReadTarget, Server, ServerConfig, TemplateEntry,
    TemplateId,
};

use crate::stdio::App;

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

/// Which handler a template routes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    Repository,
    Issue,
    Comment,
}

/// The router: a server machine with the three templates registered, and their handlers.
pub struct RepoRouter {
    server: Server,
    routes: Vec<(TemplateId, Route)>,
}

impl RepoRouter {
    /// A server with the three templates (`text/markdown`, reads cacheable for 60 s, public).
    ///
    /// # Errors
    /// A registration error, as text (cannot happen with these templates).
    pub fn new() -> Result<Self, String> {
        let config = ServerConfig {
            server_info: Some(OwnedImplementation::new(
                "repo-router",
                env!("CARGO_PKG_VERSION"),
            )),
            instructions: Some(
                "Issues are resources: repo://{owner}/{repo}/issues/{number}.".into(),
            ),
            ..ServerConfig::default()
        };
        let mut server = Server::new(config).map_err(|e| e.to_string())?;
        let mut routes = Vec::new();
        for (text, route, name) in [
            (TEMPLATES[0], Route::Repository, "repository"),
            (TEMPLATES[1], Route::Issue, "issue"),
            (TEMPLATES[2], Route::Comment, "comment"),
        ] {
            let mut template = OwnedResourceTemplate::new(text, name);
            template.mime_type = Some("text/markdown".into());
            let id = server
                .add_template(TemplateEntry {
                    template,
                    cache: Some(CacheHint::public(60_000)),
                    completions: Vec::new(),
                })
                .map_err(|e| e.to_string())?;
            routes.push((id, route));
        }
        Ok(Self { server, routes })
    }

    /// Renders the markdown a read resolves to, or `None` when it names nothing.
    #[must_use]
    pub fn render(&self, event: &ReadEvent) -> Option<String> {
        let ReadTarget::Template { id, variables } = &event.target else {
            return None;
        };
        let route = self.routes.iter().find(|(t, _)| t == id)?.1;
        let var = |name: &str| {
            variables
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let repo = format!("{}/{}", var("owner")?, var("repo")?);
        let mut issues = ISSUES.iter().filter(|i| i.repo == repo);
        match route {
            Route::Repository => {
                let list: Vec<String> = issues
                    .map(|i| format!("- #{} {}", i.number, i.title))
                    .collect();
                (!list.is_empty())
                    .then(|| format!("# {repo}\n\nOpen issues:\n{}\n", list.join("\n")))
            }
            Route::Issue | Route::Comment => {
                let number: u32 = digits(var("number")?)?;
                let issue = issues.find(|i| i.number == number)?;
                if route == Route::Issue {
                    return Some(format!(
                        "# Issue {number} in {repo}\n\n**{}**\n\n{}\n\n{} comment(s)\n",
                        issue.title,
                        issue.body,
                        issue.comments.len()
                    ));
                }
                let n: usize = digits(var("comment")?)?;
                let text = issue.comments.get(n.checked_sub(1)?)?;
                Some(format!(
                    "# Comment {n} on issue {number} in {repo}\n\n{text}\n"
                ))
            }
        }
    }
}

/// A decimal number written with ASCII digits only (`+1`, ` 1` and `1e3` name nothing).
fn digits<T: core::str::FromStr>(s: &str) -> Option<T> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl App for RepoRouter {
    fn server(&mut self) -> &mut Server {
        &mut self.server
    }

    fn answer(&mut self, event: Event) {
        let r = match event {
            Event::ReadResource(e) => match self.render(&e) {
                Some(md) => {
                    let contents = OwnedResourceContents::text(&e.uri, Some("text/markdown"), md);
                    self.server.respond_read(e.handle, vec![contents])
                }
                None => self.server.fail(e.handle, Failure::NotFound),
            },
            _ => Ok(()),
        };
        if let Err(err) = r {
            eprintln!("repo-router: {err}");
        }
    }
}
