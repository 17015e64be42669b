//! The Rust runner under load: `mcp-context-host` on axum (`Host::serve_http`), one
//! resource `bench://hot`, and `POST /touch` (outside MCP) that reports it changed, so the
//! load client can time one update's fan-out. The listen cap comes from the config:
//! `--max-listens N` (the core's default is 10,000).
//!
//! `GET /heap` answers the bytes and blocks the process holds on the heap (a counting
//! allocator around the system one): the load client reads it next to the resident memory,
//! to tell the heap from the rest (stacks, allocator slack, pages not given back).
//!
//! Prints `listening <addr>` once bound.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static BYTES: AtomicIsize = AtomicIsize::new(0);
static BLOCKS: AtomicIsize = AtomicIsize::new(0);

#[allow(unsafe_code)]
// SAFETY: every call is forwarded to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        BYTES.fetch_add(layout.size() as isize, Ordering::Relaxed);
        BLOCKS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        BYTES.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        BLOCKS.fetch_sub(1, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
        BYTES.fetch_add(new as isize - layout.size() as isize, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

use std::net::SocketAddr;

use axum::routing::{get, post};
use axum::serve::ListenerExt;
use mcp_context::messages::owned::{OwnedResource, OwnedResourceContents};
use mcp_context_host::{App, Context, ReadRequest};

fn arg(name: &str) -> Option<String> {
    let mut args = std::env::args();
    while let Some(a) = args.next() {
        if a == name {
            return args.next();
        }
    }
    None
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let max_listens: u64 = arg("--max-listens")
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000);
    let port: u16 = arg("--port").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut app = App::named("listens-bench", "1.0.0");
    app.config_mut()
        .set_limit("max_listens", max_listens)
        .expect("a known limit");
    app.resource(
        OwnedResource::new("bench://hot", "hot"),
        |req: ReadRequest, _cx: Context| async move {
            Ok(OwnedResourceContents::text(
                &req.uri,
                None,
                "hot".to_owned(),
            ))
        },
    );
    let host = app.build().expect("a valid app");
    let notifier = host.notifier();
    let router = host
        .router()
        .route(
            "/touch",
            post(move || async move {
                notifier.resource_updated("bench://hot");
                "ok"
            }),
        )
        .route(
            "/heap",
            get(|| async {
                format!(
                    "{} {}",
                    BYTES.load(Ordering::Relaxed),
                    BLOCKS.load(Ordering::Relaxed)
                )
            }),
        );
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!("listening {}", listener.local_addr()?);
    // As `Host::serve_http` does: small answers go out at once.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}
