//! The objects of a request's round trip made by JS object literals (`shapes.js`): a
//! `readResource` event and a transmit each cost one call into JS instead of one
//! `napi_set_named_property` per key, which was most of a read's time. Same keys, order and
//! values as [`crate::adapt::polled`]'s generic objects; every other output goes through it.

use mcp_context::server::{BodyKind, StreamId, Transmit};
use mcp_context_node_adapter::server::{Raw, ReadParts};
use mcp_context_node_adapter::value::header_pairs;
use napi::bindgen_prelude::{Array, Buffer, FnArgs, Function, FunctionRef, JsValue, Unknown};
use napi::{Env, Result, Status};

use crate::adapt::{polled, render};
use crate::convert::{Int, u64_out};

type TransmitArgs = FnArgs<(Int, u32, bool, bool, Buffer)>;
type ReadArgs = FnArgs<(
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

    /// One output as its object.
    pub(crate) fn make(&self, out: Raw) -> Result<Unknown<'e>> {
        Ok(match out {
            Raw::Transmit(t) => self.transmit.call(
                (
                    u64_out(t.stream.0),
                    u32::from(t.http_status),
                    t.kind == BodyKind::Sse,
                    t.end_of_stream,
                    Buffer::from(t.bytes),
                )
                    .into(),
            )?,
            Raw::Read(r) => self.read(r)?,
            Raw::Other(p) => polled(self.env, p, "bytes")?.to_unknown(),
        })
    }

    fn read(&self, r: ReadParts) -> Result<Unknown<'static>> {
        let variables = r.variables.into_iter().flat_map(|(k, v)| [k, v]).collect();
        let [ef, eu, sampling, roots] = r.capabilities;
        self.read.call(
            (
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
