//! The demo's embedded catalogue: notes in projects, served as resources, through the
//! `notes://{project}/{id}` template, and embedded by the `review_note` prompt.

use std::collections::BTreeMap;

use mcp_context::messages::Role;
use mcp_context::messages::owned::{
    OwnedContentBlock, OwnedGetPromptResult, OwnedPromptMessage, OwnedResourceContents,
};
use mcp_context_host::{CompleteRequest, PromptRequest, ReadRequest};

/// One note.
#[derive(Debug, Clone)]
pub(crate) struct Note {
    pub(crate) title: String,
    pub(crate) body: String,
}

/// Every note, by (project, id).
#[derive(Debug, Clone)]
pub(crate) struct Catalogue {
    pub(crate) notes: BTreeMap<(String, String), Note>,
}

impl Catalogue {
    pub(crate) fn demo() -> Self {
        let mut notes = BTreeMap::new();
        let mut add = |p: &str, id: &str, title: &str, body: &str| {
            notes.insert(
                (p.to_string(), id.to_string()),
                Note {
                    title: title.into(),
                    body: body.into(),
                },
            );
        };
        add(
            "acme",
            "1",
            "Launch checklist",
            "- DNS\n- TLS\n- on-call rota",
        );
        add(
            "acme",
            "2",
            "Incident 42",
            "Root cause: an expired certificate.",
        );
        add(
            "apollo",
            "7",
            "Design notes",
            "Prefer stateless handlers; cache by URI.",
        );
        Self { notes }
    }

    pub(crate) fn projects(&self) -> Vec<String> {
        let mut p: Vec<String> = self.notes.keys().map(|(p, _)| p.clone()).collect();
        p.dedup();
        p
    }

    pub(crate) fn ids(&self, project: &str) -> Vec<String> {
        self.notes
            .keys()
            .filter(|(p, _)| p == project)
            .map(|(_, id)| id.clone())
            .collect()
    }

    pub(crate) fn uri(project: &str, id: &str) -> String {
        format!("notes://{project}/{id}")
    }

    fn markdown(&self, project: &str, id: &str) -> Option<String> {
        let n = self.notes.get(&(project.to_string(), id.to_string()))?;
        Some(format!("# {}\n\n{}\n", n.title, n.body))
    }

    fn index(&self, project: &str) -> Option<String> {
        let ids = self.ids(project);
        if ids.is_empty() {
            return None;
        }
        let mut s = format!("# Project {project}\n\n");
        for id in ids {
            let title = &self.notes[&(project.to_string(), id.clone())].title;
            s.push_str(&format!("- [{title}]({})\n", Self::uri(project, &id)));
        }
        Some(s)
    }

    /// Contents for a read (a note through the template, or a project index); `None` =
    /// not found.
    pub(crate) fn read(&self, r: &ReadRequest) -> Option<OwnedResourceContents> {
        let text = match &r.template {
            Some(_) => self.markdown(r.var("project")?, r.var("id")?)?,
            None => self.index(r.uri.strip_prefix("notes://")?)?,
        };
        Some(OwnedResourceContents::text(
            &r.uri,
            Some("text/markdown"),
            text,
        ))
    }

    /// Messages for the `review_note` prompt; `None` = no such note.
    pub(crate) fn prompt(&self, p: &PromptRequest) -> Option<OwnedGetPromptResult> {
        let (project, id) = (p.arg("project")?, p.arg("id")?);
        let text = self.markdown(project, id)?;
        let focus = p.arg("focus").unwrap_or("clarity");
        let uri = Self::uri(project, id);
        Some(OwnedGetPromptResult {
            description: Some(format!("Review of {uri}")),
            messages: vec![
                OwnedPromptMessage {
                    role: Role::User,
                    content: OwnedContentBlock::Text {
                        text: format!("Please review this note for {focus}."),
                        annotations: None,
                    },
                },
                OwnedPromptMessage {
                    role: Role::User,
                    content: OwnedContentBlock::Resource {
                        resource: OwnedResourceContents::text(uri, Some("text/markdown"), text),
                        annotations: None,
                    },
                },
            ],
            server_info: None,
        })
    }

    /// The URIs and titles of the notes whose title or body contains `query` (any case),
    /// one per line; `None` when none does.
    pub(crate) fn search(&self, query: &str) -> Option<String> {
        let q = query.to_lowercase();
        let hits: Vec<String> = self
            .notes
            .iter()
            .filter(|(_, n)| {
                n.title.to_lowercase().contains(&q) || n.body.to_lowercase().contains(&q)
            })
            .map(|((p, id), n)| format!("{} {}", Self::uri(p, id), n.title))
            .collect();
        (!hits.is_empty()).then(|| hits.join("\n"))
    }

    /// Completion of note ids, which depend on the project already chosen.
    pub(crate) fn complete(&self, c: &CompleteRequest) -> Vec<String> {
        match (c.argument.as_str(), c.context("project")) {
            ("id", Some(p)) => self
                .ids(p)
                .into_iter()
                .filter(|id| id.starts_with(&c.value))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The timer's edit: appends a line to acme/1 and returns its URI.
    pub(crate) fn touch(&mut self, tick: u64) -> String {
        if let Some(n) = self.notes.get_mut(&("acme".to_string(), "1".to_string())) {
            n.body.push_str(&format!("\n- checked (tick {tick})"));
        }
        Self::uri("acme", "1")
    }
}
