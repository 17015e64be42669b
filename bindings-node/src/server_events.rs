//! `ServerMachine`'s events as JS objects (`pollOutput()`): `readResource`, `getPrompt`,
//! `complete`, `request`, `listResources`, `cancelled`, `streamOverflow`, with the client's
//! declared capabilities and a retry's verified state. The handle of each event that needs
//! an answer is kept (the core's `Handle` cannot be rebuilt from its number) until it is
//! answered or cancelled.

use std::collections::HashMap;

use mcp_context::server::{
    CancelReason, CompletionTarget, DeclaredCapabilities, Event, Handle, ReadTarget, Retry, Server,
};
use napi::bindgen_prelude::{Buffer, Either, JsObjectValue, Null, Object};
use napi::{Env, Result};

use crate::convert::{self, request_id};

fn capabilities<'e>(env: &'e Env, c: DeclaredCapabilities) -> Result<Object<'e>> {
    let mut o = Object::new(env)?;
    o.set_named_property("elicitationForm", c.elicitation_form)?;
    o.set_named_property("elicitationUrl", c.elicitation_url)?;
    o.set_named_property("sampling", c.sampling)?;
    o.set_named_property("roots", c.roots)?;
    Ok(o)
}

fn retry<'e>(env: &'e Env, r: Option<&Retry>) -> Result<Either<Object<'e>, Null>> {
    let Some(r) = r else {
        return Ok(Either::B(Null));
    };
    let mut o = Object::new(env)?;
    match &r.state {
        Some(s) => o.set_named_property("state", Buffer::from(s.clone()))?,
        None => o.set_named_property("state", Null)?,
    }
    let mut responses = Object::new(env)?;
    for (k, v) in &r.input_responses {
        let v = convert::parse_json(env, v.as_raw().as_text())?;
        convert::set_own(env, &mut responses, k, v)?;
    }
    o.set_named_property("inputResponses", responses)?;
    Ok(Either::A(o))
}

/// Fills `o` with `event`; keeps the handles of the events to answer in `handles`, forgets
/// a cancelled one.
pub(crate) fn event_into(
    env: &Env,
    o: &mut Object<'_>,
    event: Event,
    handles: &mut HashMap<u64, Handle>,
    server: &Server,
) -> Result<()> {
    match event {
        Event::ReadResource(e) => {
            handles.insert(e.handle.get(), e.handle);
            o.set_named_property("type", "readResource")?;
            o.set_named_property("handle", convert::u64_out(e.handle.get()))?;
            o.set_named_property("uri", e.uri.as_str())?;
            match &e.target {
                ReadTarget::Template { id, variables } => {
                    o.set_named_property("target", "template")?;
                    o.set_named_property("template", server.template(*id))?;
                    o.set_named_property("variables", convert::pairs_object(env, variables)?)?;
                }
                ReadTarget::Resource => o.set_named_property("target", "resource")?,
                _ => o.set_named_property("target", "unlisted")?,
            }
            o.set_named_property("auth", convert::u64_out(e.auth))?;
            o.set_named_property("capabilities", capabilities(env, e.capabilities)?)?;
            o.set_named_property("retry", retry(env, e.retry.as_ref())?)?;
        }
        Event::GetPrompt(e) => {
            handles.insert(e.handle.get(), e.handle);
            o.set_named_property("type", "getPrompt")?;
            o.set_named_property("handle", convert::u64_out(e.handle.get()))?;
            o.set_named_property("name", e.name.as_str())?;
            o.set_named_property("arguments", convert::pairs_object(env, &e.arguments)?)?;
            o.set_named_property("auth", convert::u64_out(e.auth))?;
            o.set_named_property("capabilities", capabilities(env, e.capabilities)?)?;
            o.set_named_property("retry", retry(env, e.retry.as_ref())?)?;
        }
        Event::Complete(e) => {
            handles.insert(e.handle.get(), e.handle);
            o.set_named_property("type", "complete")?;
            o.set_named_property("handle", convert::u64_out(e.handle.get()))?;
            let mut r = Object::new(env)?;
            match &e.target {
                CompletionTarget::Prompt(name) => {
                    r.set_named_property("type", "ref/prompt")?;
                    r.set_named_property("name", name.as_str())?;
                }
                CompletionTarget::Template(id) => {
                    r.set_named_property("type", "ref/resource")?;
                    r.set_named_property("uri", server.template(*id))?;
                }
            }
            o.set_named_property("ref", r)?;
            o.set_named_property("argument", e.argument.as_str())?;
            o.set_named_property("value", e.value.as_str())?;
            o.set_named_property("context", convert::pairs_object(env, &e.context)?)?;
            o.set_named_property("auth", convert::u64_out(e.auth))?;
        }
        Event::Request(e) => {
            handles.insert(e.handle.get(), e.handle);
            o.set_named_property("type", "request")?;
            o.set_named_property("handle", convert::u64_out(e.handle.get()))?;
            o.set_named_property("method", e.method.as_str())?;
            o.set_named_property(
                "params",
                convert::parse_json(env, e.params.as_raw().as_text())?,
            )?;
            o.set_named_property("progress", e.progress)?;
            o.set_named_property("auth", convert::u64_out(e.auth))?;
            o.set_named_property("capabilities", capabilities(env, e.capabilities)?)?;
            o.set_named_property("retry", retry(env, e.retry.as_ref())?)?;
        }
        Event::ListResources(e) => {
            handles.insert(e.handle.get(), e.handle);
            o.set_named_property("type", "listResources")?;
            o.set_named_property("handle", convert::u64_out(e.handle.get()))?;
            o.set_named_property("cursor", e.cursor.as_deref())?;
            o.set_named_property("progress", e.progress)?;
            o.set_named_property("auth", convert::u64_out(e.auth))?;
        }
        Event::Cancelled { handle, reason } => {
            handles.remove(&handle.get());
            o.set_named_property("type", "cancelled")?;
            o.set_named_property("handle", convert::u64_out(handle.get()))?;
            o.set_named_property(
                "reason",
                match reason {
                    CancelReason::Client => "client",
                    CancelReason::StreamClosed => "streamClosed",
                    _ => "timedOut",
                },
            )?;
        }
        Event::StreamOverflow {
            stream,
            subscription,
        } => {
            o.set_named_property("type", "streamOverflow")?;
            o.set_named_property("stream", convert::u64_out(stream.0))?;
            o.set_named_property("subscription", request_id(env, &subscription)?)?;
        }
        _ => o.set_named_property("type", "unknown")?,
    }
    Ok(())
}
