//! The demo's embedded catalogue: notes in projects, served as resources, through the
//! `notes://{project}/{id}` template, and embedded by the `review_note` prompt.

use std::collections::BTreeMap;

use mcp_context::messages::Role;
use mcp_context::messages::owned::{
    OwnedContentBlock, OwnedGetPromptResult, OwnedPrompt, OwnedPromptArgument, OwnedPromptMessage,
    OwnedResource, OwnedResourceContents, OwnedResourceTemplate,
};
use mcp_context::server::{
    CacheHint, CompletionEvent, CompletionTarget, PromptEntry, PromptEvent, ReadEvent, ReadTarget,
    ResourceEntry, Server, TemplateEntry,
};

pub(crate) const NOTE_TEMPLATE: &str = "notes://{project}/{id}";
pub(crate) const README: &str = "notes://readme";

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

    /// Registers the catalogue with the server.
    pub(crate) fn register(
        &self,
        server: &mut Server,
    ) -> Result<(), mcp_context::server::RegisterError> {
        server.add_resource(ResourceEntry {
            resource: OwnedResource {
                title: Some("About this server".into()),
                mime_type: Some("text/markdown".into()),
                ..OwnedResource::new(README, "readme")
            },
            contents: Some(vec![OwnedResourceContents::text(
                README,
                Some("text/markdown"),
                "Notes are served at notes://{project}/{id}; try the review_note prompt.",
            )]),
            cache: Some(CacheHint::public(3_600_000)),
        })?;
        for project in self.projects() {
            let uri = format!("notes://{project}");
            server.add_resource(ResourceEntry {
                resource: OwnedResource {
                    title: Some(format!("Project {project}")),
                    mime_type: Some("text/markdown".into()),
                    ..OwnedResource::new(uri, format!("{project}-index"))
                },
                contents: None,
                cache: None,
            })?;
        }
        server.add_template(TemplateEntry {
            template: OwnedResourceTemplate {
                title: Some("Note".into()),
                mime_type: Some("text/markdown".into()),
                ..OwnedResourceTemplate::new(NOTE_TEMPLATE, "note")
            },
            cache: Some(CacheHint::private(10_000)),
            completions: vec![("project".into(), self.projects())],
        })?;
        let arg = |name: &str, required: bool, description: &str| OwnedPromptArgument {
            name: name.into(),
            description: Some(description.into()),
            required: Some(required),
            ..Default::default()
        };
        server.add_prompt(PromptEntry {
            prompt: OwnedPrompt {
                name: "review_note".into(),
                title: Some("Review a note".into()),
                arguments: vec![
                    arg("project", true, "The project"),
                    arg("id", true, "The note id"),
                    arg("focus", false, "What to look at"),
                ],
                ..Default::default()
            },
            completions: vec![
                ("project".into(), self.projects()),
                (
                    "focus".into(),
                    vec!["clarity".into(), "accuracy".into(), "tone".into()],
                ),
            ],
        })?;
        Ok(())
    }

    /// Contents for a read event; `None` = not found.
    pub(crate) fn read(&self, e: &ReadEvent) -> Option<Vec<OwnedResourceContents>> {
        let text = match &e.target {
            ReadTarget::Template { variables, .. } => {
                let get = |k: &str| {
                    variables
                        .iter()
                        .find(|(n, _)| n == k)
                        .map(|(_, v)| v.as_str())
                };
                self.markdown(get("project")?, get("id")?)?
            }
            ReadTarget::Resource => self.index(e.uri.strip_prefix("notes://")?)?,
            _ => return None,
        };
        Some(vec![OwnedResourceContents::text(
            &e.uri,
            Some("text/markdown"),
            text,
        )])
    }

    /// Messages for the `review_note` prompt; `None` = no such note.
    pub(crate) fn prompt(&self, e: &PromptEvent) -> Option<OwnedGetPromptResult> {
        let get = |k: &str| {
            e.arguments
                .iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.as_str())
        };
        let (project, id) = (get("project")?, get("id")?);
        let text = self.markdown(project, id)?;
        let focus = get("focus").unwrap_or("clarity");
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

    /// Completion of note ids, which depend on the project already chosen.
    pub(crate) fn complete(&self, e: &CompletionEvent) -> Vec<String> {
        let project = e
            .context
            .iter()
            .find(|(n, _)| n == "project")
            .map(|(_, v)| v.as_str());
        match (&e.target, e.argument.as_str(), project) {
            (CompletionTarget::Prompt(_) | CompletionTarget::Template(_), "id", Some(p)) => self
                .ids(p)
                .into_iter()
                .filter(|id| id.starts_with(&e.value))
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
