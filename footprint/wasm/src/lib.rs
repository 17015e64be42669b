//! The server machine in wasm32: the host appends a message byte by byte
//! ([`mcp_push_byte`]), then [`mcp_handle`] runs it through a server with one resource and
//! one template and returns the number of bytes the server wrote. Exported so the linker keeps
//! the whole machine.


use std::cell::RefCell;

use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents, OwnedResourceTemplate};
use mcp_context::server::{
    Ctx, Event, Output, ResourceEntry, Server, ServerConfig, StreamId, TemplateEntry,
};

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static SERVER: RefCell<Option<Server>> = const { RefCell::new(None) };
}

fn server() -> Option<Server> {
    let mut server = Server::new(ServerConfig::default()).ok()?;
    let status = "sensor://status";
    server
        .add_resource(ResourceEntry {
            resource: OwnedResource::new(status, "status"),
            contents: Some(vec![OwnedResourceContents::text(
                status,
                Some("text/plain"),
                "ok",
            )]),
            cache: None,
        })
        .ok()?;
    server
        .add_template(TemplateEntry {
            template: OwnedResourceTemplate::new("sensor://{room}/{kind}", "reading"),
            cache: None,
            completions: vec![],
        })
        .ok()?;
    Some(server)
}

/// Appends one byte to the pending message.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_push_byte(b: u8) {
    INPUT.with(|i| i.borrow_mut().push(b));
}

/// Handles the pending message at `now_ms`; returns the bytes written (0 on setup failure).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_handle(now_ms: u64) -> usize {
    let msg = INPUT.with(|i| std::mem::take(&mut *i.borrow_mut()));
    SERVER.with(|s| {
        let mut s = s.borrow_mut();
        if s.is_none() {
            *s = server();
        }
        let Some(server) = s.as_mut() else {
            return 0;
        };
        server.handle_message(&msg, now_ms, Ctx::stdio(StreamId(0)));
        let mut written = 0;
        while let Some(out) = server.poll_output() {
            match out {
                Output::Transmit(t) => written += t.bytes.len(),
                Output::Event(Event::ReadResource(e)) => {
                    let c = OwnedResourceContents::text(e.uri, Some("text/plain"), "21.5");
                    let _ = server.respond_read(e.handle, vec![c]);
                }
                Output::Event(_) => {}
            }
        }
        written
    })
}
