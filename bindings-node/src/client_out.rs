//! `ClientMachine`'s outputs as JS values: events (`pollOutput()`), the `Error` objects they
//! carry (an `McpError` with the JSON-RPC code and `data` for a server's error, an
//! `McpContextError` with a `code` string otherwise), replies, listings and sessions.

use mcp_context::client::{
    CallError, CallId, ConnectError, EndReason, Era, Event, Listing, Notice, Reply, ServerError,
};
use mcp_context::messages::owned::OwnedSubscriptionFilter;
use napi::bindgen_prelude::{JsObjectValue, JsValue, Object, Unknown};
use napi::{Env, Result};

use crate::convert::{self, Int};
use crate::errors;

fn connect_code(e: &ConnectError) -> String {
    crate::ident::err_code(e.ident())
}

/// A server's error as an `McpError` (not thrown: carried by a `failed` event).
fn server_error<'e>(env: &'e Env, e: &ServerError) -> Result<Unknown<'e>> {
    let mut data = Object::new(env)?;
    let has_data = match e {
        ServerError::ResourceNotFound { uri: Some(uri), .. } => {
            data.set_named_property("uri", uri.as_str())?;
            true
        }
        ServerError::UnsupportedProtocolVersion {
            supported,
            requested,
        } => {
            data.set_named_property("supported", supported.clone())?;
            data.set_named_property("requested", requested.as_str())?;
            true
        }
        ServerError::MissingRequiredClientCapability { required } => {
            data.set_named_property(
                "requiredCapabilities",
                convert::parse_json(env, required.as_raw().as_text())?,
            )?;
            true
        }
        ServerError::Other { data: Some(d), .. } => {
            let value = convert::parse_json(env, d.as_raw().as_text())?;
            let err = errors::mcp_error(env, e.to_string(), e.code().0, None, 200);
            return with_data(env, err, Some(value));
        }
        _ => false,
    };
    let err = errors::mcp_error(
        env,
        e.to_string(),
        e.code().0,
        None,
        mcp_context::http::status_for(e.code()),
    );
    with_data(env, err, has_data.then(|| data.to_unknown()))
}

fn with_data<'e>(env: &'e Env, err: napi::Error, data: Option<Unknown<'e>>) -> Result<Unknown<'e>> {
    let value = error_value(env, err)?;
    if let Some(d) = data {
        value.coerce_to_object()?.set_named_property("data", d)?;
    }
    Ok(value)
}

/// The JS error object inside a `napi::Error` built by `errors` (or a plain `Error`).
fn error_value<'e>(env: &'e Env, err: napi::Error) -> Result<Unknown<'e>> {
    let thrown = napi::JsError::from(err).into_unknown(*env);
    Ok(thrown)
}

fn call_error<'e>(env: &'e Env, e: &CallError) -> Result<Unknown<'e>> {
    if let CallError::Server(s) = e {
        return server_error(env, s);
    }
    let code = match e {
        CallError::NotConnected(c) => connect_code(c),
        other => crate::ident::err_code(other.ident()),
    };
    error_value(
        env,
        errors::context_error(env, e.to_string(), code.to_string()),
    )
}

fn filter_object<'e>(env: &'e Env, f: &OwnedSubscriptionFilter) -> Result<Object<'e>> {
    let mut o = Object::new(env)?;
    if let Some(b) = f.tools_list_changed {
        o.set_named_property("toolsListChanged", b)?;
    }
    if let Some(b) = f.prompts_list_changed {
        o.set_named_property("promptsListChanged", b)?;
    }
    if let Some(b) = f.resources_list_changed {
        o.set_named_property("resourcesListChanged", b)?;
    }
    if let Some(uris) = &f.resource_subscriptions {
        o.set_named_property("resourceSubscriptions", uris.clone())?;
    }
    Ok(o)
}

pub(crate) fn reply_into<K>(env: &Env, o: &mut Object<'_>, reply: &Reply<K>) -> Result<()> {
    o.set_named_property("result", convert::parse_json(env, reply.json())?)?;
    o.set_named_property("fromCache", reply.from_cache())
}

fn listing_into<K>(env: &Env, o: &mut Object<'_>, listing: &Listing<K>) -> Result<()> {
    let mut pages = Vec::with_capacity(listing.pages.len());
    for page in &listing.pages {
        let mut p = Object::new(env)?;
        reply_into(env, &mut p, page)?;
        pages.push(p);
    }
    o.set_named_property("pages", pages)?;
    o.set_named_property("nextCursor", listing.next_cursor.as_deref())?;
    o.set_named_property("truncated", listing.truncated)
}

pub(crate) fn call_id(c: CallId) -> Int {
    convert::u64_out(c.0)
}

pub(crate) fn session_object<'e>(
    env: &'e Env,
    s: &mcp_context::client::Session,
) -> Result<Object<'e>> {
    let mut o = Object::new(env)?;
    o.set_named_property(
        "era",
        match s.era {
            Era::Modern => "modern",
            Era::Legacy => "legacy",
        },
    )?;
    o.set_named_property("version", s.version.as_str())?;
    let f = s.features;
    let mut fo = Object::new(env)?;
    fo.set_named_property("resources", f.resources)?;
    fo.set_named_property("resourcesSubscribe", f.resources_subscribe)?;
    fo.set_named_property("resourcesListChanged", f.resources_list_changed)?;
    fo.set_named_property("prompts", f.prompts)?;
    fo.set_named_property("promptsListChanged", f.prompts_list_changed)?;
    fo.set_named_property("toolsListChanged", f.tools_list_changed)?;
    fo.set_named_property("completions", f.completions)?;
    o.set_named_property("features", fo)?;
    Ok(o)
}

pub(crate) fn event_into(env: &Env, o: &mut Object<'_>, e: &Event) -> Result<()> {
    match e {
        Event::Connected(s) => {
            o.set_named_property("type", "connected")?;
            o.set_named_property("session", session_object(env, s)?)?;
            o.set_named_property("handshake", convert::parse_json(env, s.handshake.json())?)?;
        }
        Event::ConnectFailed(c) => {
            o.set_named_property("type", "connectFailed")?;
            o.set_named_property(
                "error",
                error_value(
                    env,
                    errors::context_error(env, c.to_string(), connect_code(c).to_string()),
                )?,
            )?;
        }
        Event::Discovered { call, reply } => {
            o.set_named_property("type", "discovered")?;
            o.set_named_property("call", call_id(*call))?;
            reply_into(env, o, reply)?;
        }
        Event::ResourcesListed { call, listing } => {
            o.set_named_property("type", "resourcesListed")?;
            o.set_named_property("call", call_id(*call))?;
            listing_into(env, o, listing)?;
        }
        Event::TemplatesListed { call, listing } => {
            o.set_named_property("type", "templatesListed")?;
            o.set_named_property("call", call_id(*call))?;
            listing_into(env, o, listing)?;
        }
        Event::PromptsListed { call, listing } => {
            o.set_named_property("type", "promptsListed")?;
            o.set_named_property("call", call_id(*call))?;
            listing_into(env, o, listing)?;
        }
        Event::ResourceRead { call, reply } => {
            o.set_named_property("type", "resourceRead")?;
            o.set_named_property("call", call_id(*call))?;
            reply_into(env, o, reply)?;
        }
        Event::PromptFetched { call, reply } => {
            o.set_named_property("type", "promptFetched")?;
            o.set_named_property("call", call_id(*call))?;
            reply_into(env, o, reply)?;
        }
        Event::Completed { call, reply } => {
            o.set_named_property("type", "completed")?;
            o.set_named_property("call", call_id(*call))?;
            reply_into(env, o, reply)?;
        }
        Event::InputRequired {
            call,
            round,
            requests,
        } => {
            o.set_named_property("type", "inputRequired")?;
            o.set_named_property("call", call_id(*call))?;
            o.set_named_property("round", u32::from(*round))?;
            let mut r = Object::new(env)?;
            for (key, req) in requests {
                let mut one = Object::new(env)?;
                one.set_named_property("method", req.method.as_str())?;
                if let Some(p) = &req.params {
                    one.set_named_property(
                        "params",
                        convert::parse_json(env, p.as_raw().as_text())?,
                    )?;
                }
                convert::set_own(env, &mut r, key, one)?;
            }
            o.set_named_property("requests", r)?;
        }
        Event::Failed { call, error } => {
            o.set_named_property("type", "failed")?;
            o.set_named_property("call", call_id(*call))?;
            o.set_named_property("error", call_error(env, error)?)?;
        }
        Event::Acknowledged {
            call,
            honoured,
            refused,
        } => {
            o.set_named_property("type", "acknowledged")?;
            o.set_named_property("call", call_id(*call))?;
            o.set_named_property("honoured", filter_object(env, honoured)?)?;
            o.set_named_property("refused", filter_object(env, refused)?)?;
        }
        Event::Notified {
            subscription,
            notice,
        } => {
            o.set_named_property("type", "notified")?;
            o.set_named_property("subscription", subscription.map(call_id))?;
            match notice {
                Notice::ResourceUpdated { uri } => {
                    o.set_named_property("notice", "resourceUpdated")?;
                    o.set_named_property("uri", uri.as_str())?;
                }
                other => o.set_named_property("notice", crate::ident::camel(other.ident()))?,
            }
        }
        Event::SubscriptionEnded { call, reason } => {
            o.set_named_property("type", "subscriptionEnded")?;
            o.set_named_property("call", call_id(*call))?;
            match reason {
                EndReason::Graceful => o.set_named_property("reason", "graceful")?,
                EndReason::CancelledByServer => {
                    o.set_named_property("reason", "cancelledByServer")?
                }
                EndReason::UnexpectedClose { filter } => {
                    o.set_named_property("reason", "unexpectedClose")?;
                    o.set_named_property("filter", filter_object(env, filter)?)?;
                }
            }
        }
        Event::UnknownResponse { id } => {
            o.set_named_property("type", "unknownResponse")?;
            o.set_named_property("id", convert::request_id(env, id)?)?;
        }
        Event::PeerError(p) => {
            o.set_named_property("type", "peerError")?;
            o.set_named_property(
                "error",
                error_value(
                    env,
                    errors::context_error(env, p.to_string(), String::from("ERR_PEER")),
                )?,
            )?;
        }
        other => o.set_named_property("type", crate::ident::camel(other.ident()))?,
    }
    Ok(())
}
