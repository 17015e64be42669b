//! Tools (docs/server-machine.md §Tools): the core's registry (`addTool`, `removeTool`,
//! `toolsListChanged`), `ServerEvent.callTool` answered with `respondTool` or
//! `respondToolError` (`isError: true`); `drain` (every output and the next deadline in one
//! call); the core's application-list cursor (`appCursor`, `parseAppCursor`).

use mcp_context::messages::owned::{FromJsonText, OwnedJson, OwnedTool};
use mcp_context::server::{AppCursor, Handle};

use crate::server::ServerMachine;
use crate::server_types::{RegisterError, RespondError, ServerOutput};

/// Every queued output and the next deadline (`ServerMachine.drain()`).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Drained {
    /// What `pollOutput` gives until `nil`, in order.
    pub outputs: Vec<ServerOutput>,
    /// `pollTimeout()`.
    pub deadline: Option<u64>,
}

/// A position in a list the application assembles from several sources.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct AppListPosition {
    /// The source the next page starts in (e.g. a template's `uriTemplate`).
    pub source: String,
    /// How many of its items come before the next page.
    pub offset: u64,
}

/// The core's cursor text for `position`.
#[uniffi::export]
pub fn app_cursor(position: AppListPosition) -> String {
    AppCursor {
        source: position.source,
        offset: position.offset,
    }
    .encode()
}

/// The position an `appCursor` text names; `nil` for any other text.
#[uniffi::export]
pub fn parse_app_cursor(text: String) -> Option<AppListPosition> {
    AppCursor::decode(&text).map(|c| AppListPosition {
        source: c.source,
        offset: c.offset,
    })
}

#[uniffi::export]
impl ServerMachine {
    /// Registers a tool: its `Tool` object as JSON text (`name`, `inputSchema` with
    /// `type: "object"`, `title`, `description`, `outputSchema`, `annotations`, `icons`),
    /// checked by the core. `tools` is then declared and `tools/list`/`tools/call` are the
    /// machine's. Throws `RegisterError.InvalidJson`, `.Duplicate`, or `.ToolsByMethod` when
    /// the host serves `tools/list` or `tools/call` itself (`addMethod`).
    pub fn add_tool(&self, tool_json: String) -> Result<(), RegisterError> {
        let tool =
            OwnedTool::from_json_text(&tool_json).map_err(|e| RegisterError::InvalidJson {
                description: e.to_string(),
            })?;
        Ok(self.lock().add_tool(tool)?)
    }

    /// Unregisters a tool; `false` if it was not registered.
    pub fn remove_tool(&self, name: String) -> bool {
        self.lock().remove_tool(&name)
    }

    /// `notifications/tools/list_changed` to the subscriptions that asked for it.
    pub fn tools_list_changed(&self) {
        self.lock().tools_list_changed();
    }

    /// Answers a `callTool` event with a `CallToolResult` (JSON text: `content` required,
    /// `structuredContent`, `isError`); the machine checks it and adds `resultType` and
    /// `_meta.serverInfo`.
    pub fn respond_tool(&self, handle: u64, result_json: String) -> Result<(), RespondError> {
        let result = OwnedJson::parse(result_json).map_err(|e| RespondError::InvalidJson {
            description: e.to_string(),
        })?;
        Ok(self.lock().respond_tool(Handle::from_raw(handle), result)?)
    }

    /// Answers a `callTool` event whose tool failed: `isError: true` with `message` as text.
    pub fn respond_tool_error(&self, handle: u64, message: String) -> Result<(), RespondError> {
        Ok(self
            .lock()
            .respond_tool_error(Handle::from_raw(handle), &message)?)
    }

    /// Every queued output at once, and the next deadline.
    pub fn drain(&self) -> Drained {
        let mut server = self.lock();
        let mut outs = Vec::new();
        server.drain(&mut outs);
        let outputs = outs
            .into_iter()
            .map(|o| crate::server_types::output(o, &server))
            .collect();
        Drained {
            outputs,
            deadline: server.poll_timeout(),
        }
    }
}
