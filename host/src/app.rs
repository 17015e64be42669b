//! [`App`]: the server's configuration and its handlers, registered as async closures, then
//! [`App::build`] into a running [`Host`].

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::sync::Arc;

use mcp_context::messages::owned::{
    OwnedImplementation, OwnedJson, OwnedPrompt, OwnedResource, OwnedResourceContents,
    OwnedResourceTemplate, OwnedTool,
};
use mcp_context::server::{
    CacheHint, ConfigError, PromptEntry, RegisterError, ResourceEntry, Server, ServerConfig,
    TemplateEntry, TemplateId,
};

use crate::engine::Engine;
use crate::handler::{
    BoxFuture, CompleteRequest, Context, HandlerResult, ListPage, ListRequest, MethodReply,
    MethodRequest, PromptReply, PromptRequest, ReadReply, ReadRequest, ToolReply, ToolRequest,
};
use crate::host::Host;
use crate::ids::IdMap;

pub(crate) type ReadFn =
    Arc<dyn Fn(ReadRequest, Context) -> BoxFuture<HandlerResult<ReadReply>> + Send + Sync>;
pub(crate) type PromptFn =
    Arc<dyn Fn(PromptRequest, Context) -> BoxFuture<HandlerResult<PromptReply>> + Send + Sync>;
pub(crate) type MethodFn =
    Arc<dyn Fn(MethodRequest, Context) -> BoxFuture<HandlerResult<MethodReply>> + Send + Sync>;
pub(crate) type ToolFn =
    Arc<dyn Fn(ToolRequest, Context) -> BoxFuture<HandlerResult<ToolReply>> + Send + Sync>;
pub(crate) type ListFn =
    Arc<dyn Fn(ListRequest, Context) -> BoxFuture<HandlerResult<ListPage>> + Send + Sync>;
pub(crate) type CompleteFn =
    Arc<dyn Fn(CompleteRequest, Context) -> BoxFuture<HandlerResult<Vec<String>>> + Send + Sync>;

/// The handlers, by what the machine resolved the request to.
#[derive(Default)]
pub(crate) struct Handlers {
    pub(crate) resources: HashMap<String, ReadFn>,
    pub(crate) templates: IdMap<TemplateId, (String, ReadFn)>,
    pub(crate) unlisted: Option<ReadFn>,
    pub(crate) prompts: HashMap<String, PromptFn>,
    pub(crate) tools: HashMap<String, ToolFn>,
    pub(crate) complete_prompt: HashMap<String, CompleteFn>,
    pub(crate) complete_template: IdMap<TemplateId, CompleteFn>,
    pub(crate) methods: HashMap<String, MethodFn>,
    pub(crate) list: Option<ListFn>,
    pub(crate) layers: crate::telemetry::Layers,
}

/// Everything registered while building: the handlers, and template texts → ids.
#[derive(Default)]
pub(crate) struct Built {
    pub(crate) handlers: Handlers,
    template_ids: HashMap<String, TemplateId>,
    /// The first completion handler registered for a template that was not (yet).
    unknown: Option<String>,
}

type Op = Box<dyn FnOnce(&mut Server, &mut Built) -> Result<(), RegisterError> + Send>;

/// An MCP server under construction: configuration, resources, templates and prompts, each
/// with an async handler.
///
/// Registration is recorded in order and applied by [`App::build`], which reports the
/// first error (a duplicate URI, an invalid template).
///
/// ```
/// use mcp_context::messages::owned::{OwnedResourceContents, OwnedResourceTemplate};
/// use mcp_context_host::{App, ReadRequest, Context};
///
/// let mut app = App::named("notes", "1.0.0");
/// app.template(OwnedResourceTemplate::new("notes://{id}", "note"), |req: ReadRequest, _cx: Context| async move {
///     let id = req.var("id").unwrap_or_default().to_owned();
///     Ok(OwnedResourceContents::text(&req.uri, Some("text/plain"), format!("note {id}")))
/// });
/// let host = app.build().unwrap();
/// # drop(host);
/// ```
pub struct App {
    config: ServerConfig,
    ops: Vec<Op>,
}

impl fmt::Debug for App {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("App")
            .field("server_info", &self.config.server_info)
            .field("registrations", &self.ops.len())
            .finish_non_exhaustive()
    }
}

/// Why [`App::build`] failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// The [`ServerConfig`] was refused.
    Config(ConfigError),
    /// A registration was refused.
    Register(RegisterError),
    /// A completion handler names a template that was never registered.
    UnknownTemplate(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Config(e) => write!(f, "configuration: {e}"),
            Self::Register(e) => write!(f, "registration: {e}"),
            Self::UnknownTemplate(t) => write!(f, "completion for an unregistered template {t}"),
        }
    }
}

impl std::error::Error for BuildError {}

fn read_fn<F, Fut, R>(f: F) -> ReadFn
where
    F: Fn(ReadRequest, Context) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = HandlerResult<R>> + Send + 'static,
    R: Into<ReadReply>,
{
    Arc::new(move |r, c| {
        let fut = f(r, c);
        Box::pin(async move { fut.await.map(Into::into) })
    })
}

impl App {
    /// A server with the core's default configuration and this `serverInfo`.
    #[must_use]
    pub fn named(name: &str, version: &str) -> Self {
        Self::with_config(ServerConfig {
            server_info: Some(OwnedImplementation::new(name, version)),
            ..ServerConfig::default()
        })
    }

    /// A server with this configuration. Completion handlers turn on
    /// [`ServerConfig::completion_events`].
    #[must_use]
    pub fn with_config(config: ServerConfig) -> Self {
        Self {
            config,
            ops: Vec::new(),
        }
    }

    /// The configuration, to change before [`App::build`].
    pub fn config_mut(&mut self) -> &mut ServerConfig {
        &mut self.config
    }

    pub(crate) fn op(
        &mut self,
        op: impl FnOnce(&mut Server, &mut Built) -> Result<(), RegisterError> + Send + 'static,
    ) -> &mut Self {
        self.ops.push(Box::new(op));
        self
    }

    /// A resource whose contents the machine stores and serves itself (no handler).
    pub fn static_resource(
        &mut self,
        resource: OwnedResource,
        contents: Vec<OwnedResourceContents>,
        cache: Option<CacheHint>,
    ) -> &mut Self {
        self.op(move |s, _| {
            s.add_resource(ResourceEntry {
                resource,
                contents: Some(contents),
                cache,
            })
        })
    }

    /// A listed resource read by `handler`.
    pub fn resource<F, Fut, R>(&mut self, resource: OwnedResource, handler: F) -> &mut Self
    where
        F: Fn(ReadRequest, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<R>> + Send + 'static,
        R: Into<ReadReply>,
    {
        self.resource_entry(
            ResourceEntry {
                resource,
                contents: None,
                cache: None,
            },
            handler,
        )
    }

    /// [`App::resource`] with the whole entry (cache hint included).
    pub fn resource_entry<F, Fut, R>(&mut self, entry: ResourceEntry, handler: F) -> &mut Self
    where
        F: Fn(ReadRequest, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<R>> + Send + 'static,
        R: Into<ReadReply>,
    {
        let handler = read_fn(handler);
        self.op(move |s, b| {
            let uri = entry.resource.uri.clone();
            s.add_resource(entry)?;
            b.handlers.resources.insert(uri, handler);
            Ok(())
        })
    }

    /// A resource template (RFC 6570): reads of URIs it matches go to `handler` with the
    /// decoded variables ([`ReadRequest::var`]).
    pub fn template<F, Fut, R>(&mut self, template: OwnedResourceTemplate, handler: F) -> &mut Self
    where
        F: Fn(ReadRequest, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<R>> + Send + 'static,
        R: Into<ReadReply>,
    {
        self.template_entry(
            TemplateEntry {
                template,
                cache: None,
                completions: Vec::new(),
            },
            handler,
        )
    }

    /// [`App::template`] with the whole entry (cache hint and completion value sets).
    pub fn template_entry<F, Fut, R>(&mut self, entry: TemplateEntry, handler: F) -> &mut Self
    where
        F: Fn(ReadRequest, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<R>> + Send + 'static,
        R: Into<ReadReply>,
    {
        let handler = read_fn(handler);
        self.op(move |s, b| {
            let text = entry.template.uri_template.clone();
            let id = s.add_template(entry)?;
            b.template_ids.insert(text.clone(), id);
            b.handlers.templates.insert(id, (text, handler));
            Ok(())
        })
    }

    /// Reads of URIs nothing registered matches (turns on
    /// [`ServerConfig::forward_unlisted_reads`]); answer [`crate::Error::not_found`] for
    /// those that do not exist.
    pub fn unlisted<F, Fut, R>(&mut self, handler: F) -> &mut Self
    where
        F: Fn(ReadRequest, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<R>> + Send + 'static,
        R: Into<ReadReply>,
    {
        self.config.forward_unlisted_reads = true;
        let handler = read_fn(handler);
        self.op(move |_, b| {
            b.handlers.unlisted = Some(handler);
            Ok(())
        })
    }

    /// Resources listed on demand: `resources/list` pages through the registered resources
    /// first, then asks `handler` for its pages (turns on
    /// [`ServerConfig::dynamic_resources`]). Reads of the listed URIs still need a resource,
    /// template or [`App::unlisted`] handler.
    pub fn list_resources<F, Fut>(&mut self, handler: F) -> &mut Self
    where
        F: Fn(ListRequest, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<ListPage>> + Send + 'static,
    {
        self.config.dynamic_resources = true;
        let handler: ListFn = Arc::new(move |r, c| Box::pin(handler(r, c)));
        self.op(move |_, b| {
            b.handlers.list = Some(handler);
            Ok(())
        })
    }

    /// A prompt answered by `handler`.
    pub fn prompt<F, Fut, R>(&mut self, prompt: OwnedPrompt, handler: F) -> &mut Self
    where
        F: Fn(PromptRequest, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<R>> + Send + 'static,
        R: Into<PromptReply>,
    {
        self.prompt_entry(
            PromptEntry {
                prompt,
                completions: Vec::new(),
            },
            handler,
        )
    }

    /// [`App::prompt`] with the whole entry (completion value sets).
    pub fn prompt_entry<F, Fut, R>(&mut self, entry: PromptEntry, handler: F) -> &mut Self
    where
        F: Fn(PromptRequest, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<R>> + Send + 'static,
        R: Into<PromptReply>,
    {
        let handler: PromptFn = Arc::new(move |r, c| {
            let fut = handler(r, c);
            Box::pin(async move { fut.await.map(Into::into) })
        });
        self.op(move |s, b| {
            let name = entry.prompt.name.clone();
            s.add_prompt(entry)?;
            b.handlers.prompts.insert(name, handler);
            Ok(())
        })
    }

    /// A tool on the core's registry (`tools/list` and `tools/call` are the machine's; the
    /// `tools` capability is declared), called through `handler`. The machine has already
    /// refused unknown or hidden tools, non-object arguments and missing required ones; an
    /// `Err` from `handler` follows [`ToolReply`]'s rule. Not to be mixed with
    /// [`App::method`]`("tools/…")` ([`App::build`] refuses it).
    pub fn tool<F, Fut, R>(&mut self, tool: OwnedTool, handler: F) -> &mut Self
    where
        F: Fn(ToolRequest, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<R>> + Send + 'static,
        R: Into<ToolReply>,
    {
        let handler: ToolFn = Arc::new(move |r, c| {
            let fut = handler(r, c);
            Box::pin(async move { fut.await.map(Into::into) })
        });
        self.op(move |s, b| {
            let name = tool.name().to_owned();
            s.add_tool(tool)?;
            b.handlers.tools.insert(name, handler);
            Ok(())
        })
    }

    /// Completion of the arguments of prompt `name` that have no built-in value set.
    pub fn complete_prompt<F, Fut>(&mut self, name: &str, handler: F) -> &mut Self
    where
        F: Fn(CompleteRequest, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<Vec<String>>> + Send + 'static,
    {
        self.config.completion_events = true;
        let name = name.to_owned();
        let handler = complete_fn(handler);
        self.op(move |_, b| {
            b.handlers.complete_prompt.insert(name, handler);
            Ok(())
        })
    }

    /// Completion of the variables of template `uri_template` (registered before) that
    /// have no built-in value set.
    pub fn complete_template<F, Fut>(&mut self, uri_template: &str, handler: F) -> &mut Self
    where
        F: Fn(CompleteRequest, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<Vec<String>>> + Send + 'static,
    {
        self.config.completion_events = true;
        let text = uri_template.to_owned();
        let handler = complete_fn(handler);
        self.op(move |_, b| {
            // Resolved against the templates registered so far; an unknown one is reported
            // by `build`.
            match b.template_ids.get(&text) {
                Some(id) => {
                    b.handlers.complete_template.insert(*id, handler);
                }
                None => {
                    b.unknown.get_or_insert(text);
                }
            }
            Ok(())
        })
    }

    /// An extension method (`tools/list`, `tools/call`, `logging/setLevel`, a vendor
    /// method) answered by `handler`. Methods the core owns are refused by [`App::build`].
    pub fn method<F, Fut, R>(&mut self, method: &str, handler: F) -> &mut Self
    where
        F: Fn(MethodRequest, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<R>> + Send + 'static,
        R: Into<MethodReply>,
    {
        let method = method.to_owned();
        let handler: MethodFn = Arc::new(move |r, c| {
            let fut = handler(r, c);
            Box::pin(async move { fut.await.map(Into::into) })
        });
        self.op(move |s, b| {
            s.add_method(&method)?;
            b.handlers.methods.insert(method, handler);
            Ok(())
        })
    }

    /// Announces `key: value` in `server/discover`'s `capabilities` (e.g. `"tools"`,
    /// `{"listChanged":true}` next to `tools/*` methods).
    pub fn capability(&mut self, key: &str, value: OwnedJson) -> &mut Self {
        let key = key.to_owned();
        self.op(move |s, _| s.set_capability(&key, value))
    }

    /// Direct access to the machine at build time (visibility filters, a custom router…).
    pub fn with_server(
        &mut self,
        f: impl FnOnce(&mut Server) -> Result<(), RegisterError> + Send + 'static,
    ) -> &mut Self {
        self.op(move |s, _| f(s))
    }

    /// Builds the machine and applies every registration, in order.
    ///
    /// # Errors
    /// The first refused configuration or registration.
    pub fn build(self) -> Result<Host, BuildError> {
        let mut server = Server::new(self.config).map_err(BuildError::Config)?;
        let mut built = Built::default();
        for op in self.ops {
            op(&mut server, &mut built).map_err(BuildError::Register)?;
        }
        if let Some(text) = built.unknown {
            return Err(BuildError::UnknownTemplate(text));
        }
        Ok(Host::new(Engine::new(server, built.handlers)))
    }
}

fn complete_fn<F, Fut>(f: F) -> CompleteFn
where
    F: Fn(CompleteRequest, Context) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = HandlerResult<Vec<String>>> + Send + 'static,
{
    Arc::new(move |r, c| Box::pin(f(r, c)))
}
