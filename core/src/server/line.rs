//! The machine's answer to a stdio line over the bound (docs/rules.md §15.2 item 2).

use alloc::format;

use super::Server;
use super::io::Ctx;
use crate::error_code::ErrorCode;
use crate::jsonrpc::ErrorObject;

impl Server {
    /// A stdio line longer than [`ServerConfig::max_line`](super::ServerConfig::max_line)
    /// was read; `head` is its start ([`Line::TooLong`](crate::stdio::Line)). Queues -32600
    /// "Message too large" on `ctx.stream`, like any other output, with the request's `id`
    /// when it can be read from `head` (otherwise `id: null`, JSON-RPC 2.0 §5), so the client
    /// can fail that one request and go on. Nothing else changes: the next line is served.
    pub fn handle_line_too_long(&mut self, head: &[u8], now_ms: u64, ctx: Ctx) {
        self.now = self.now.max(now_ms);
        self.observe_refusal(crate::observe::Limit::Line, &ctx);
        let id = crate::stdio::leading_id(head);
        let msg = format!(
            "Message too large: a line over {} bytes",
            self.config.max_line
        );
        let err = ErrorObject::new(ErrorCode::INVALID_REQUEST, &msg);
        self.send_error(ctx.stream, ctx.transport, id, &err, 400);
    }
}
