//! Footprint image 2: the server machine on a fixed 32 KiB heap (embedded-alloc), with one
//! static resource and one template, through `resources/read` requests: one answered from
//! stored contents, one through `Event::ReadResource`.
#![no_std]
#![no_main]

extern crate alloc;

use alloc::vec;
use core::hint::black_box;
use core::mem::MaybeUninit;

use cortex_m_rt::entry;
use embedded_alloc::LlffHeap as Heap;
use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents, OwnedResourceTemplate};
use mcp_context::server::{
    Ctx, Event, Output, ResourceEntry, Server, ServerConfig, StreamId, TemplateEntry,
};
use mcp_context_footprint as _;

#[global_allocator]
static HEAP: Heap = Heap::empty();

const HEAP_SIZE: usize = 32 * 1024;

const READ_STORED: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"sensor://status"}}"#;
const READ_TEMPLATED: &[u8] = br#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"sensor://kitchen/temperature"}}"#;

fn serve() -> Option<usize> {
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
    let ctx = Ctx::stdio(StreamId(0));
    let mut written = 0;
    for (now, msg) in [READ_STORED, READ_TEMPLATED].into_iter().enumerate() {
        server.handle_message(black_box(msg), now as u64, ctx);
        while let Some(out) = server.poll_output() {
            match out {
                Output::Transmit(t) => written += black_box(t.bytes.len()),
                Output::Event(Event::ReadResource(e)) => {
                    let c = OwnedResourceContents::text(e.uri, Some("text/plain"), "21.5");
                    server.respond_read(e.handle, vec![c]).ok()?;
                }
                Output::Event(_) => {}
            }
        }
    }
    Some(written)
}

#[entry]
fn main() -> ! {
    // `#[entry]` turns this into a `&'static mut` handed out once.
    static mut ARENA: [MaybeUninit<u8>; HEAP_SIZE] = [MaybeUninit::uninit(); HEAP_SIZE];
    // SAFETY: called once, before any allocation, with memory used for nothing else.
    unsafe { HEAP.init(ARENA.as_mut_ptr() as usize, HEAP_SIZE) }
    black_box(serve());
    loop {
        cortex_m::asm::wfi();
    }
}
