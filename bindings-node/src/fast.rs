//! The fast paths of `UriTemplate` and `Router`: plain numbers and one shared `Buffer` cross
//! the boundary instead of JS objects.
//!
//! A napi-rs class method pays for its borrow bookkeeping (a scope, a class identity check, a
//! global borrow table) on every call, more than expanding a template costs. So `template.js`
//! wraps the two classes: `expand`, `match` and `route` call the closures made here with one
//! argument, the shared buffer, whose header holds the template's or router's handle (its
//! slot in a per-thread registry) and a count. Every rule stays in the core:
//!
//! * `expand(buf.buffer)` (the buffer's `ArrayBuffer`, cheaper to read): after the header (handle, `n`), `n` u32 lengths (native endian,
//!   `u32::MAX` for an undefined variable), one per variable in `variables` order, then the
//!   UTF-8 values back to back. The result is the expansion (a string).
//! * `match(buf)` / `route(buf)`: after the header (handle, `len`), the URI's `len` UTF-8
//!   bytes; the records of the match are written from the next multiple of 4 (see
//!   [`write_records`]); the result is the decoded text the records point into, or
//!   `undefined` when every value is a slice of the URI.
//! * `routeNames(handle, id)`: the variable names of a registered template, which the records
//!   index.

use std::cell::RefCell;

use mcp_context::template::{
    Captures, MatchError, OwnedPattern, OwnedTemplate, PatternError, Router as Core,
};
use napi::bindgen_prelude::{
    ArrayBuffer, BufferSlice, FnArgs, Function, JsObjectValue, Object, Unknown,
};
use napi::{Env, Error, JsString, Result, Status};

use crate::router::{self, MAX_VARS};
use mcp_context_node_adapter::records::{Full, Positional, Words, word, write_records};

/// A parsed template, in the registry.
pub(crate) struct TemplateEntry {
    pub(crate) inner: OwnedTemplate,
    /// The template compiled for matching (or why it cannot be matched).
    pub(crate) pattern: std::result::Result<OwnedPattern, PatternError>,
    /// The variable names, each once, in template order.
    pub(crate) names: Vec<String>,
}

/// A router and the variable names of each of its templates, by id.
pub(crate) struct RouterEntry {
    pub(crate) core: Core<()>,
    pub(crate) names: Vec<Vec<String>>,
}

/// Slots indexed by handle; freed slots are reused.
struct Slab<T> {
    slots: Vec<Option<T>>,
    free: Vec<u32>,
}

impl<T> Slab<T> {
    const fn new() -> Self {
        Self {
            slots: Vec::new(),
            free: Vec::new(),
        }
    }

    fn insert(&mut self, value: T) -> u32 {
        if let Some(h) = self.free.pop()
            && let Some(slot) = self.slots.get_mut(h as usize)
        {
            *slot = Some(value);
            return h;
        }
        self.slots.push(Some(value));
        u32::try_from(self.slots.len() - 1).unwrap_or(u32::MAX)
    }

    fn remove(&mut self, h: u32) {
        if let Some(slot) = self.slots.get_mut(h as usize)
            && slot.take().is_some()
        {
            self.free.push(h);
        }
    }

    fn get(&self, h: u32) -> Option<&T> {
        self.slots.get(h as usize).and_then(Option::as_ref)
    }

    fn get_mut(&mut self, h: u32) -> Option<&mut T> {
        self.slots.get_mut(h as usize).and_then(Option::as_mut)
    }
}

/// Reused output buffers: no allocation on the hot paths once warm.
#[derive(Default)]
struct Scratch {
    text: String,
    decoded: Vec<u8>,
}

/// A slab behind a `RefCell`, and the slots whose owner was collected while the slab was
/// borrowed (a finaliser can run while an error object is being built): freed on the next
/// insertion.
struct Registry<T> {
    slab: RefCell<Slab<T>>,
    pending: RefCell<Vec<u32>>,
}

impl<T> Registry<T> {
    const fn new() -> Self {
        Self {
            slab: RefCell::new(Slab::new()),
            pending: RefCell::new(Vec::new()),
        }
    }

    fn insert(&self, value: T) -> u32 {
        let mut slab = self.slab.borrow_mut();
        for h in self.pending.borrow_mut().drain(..) {
            slab.remove(h);
        }
        slab.insert(value)
    }

    fn remove(&self, h: u32) {
        match self.slab.try_borrow_mut() {
            Ok(mut slab) => slab.remove(h),
            Err(_) => self.pending.borrow_mut().push(h),
        }
    }

    fn with<R>(&self, h: u32, f: impl FnOnce(&T) -> Result<R>) -> Result<R> {
        let slab = self.slab.try_borrow().map_err(|_| busy())?;
        f(slab.get(h).ok_or_else(stale)?)
    }

    fn with_mut<R>(&self, h: u32, f: impl FnOnce(&mut T) -> Result<R>) -> Result<R> {
        let mut slab = self.slab.try_borrow_mut().map_err(|_| busy())?;
        f(slab.get_mut(h).ok_or_else(stale)?)
    }
}

thread_local! {
    // One registry per thread: a Node-API environment (the main thread, each worker) runs
    // on one thread, and nothing here is reachable from another.
    static TEMPLATES: Registry<TemplateEntry> = const { Registry::new() };
    static ROUTERS: Registry<RouterEntry> = const { Registry::new() };
    static SCRATCH: RefCell<Scratch> = const {
        RefCell::new(Scratch {
            text: String::new(),
            decoded: Vec::new(),
        })
    };
}

fn stale() -> Error {
    Error::new(Status::InvalidArg, "mcp-context: unknown handle")
}

fn busy() -> Error {
    Error::new(
        Status::GenericFailure,
        "mcp-context: re-entered a template or router call",
    )
}

/// Registers a template; its handle.
pub(crate) fn add_template(entry: TemplateEntry) -> u32 {
    TEMPLATES.with(|t| t.insert(entry))
}

/// Frees a template's slot (its object was collected).
pub(crate) fn drop_template(h: u32) {
    // `try_with`: at thread exit the registry may be gone already.
    let _ = TEMPLATES.try_with(|t| t.remove(h));
}

/// Runs `f` on the template behind `h`.
pub(crate) fn with_template<R>(h: u32, f: impl FnOnce(&TemplateEntry) -> Result<R>) -> Result<R> {
    TEMPLATES.with(|t| t.with(h, f))
}

/// Registers an empty router; its handle.
pub(crate) fn add_router() -> u32 {
    ROUTERS.with(|r| {
        r.insert(RouterEntry {
            core: Core::new(),
            names: Vec::new(),
        })
    })
}

/// Frees a router's slot.
pub(crate) fn drop_router(h: u32) {
    let _ = ROUTERS.try_with(|r| r.remove(h));
}

/// Runs `f` on the router behind `h`.
pub(crate) fn with_router<R>(h: u32, f: impl FnOnce(&RouterEntry) -> Result<R>) -> Result<R> {
    ROUTERS.with(|r| r.with(h, f))
}

/// Runs `f` on the router behind `h`, mutably.
pub(crate) fn with_router_mut<R>(
    h: u32,
    f: impl FnOnce(&mut RouterEntry) -> Result<R>,
) -> Result<R> {
    ROUTERS.with(|r| r.with_mut(h, f))
}

fn bad_input(what: &str) -> Error {
    Error::new(Status::InvalidArg, format!("mcp-context: {what}"))
}

/// Words written in native byte order into a byte buffer, from `at` on.
struct SliceWords<'a> {
    out: &'a mut [u8],
    at: usize,
}

impl Words for SliceWords<'_> {
    fn put(&mut self, w: u32) -> std::result::Result<(), Full> {
        let dst = self.out.get_mut(self.at..self.at + 4).ok_or(Full)?;
        dst.copy_from_slice(&w.to_ne_bytes());
        self.at += 4;
        Ok(())
    }
    fn mark(&self) -> usize {
        self.at
    }
    fn patch(&mut self, mark: usize, w: u32) {
        if let Some(dst) = self.out.get_mut(mark..mark + 4) {
            dst.copy_from_slice(&w.to_ne_bytes());
        }
    }
}

#[allow(clippy::needless_pass_by_value)] // the `map_err` shape
fn full(_: Full) -> Error {
    bad_input("buffer too small for the match")
}

/// The buffer's header: the handle and a count (values for `expand`, URI bytes for `match`
/// and `route`) as two u32s; what follows is the call's input.
const HEADER: usize = 8;

fn header(buf: &[u8]) -> Result<(u32, u32, &[u8])> {
    match (word(buf, 0), word(buf, 4), buf.get(HEADER..)) {
        (Some(h), Some(n), Some(rest)) => Ok((h, n, rest)),
        _ => Err(bad_input("buffer shorter than its header")),
    }
}

/// `expand(buf)`, on the buffer after its header.
///
/// The expansion is ASCII (RFC 6570 pct-encodes everything else), so its string is made by
/// `napi_create_string_latin1` straight from the scratch text: no copy into a `String` and
/// no UTF-8 decoding, about half the cost of returning a `String`. `env` is the
/// environment's own, kept for its lifetime (see [`register_fast_classes`]).
fn expand(env: &'static Env, h: u32, buf: &[u8], n: u32) -> Result<JsString<'static>> {
    let n = n as usize;
    if n > MAX_POSITIONAL {
        return Err(bad_input("too many variables for the fast path"));
    }
    with_template(h, |t| {
        SCRATCH.with(|s| {
            let text = &mut s.borrow_mut().text;
            text.clear();
            let vars = Positional {
                names: &t.names,
                buf,
                n,
            };
            t.inner
                .as_ref()
                .expand(&vars, text)
                .map_err(|e| crate::errors::expand_error(env, t.inner.source(), e))?;
            if text.is_ascii() {
                env.create_string_latin1(text.as_bytes())
            } else {
                env.create_string(text.as_str())
            }
        })
    })
}

/// Templates with more variables take the object path (`template.js` checks first).
pub(crate) const MAX_POSITIONAL: usize = 32;

/// The URI in the first `len` bytes of `buf`.
fn uri_of(buf: &[u8], len: u32) -> Result<&str> {
    let bytes = buf
        .get(..len as usize)
        .ok_or_else(|| bad_input("URI past the buffer"))?;
    std::str::from_utf8(bytes).map_err(|_| bad_input("URI is not UTF-8"))
}

/// The decoded text for JS, or `None` when no value needed it.
fn decoded_text(decoded: &[u8]) -> Option<String> {
    (!decoded.is_empty()).then(|| String::from_utf8_lossy(decoded).into_owned())
}

/// `match(handle, buf, len)`: records start with `u32::MAX` for no match, else the captures.
fn match_uri(env: &Env, h: u32, buf: &mut [u8], len: u32) -> Result<Option<String>> {
    let (input, output) = buf.split_at_mut(((len as usize + 3) & !3).min(buf.len()));
    let uri = uri_of(input, len)?;
    let mut output = SliceWords { out: output, at: 0 };
    with_template(h, |t| {
        let pattern = match &t.pattern {
            Ok(p) => p,
            Err(e) => return Err(router::pattern_error(env, t.inner.source(), *e)),
        };
        let mut caps = Captures::<MAX_VARS>::new();
        match pattern.matches(uri, &mut caps) {
            Ok(()) => SCRATCH.with(|s| {
                let decoded = &mut s.borrow_mut().decoded;
                decoded.clear();
                write_records(&mut output, uri, &t.names, &caps, decoded).map_err(full)?;
                Ok(decoded_text(decoded))
            }),
            Err(MatchError::NoMatch) => output.put(u32::MAX).map(|()| None).map_err(full),
            Err(e) => Err(router::match_error(env, e)),
        }
    })
}

/// `route(handle, buf, len)`: records start with the route's id (`u32::MAX`: no match).
fn route(env: &Env, h: u32, buf: &mut [u8], len: u32) -> Result<Option<String>> {
    let (input, output) = buf.split_at_mut(((len as usize + 3) & !3).min(buf.len()));
    let uri = uri_of(input, len)?;
    let mut output = SliceWords { out: output, at: 0 };
    with_router(h, |r| {
        let mut caps = Captures::<MAX_VARS>::new();
        match r.core.route(uri, &mut caps) {
            Ok(hit) => SCRATCH.with(|s| {
                let decoded = &mut s.borrow_mut().decoded;
                decoded.clear();
                let names = r.names.get(hit.id.index()).map_or(&[][..], Vec::as_slice);
                let id = u32::try_from(hit.id.index()).unwrap_or(0);
                output.put(id).map_err(full)?;
                write_records(&mut output, uri, names, &caps, decoded).map_err(full)?;
                Ok(decoded_text(decoded))
            }),
            Err(MatchError::NoMatch) => output.put(u32::MAX).map(|()| None).map_err(full),
            Err(e) => Err(router::match_error(env, e)),
        }
    })
}

/// Evaluates `template.js` with the fast closures and the native classes, and exports the
/// classes it returns in place of the native ones.
/// Called from `errors.rs`'s module-exports hook (napi-rs keeps one), after every `#[napi]`
/// export is set.
pub(crate) fn register_fast_classes(exports: &mut Object<'_>, env: &Env) -> Result<()> {
    let factory: Function<'_, FnArgs<(Object<'_>, Unknown<'_>, Unknown<'_>)>, Object<'_>> =
        env.run_script(include_str!("template.js"))?;
    let mut natives = Object::new(env)?;
    // A closure returns a value of one type for every call, so a string made in the call
    // needs an `Env` that outlives it: this environment's, leaked (one word per environment,
    // as the closure itself lives as long as the environment).
    let env_for_strings: &'static Env = Box::leak(Box::new(*env));
    natives.set_named_property(
        "expand",
        env.create_function_from_closure::<(), _, _>("expand", move |ctx| {
            // The buffer's `ArrayBuffer`: its data costs less to reach than a `Buffer`'s.
            let buf: ArrayBuffer<'_> = ctx.get(0)?;
            let (h, n, rest) = header(&buf)?;
            expand(env_for_strings, h, rest, n)
        })?,
    )?;
    natives.set_named_property(
        "match",
        env.create_function_from_closure::<(), _, _>("match", |ctx| {
            let mut buf: BufferSlice<'_> = ctx.get(0)?;
            let (h, len, _) = header(&buf)?;
            match_uri(ctx.env, h, buf.get_mut(HEADER..).unwrap_or_default(), len)
        })?,
    )?;
    natives.set_named_property(
        "route",
        env.create_function_from_closure::<(), _, _>("route", |ctx| {
            let mut buf: BufferSlice<'_> = ctx.get(0)?;
            let (h, len, _) = header(&buf)?;
            route(ctx.env, h, buf.get_mut(HEADER..).unwrap_or_default(), len)
        })?,
    )?;
    natives.set_named_property(
        "routeNames",
        env.create_function_from_closure::<(), _, _>("routeNames", |ctx| {
            let h: u32 = ctx.get(0)?;
            let id: u32 = ctx.get(1)?;
            with_router(h, |r| {
                Ok(r.names.get(id as usize).cloned().unwrap_or_default())
            })
        })?,
    )?;
    let template: Unknown<'_> = exports.get_named_property("UriTemplate")?;
    let router: Unknown<'_> = exports.get_named_property("Router")?;
    let classes = factory.call((natives, template, router).into())?;
    let template: Unknown<'_> = classes.get_named_property("UriTemplate")?;
    let router: Unknown<'_> = classes.get_named_property("Router")?;
    exports.set_named_property("UriTemplate", template)?;
    exports.set_named_property("Router", router)?;
    Ok(())
}
