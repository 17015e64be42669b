//! What the server serves: static resources, resource templates and prompts, each with its
//! cache hints and completion value sets, kept in deterministic key order (URI, template
//! text, prompt name) so lists and cursors are stable (docs/rules.md §3, §16.3 rule 17).

use super::vecmap::VecMap;
use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::config::CacheHint;
use super::route::{UriError, check_uri};
use crate::messages::owned::{
    OwnedPrompt, OwnedResource, OwnedResourceContents, OwnedResourceTemplate, OwnedTool,
};
use crate::template::{OwnedTemplate, ParseError};

/// The machine's id of a registered template (stable until it is removed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TemplateId(pub(crate) u32);

impl TemplateId {
    /// The id as a number.
    #[must_use]
    pub const fn get(self) -> u32 {
        self.0
    }
}

/// A completion value set: candidate values in relevance order (most relevant first).
pub type ValueSet = Vec<String>;

/// A static resource.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResourceEntry {
    /// The `resources/list` entry; `uri` is its key.
    pub resource: OwnedResource,
    /// Contents the machine answers `resources/read` with itself; `None` = ask the
    /// application ([`Event::ReadResource`](super::Event)). `Some(vec![])` is an existing,
    /// empty resource (docs/rules.md §19.1).
    pub contents: Option<Vec<OwnedResourceContents>>,
    /// Hints on its `resources/read` results; `None` = [`ServerConfig::read_cache`](super::ServerConfig::read_cache).
    pub cache: Option<CacheHint>,
}

/// A resource template.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TemplateEntry {
    /// The `resources/templates/list` entry; `uriTemplate` is its key.
    pub template: OwnedResourceTemplate,
    /// Hints on reads of URIs it matches; `None` = the configured default.
    pub cache: Option<CacheHint>,
    /// Built-in completion for its variables: variable name → values.
    pub completions: Vec<(String, ValueSet)>,
}

/// A prompt.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PromptEntry {
    /// The `prompts/list` entry; `name` is its key, `arguments` are enforced on
    /// `prompts/get` (required ones must be present, docs/rules.md §9).
    pub prompt: OwnedPrompt,
    /// Built-in completion for its arguments: argument name → values.
    pub completions: Vec<(String, ValueSet)>,
}

/// A list item, as shown to a visibility filter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Listed<'a> {
    /// A static resource.
    Resource(&'a OwnedResource),
    /// A template.
    Template(&'a OwnedResourceTemplate),
    /// A prompt.
    Prompt(&'a OwnedPrompt),
    /// A tool.
    Tool(&'a OwnedTool),
}

impl<'a> Listed<'a> {
    /// The item's key, as [`Server::require_scopes`](super::Server::require_scopes) names it.
    #[must_use]
    pub fn scoped(self) -> super::protect::Scoped<'a> {
        use super::protect::Scoped;
        match self {
            Self::Resource(r) => Scoped::Resource(&r.uri),
            Self::Template(t) => Scoped::Template(&t.uri_template),
            Self::Prompt(p) => Scoped::Prompt(&p.name),
            Self::Tool(t) => Scoped::Tool(t.name()),
        }
    }
}

/// Decides which items a caller context sees (docs/rules.md §1.5: lists "MAY vary by the
/// authorization presented on the request", never by connection). The same predicate
/// guards reads of static resources, `prompts/get` and completion references, so a hidden
/// item is "not found" for that caller.
pub type VisibilityFilter = Box<dyn Fn(u64, Listed<'_>) -> bool + Send>;

/// A registration the machine refused (caller error; the registry is unchanged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegisterError {
    /// The key (URI, template text or prompt name) is already registered.
    Duplicate,
    /// The resource URI is not a valid URI.
    InvalidUri(UriError),
    /// The template does not parse (RFC 6570).
    InvalidTemplate(ParseError),
    /// The installed [`TemplateRouter`](super::TemplateRouter) refused the template.
    Router(super::route::RouteInsertError),
    /// A completion value set names an argument or variable the item does not declare.
    UnknownArgument,
    /// [`Server::add_method`](super::Server::add_method): the core owns this method.
    CoreMethod,
    /// [`Server::set_capability`](super::Server::set_capability): the machine derives this
    /// capability (`resources`, `prompts`, `completions`) from what is registered.
    CoreCapability,
    /// [`Server::set_capability`](super::Server::set_capability): a capability is a JSON
    /// object.
    NotAnObject,
    /// Tools are served either by the core's registry ([`Server::add_tool`](super::Server::add_tool))
    /// or by the host's own `tools/list` and `tools/call` methods
    /// ([`Server::add_method`](super::Server::add_method)) with its own `tools` capability,
    /// never both: the one not in use is refused.
    ToolsByMethod,
    /// [`Server::require_scopes`](super::Server::require_scopes): a scope not in
    /// [`ResourceServerConfig::scopes_supported`](crate::auth::resource_server::ResourceServerConfig),
    /// or no [`ServerConfig::protection`](super::ServerConfig::protection).
    UnknownScope,
}

impl fmt::Display for RegisterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Duplicate => f.write_str("already registered"),
            Self::InvalidUri(e) => write!(f, "invalid resource URI: {e}"),
            Self::InvalidTemplate(e) => write!(f, "invalid template: {e}"),
            Self::Router(e) => write!(f, "template router: {e}"),
            Self::UnknownArgument => f.write_str("completion values for an undeclared argument"),
            Self::CoreMethod => f.write_str("the core owns this method"),
            Self::CoreCapability => f.write_str("the machine derives this capability"),
            Self::NotAnObject => f.write_str("a capability must be a JSON object"),
            Self::UnknownScope => f.write_str("a scope the protected resource does not support"),
            Self::ToolsByMethod => {
                f.write_str("tools come from the core's registry or the host's methods, not both")
            }
        }
    }
}

impl core::error::Error for RegisterError {}

pub(crate) struct Template {
    pub(crate) id: TemplateId,
    pub(crate) entry: TemplateEntry,
    pub(crate) variables: Vec<String>,
}

#[derive(Default)]
pub(crate) struct Registry {
    // Values are boxed: inserting out of key order moves the entries after the position.
    pub(crate) resources: VecMap<String, Box<ResourceEntry>>,
    pub(crate) templates: VecMap<String, Box<Template>>,
    pub(crate) template_keys: VecMap<TemplateId, String>,
    pub(crate) prompts: VecMap<String, Box<PromptEntry>>,
    pub(crate) tools: VecMap<String, Box<OwnedTool>>,
    next_template: u32,
}

fn declares(names: &[&str], sets: &[(String, ValueSet)]) -> bool {
    sets.iter().all(|(n, _)| names.contains(&n.as_str()))
}

impl Registry {
    pub(crate) fn add_resource(&mut self, entry: ResourceEntry) -> Result<(), RegisterError> {
        check_uri(&entry.resource.uri).map_err(RegisterError::InvalidUri)?;
        if self.resources.contains_key(&entry.resource.uri) {
            return Err(RegisterError::Duplicate);
        }
        self.resources
            .insert(entry.resource.uri.clone(), Box::new(entry));
        Ok(())
    }

    /// Parses and checks a template; the caller routes it, then [`Registry::commit_template`].
    pub(crate) fn prepare_template(
        &self,
        entry: &TemplateEntry,
    ) -> Result<(TemplateId, Vec<String>), RegisterError> {
        let parsed = OwnedTemplate::parse(&entry.template.uri_template)
            .map_err(RegisterError::InvalidTemplate)?;
        if self.templates.contains_key(&entry.template.uri_template) {
            return Err(RegisterError::Duplicate);
        }
        let variables: Vec<String> = parsed.variables().map(|v| String::from(v.name)).collect();
        let names: Vec<&str> = variables.iter().map(String::as_str).collect();
        if !declares(&names, &entry.completions) {
            return Err(RegisterError::UnknownArgument);
        }
        Ok((TemplateId(self.next_template), variables))
    }

    pub(crate) fn commit_template(
        &mut self,
        id: TemplateId,
        variables: Vec<String>,
        entry: TemplateEntry,
    ) {
        self.next_template = self.next_template.wrapping_add(1);
        let key = entry.template.uri_template.clone();
        self.template_keys.insert(id, key.clone());
        self.templates.insert(
            key,
            Box::new(Template {
                id,
                entry,
                variables,
            }),
        );
    }

    pub(crate) fn remove_template(&mut self, uri_template: &str) -> Option<TemplateId> {
        let t = self.templates.remove(uri_template)?;
        self.template_keys.remove(&t.id);
        Some(t.id)
    }

    pub(crate) fn template_by_id(&self, id: TemplateId) -> Option<&Template> {
        self.templates
            .get(self.template_keys.get(&id)?)
            .map(|t| &**t)
    }

    pub(crate) fn add_prompt(&mut self, entry: PromptEntry) -> Result<(), RegisterError> {
        if self.prompts.contains_key(&entry.prompt.name) {
            return Err(RegisterError::Duplicate);
        }
        let names: Vec<&str> = entry
            .prompt
            .arguments
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        if !declares(&names, &entry.completions) {
            return Err(RegisterError::UnknownArgument);
        }
        self.prompts
            .insert(entry.prompt.name.clone(), Box::new(entry));
        Ok(())
    }

    pub(crate) fn has_value_sets(&self) -> bool {
        self.prompts.values().any(|p| !p.completions.is_empty())
            || self
                .templates
                .values()
                .any(|t| !t.entry.completions.is_empty())
    }
}
