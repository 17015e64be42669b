//! Tools (docs/rules.md §20, docs/server-machine.md §Tools): a registry beside resources and
//! prompts. `tools/list` is answered by the machine (keyset pages, cache hints, the
//! visibility filter); `tools/call` of a registered, visible tool with object `arguments`
//! holding the required properties becomes [`Event::CallTool`], answered with a
//! `CallToolResult` ([`Server::respond_tool`]), a tool error ([`Server::respond_tool_error`]:
//! `isError: true`, the message as text), `input_required` or a protocol error
//! ([`Server::fail`]). The `tools` capability (`listChanged: true`) is derived while a tool is
//! registered. A host that serves `tools/*` through [`Server::add_method`] instead keeps doing
//! so; the two ways are never mixed ([`RegisterError::ToolsByMethod`]).

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::event::{DeclaredCapabilities, Event, Handle, ToolEvent};
use super::extension::{HostResult, is_tools_method};
use super::io::Ctx;
use super::machine::Server;
use super::outbox;
use super::page::ListId;
use super::pending::{Bound, Owed};
use super::registry::{Listed, RegisterError};
use super::reply::RespondError;
use crate::http::RequestHeaders;
use crate::json::{Encode, EncodeError, JsonKind, JsonSink, RawJson, Writer};
use crate::jsonrpc::{FromJson, Request, RequestId, TypedResponse};
use crate::messages::owned::{AsView, OwnedJson, OwnedTool};
use crate::messages::{ContentBlock, Implementation, PaginatedParams, ResultMeta};

const TOOLS_CALL: &str = "tools/call";

impl Server {
    /// Registers a tool; `tools` (`listChanged: true`) is then declared. Call
    /// [`Server::tools_list_changed`] to tell listeners.
    ///
    /// # Errors
    /// [`RegisterError::Duplicate`] for a name already registered;
    /// [`RegisterError::ToolsByMethod`] when the host serves `tools/list` or `tools/call`
    /// itself ([`Server::add_method`]) or announced its own `tools` capability. Nothing
    /// changes.
    pub fn add_tool(&mut self, tool: OwnedTool) -> Result<(), RegisterError> {
        let by_host = self.ext.methods.iter().any(|(m, ())| is_tools_method(m))
            || self.ext.capabilities.contains_key("tools");
        if by_host {
            return Err(RegisterError::ToolsByMethod);
        }
        if self.registry.tools.contains_key(tool.name()) {
            return Err(RegisterError::Duplicate);
        }
        self.registry
            .tools
            .insert(String::from(tool.name()), alloc::boxed::Box::new(tool));
        self.discover = None;
        Ok(())
    }

    /// Removes a tool; `false` if it was not registered. Calls already reported stay
    /// answerable.
    pub fn remove_tool(&mut self, name: &str) -> bool {
        self.discover = None;
        self.registry.tools.remove(name).is_some()
    }

    /// A registered tool.
    #[must_use]
    pub fn tool(&self, name: &str) -> Option<&OwnedTool> {
        self.registry.tools.get(name).map(|t| &**t)
    }

    pub(crate) fn serves_tools(&self) -> bool {
        !self.registry.tools.is_empty()
    }

    /// `tools/list` or `tools/call` while the registry serves tools.
    pub(crate) fn on_tools(
        &mut self,
        r: Request<'_>,
        ctx: Ctx,
        headers: Option<&RequestHeaders<'_>>,
    ) {
        let Some(meta) = self.envelope(&r, None, ctx, headers) else {
            return;
        };
        if r.method.as_str() == TOOLS_CALL {
            return self.call_tool(r, ctx, &meta);
        }
        let cursor = match r.params.map(PaginatedParams::from_json) {
            Some(Ok(p)) => p.cursor,
            Some(Err(e)) => return self.invalid_params(ctx, r.id, &format!("{e}")),
            None => None,
        };
        self.list(ListId::Tools, r.id, ctx, cursor);
    }

    /// `tools/call` (docs/rules.md §20.3): `name` a string naming a registered, visible tool
    /// (else -32602), `arguments` an object (else -32602), the retry inputs verified; a
    /// missing required argument is a tool error (§20.4); then the event.
    fn call_tool(&mut self, r: Request<'_>, ctx: Ctx, meta: &crate::messages::RequestMeta<'_>) {
        let Some(params) = r.params else {
            return self.invalid_params(ctx, r.id, "params: expected an object");
        };
        let Some(name) = params.get("name").and_then(|n| n.as_str()) else {
            return self.invalid_params(ctx, r.id, "name: expected a string");
        };
        let name = name.to_cow().into_owned();
        let arguments = match params.get("arguments") {
            None => None,
            Some(a) if a.kind() == JsonKind::Object => Some(a),
            Some(_) => return self.invalid_params(ctx, r.id, "arguments: expected an object"),
        };
        let Some(tool) = self
            .registry
            .tools
            .get(&name)
            .filter(|t| self.visible(ctx.auth, Listed::Tool(t)))
        else {
            return self.invalid_params(ctx, r.id, &["Unknown tool: ", name.as_str()].concat());
        };
        let missing = self.scopes_missing(&ctx, Listed::Tool(tool).scoped());
        if !missing.is_empty() {
            return self.insufficient_scope(ctx, r.id, missing);
        }
        let missing = missing_required(tool, arguments);
        let Some(retry) = self.raw_retry(ctx, r.id, TOOLS_CALL, params) else {
            return;
        };
        if let Some(arg) = missing {
            let message = ["Missing required argument: ", arg.as_str()].concat();
            let encoded = self.tool_error_bytes(r.id, &message);
            return self.send_encoded(ctx, r.id, encoded);
        }
        let arguments = arguments.map_or_else(OwnedJson::empty_object, OwnedJson::from_raw);
        let caps = DeclaredCapabilities::of(&meta.client_capabilities);
        let bound = Bound::Method {
            method: String::from(TOOLS_CALL),
            params: OwnedJson::from_raw(params),
        };
        self.ask(
            ctx,
            r.id,
            Owed::Tool,
            Some(meta),
            Some(bound),
            |handle, progress| {
                Event::CallTool(ToolEvent {
                    handle,
                    name,
                    arguments,
                    auth: ctx.auth,
                    capabilities: caps,
                    retry,
                    progress,
                })
            },
        );
    }

    /// Answers a [`ToolEvent`] with a `CallToolResult` object: `content` (an array of
    /// content blocks, required), optionally `structuredContent` (any JSON value),
    /// `isError` (a boolean) and `_meta` (an object). The machine writes `resultType:
    /// "complete"` first and adds `_meta.serverInfo` (keeping the other `_meta` keys). A
    /// tool result carries no cache hints.
    ///
    /// # Errors
    /// [`RespondError::UnknownHandle`], [`RespondError::WrongKind`] (not a tool call),
    /// [`RespondError::InvalidResult`] (not a `CallToolResult`); the request gets -32603 unless the error [is late](RespondError::is_late).
    pub fn respond_tool(&mut self, handle: Handle, result: OwnedJson) -> Result<(), RespondError> {
        let r = self.answer_tool(handle, result);
        self.settle(handle, r)
    }

    fn answer_tool(&mut self, handle: Handle, result: OwnedJson) -> Result<(), RespondError> {
        self.owed_tool(handle)?;
        check_result(result.as_raw()).ok_or(RespondError::InvalidResult)?;
        let p = self
            .pending
            .remove(handle)
            .ok_or(RespondError::UnknownHandle)?;
        let encoded = outbox::encode(&TypedResponse {
            id: p.id.as_ref(),
            result: HostResult {
                raw: result.as_raw(),
                cache: None,
                server_info: self.config.server_info.as_ref().map(AsView::view),
            },
        });
        self.deliver(p.stream, p.transport, p.id.as_ref(), encoded);
        Ok(())
    }

    /// Answers a [`ToolEvent`] whose tool failed: a `CallToolResult` with `isError: true`
    /// and `message` as its one text content (Tools › Error handling: errors of the tool
    /// itself are results the model can see; protocol errors go through [`Server::fail`]).
    ///
    /// # Errors
    /// [`RespondError::UnknownHandle`], [`RespondError::WrongKind`] (not a tool call).
    pub fn respond_tool_error(
        &mut self,
        handle: Handle,
        message: &str,
    ) -> Result<(), RespondError> {
        let r = self.answer_tool_error(handle, message);
        self.settle(handle, r)
    }

    fn answer_tool_error(&mut self, handle: Handle, message: &str) -> Result<(), RespondError> {
        self.owed_tool(handle)?;
        let p = self
            .pending
            .remove(handle)
            .ok_or(RespondError::UnknownHandle)?;
        let encoded = self.tool_error_bytes(p.id.as_ref(), message);
        self.deliver(p.stream, p.transport, p.id.as_ref(), encoded);
        Ok(())
    }

    fn owed_tool(&self, handle: Handle) -> Result<(), RespondError> {
        match self.pending.get(handle).map(|p| &p.owed) {
            None => Err(RespondError::UnknownHandle),
            Some(Owed::Tool) => Ok(()),
            Some(_) => Err(RespondError::WrongKind),
        }
    }

    pub(super) fn tool_error_bytes(
        &self,
        id: RequestId<'_>,
        message: &str,
    ) -> Result<Vec<u8>, EncodeError> {
        outbox::encode(&TypedResponse {
            id,
            result: ToolError {
                message,
                server_info: self.config.server_info.as_ref().map(AsView::view),
            },
        })
    }
}

/// The first top-level `required` property of the tool's `inputSchema` that `arguments`
/// lacks.
fn missing_required(tool: &OwnedTool, arguments: Option<RawJson<'_>>) -> Option<String> {
    let required = tool.input_schema()?.get("required")?.array()?;
    required
        .filter_map(|n| n.as_str())
        .map(|n| n.to_cow())
        .find(|n| arguments.and_then(|a| a.get(n)).is_none())
        .map(Cow::into_owned)
}

/// Whether `v` is a `CallToolResult` a host may give (`resultType` absent or `"complete"`).
fn check_result(v: RawJson<'_>) -> Option<()> {
    let mut content = false;
    for (k, m) in v.object()? {
        let key = k.to_cow();
        match &*key {
            "content" => {
                for block in m.array()? {
                    ContentBlock::from_json(block).ok()?;
                }
                content = true;
            }
            "isError" => {
                m.as_bool()?;
            }
            "resultType" => m.as_str()?.eq_str("complete").then_some(())?,
            "_meta" => {
                m.object()?;
            }
            _ => {}
        }
    }
    content.then_some(())
}

/// `{"resultType":"complete","content":[{"type":"text","text":message}],"isError":true}`.
struct ToolError<'a> {
    message: &'a str,
    server_info: Option<Implementation<'a>>,
}

impl Encode for ToolError<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.begin_object()?;
        w.field("resultType", "complete")?;
        w.key("content")?;
        w.begin_array()?;
        w.begin_object()?;
        w.field("type", "text")?;
        w.field("text", self.message)?;
        w.end_object()?;
        w.end_array()?;
        w.field("isError", &true)?;
        if let Some(info) = self.server_info {
            w.field("_meta", &ResultMeta::server_info(info))?;
        }
        w.end_object()
    }
}
