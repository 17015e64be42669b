//! The objects of a request's round trip made by JS object literals (`shapes.js`): a
//! `readResource` event and a transmit each cost one call into JS instead of one
//! `napi_set_named_property` per key, which was most of a read's time. Same keys, order and
//! values as [`crate::adapt::polled`]'s generic objects; every other output goes through it.

use mcp_context::server::{BodyKind, StreamId, Transmit};
use mcp_context_node_adapter::server::{Raw as Out, ReadParts};
use mcp_context_node_adapter::value::header_pairs;
use napi::bindgen_prelude::{
    Array, BufferSlice, FnArgs, Function, FunctionRef, JsObjectValue, JsValue, Object, Unknown,
};
use napi::{Env, Result, Status};

/// A value handed to a maker as it is (the outbox, a made `Buffer`).
type Raw = napi::sys::napi_value;

use crate::adapt::{polled, render};
use crate::convert::{Int, u64_out};

// The bytes as a `Buffer` the engine owns (`napi_create_buffer_copy`): a copy of a few
// hundred bytes costs less than an external buffer's finalizer and its sweep.
// The first argument of each maker is the outbox the object is pushed to (a JS `push`
// costs less than `napi_set_element`).
type TransmitArgs = FnArgs<(Raw, Int, u32, bool, bool, Raw)>;
type ReadArgs = FnArgs<(
    Raw,
    Int,
    String,
    &'static str,
    Option<String>,
    Vec<String>,
    Int,
    bool,
    bool,
    bool,
    bool,
)>;

/// The environment's object makers (kept with its error classes, `errors.rs`).
pub(crate) struct Shapes {
    transmit: FunctionRef<TransmitArgs, Unknown<'static>>,
    read: FunctionRef<ReadArgs, Unknown<'static>>,
}

/// The core's header pairs of a body kind, as `[[name, value], …]`.
fn headers(env: &Env, kind: BodyKind) -> Result<Unknown<'_>> {
    let t = Transmit {
        stream: StreamId(0),
        bytes: Vec::new(),
        http_status: 200,
        kind,
        end_of_stream: false,
    };
    render(
        env,
        header_pairs(t.http_headers().iter().map(|(k, v)| (*k, *v))),
    )
}

/// Evaluates `shapes.js` for this environment.
pub(crate) fn load(env: &Env) -> Result<Shapes> {
    let make: Function<'_, FnArgs<(Unknown<'_>, Unknown<'_>)>, Array<'_>> =
        env.run_script(include_str!("shapes.js"))?;
    let made = make.call((headers(env, BodyKind::Json)?, headers(env, BodyKind::Sse)?).into())?;
    let missing = || napi::Error::new(Status::GenericFailure, "mcp-context: shapes.js");
    let transmit: Function<'_, TransmitArgs, Unknown<'static>> =
        made.get(0)?.ok_or_else(missing)?;
    let read: Function<'_, ReadArgs, Unknown<'static>> = made.get(1)?.ok_or_else(missing)?;
    Ok(Shapes {
        transmit: transmit.create_ref()?,
        read: read.create_ref()?,
    })
}

/// Renders the outputs of `ServerAdapter::drain_raw` (one batch: the makers are looked up
/// once).
pub(crate) struct Maker<'e> {
    env: &'e Env,
    transmit: Function<'e, TransmitArgs, Unknown<'static>>,
    read: Function<'e, ReadArgs, Unknown<'static>>,
}

impl<'e> Maker<'e> {
    /// The makers of `env`.
    pub(crate) fn new(env: &'e Env) -> Result<Self> {
        let s = crate::errors::shapes(env)?;
        Ok(Self {
            env,
            transmit: s.transmit.borrow_back(env)?,
            read: s.read.borrow_back(env)?,
        })
    }

    /// Appends one output to `outbox` (a JS array of `len` items) as its object.
    pub(crate) fn push(&self, outbox: &mut Object<'_>, len: u32, out: Out) -> Result<()> {
        let to = outbox.raw();
        match out {
            Out::Transmit(t) => self.transmit.call(
                (
                    to,
                    u64_out(t.stream.0),
                    u32::from(t.http_status),
                    t.kind == BodyKind::Sse,
                    t.end_of_stream,
                    BufferSlice::copy_from(self.env, &t.bytes)?.raw(),
                )
                    .into(),
            )?,
            Out::Read(r) => self.read(to, r)?,
            Out::Other(p) => {
                return outbox.set_element(len, polled(self.env, p, "bytes")?.to_unknown());
            }
        };
        Ok(())
    }

    fn read(&self, to: Raw, r: ReadParts) -> Result<Unknown<'static>> {
        let variables = r.variables.into_iter().flat_map(|(k, v)| [k, v]).collect();
        let [ef, eu, sampling, roots] = r.capabilities;
        self.read.call(
            (
                to,
                u64_out(r.handle),
                r.uri,
                r.target,
                r.template,
                variables,
                u64_out(r.auth),
                ef,
                eu,
                sampling,
                roots,
            )
                .into(),
        )
    }
}
