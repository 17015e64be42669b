//! The client machine's outputs as JSON text for the glue (`engine.mjs`), shaped as the napi
//! addon's `ClientMachine` outputs (`bindings-node/src/client.rs`): events, errors carried
//! by events (`{"name","code","message",…}` specs the glue turns into `Error`s), sessions.
//!
//! The JSON the core holds (results, params, handshakes, error data) goes in verbatim, so
//! `JSON.parse` in the glue sees what the addon hands to `JSON.parse` and every key is an
//! own key (`__proto__` in `inputRequests` included). Values JSON text cannot carry exactly
//! are marked for the glue: a call id beyond 2^53 is a decimal string, a request id beyond
//! ±2^53 a decimal string with `bigId: true` (both become `bigint`s).

use mcp_context::client::{
    CallError, EndReason, Era, Event, Listing, Notice, Reply, ServerError, Session,
};
use mcp_context::jsonrpc::OwnedRequestId;
use mcp_context::messages::owned::OwnedSubscriptionFilter;
use serde_json::Value;

use crate::json::Obj;
use crate::spell::{camel, err_code};

/// An error for an event, as the glue builds it (`{"name","code","message",…}`).
fn error_spec(
    name: &str,
    code: &Value,
    message: &str,
    status: Option<u16>,
    data: Option<&str>,
) -> String {
    let mut o = Obj::new();
    o.str("name", name)
        .val("code", code)
        .str("message", message);
    if let Some(s) = status {
        o.raw("httpStatus", &s.to_string());
    }
    if let Some(d) = data {
        o.raw("data", d);
    }
    o.finish()
}

fn context_spec(code: &str, message: &str) -> String {
    error_spec("McpContextError", &Value::from(code), message, None, None)
}

/// A server's error as an `McpError` spec (the addon's `server_error`).
fn server_error(e: &ServerError) -> String {
    let code = Value::from(e.code().0);
    let message = e.to_string();
    let data = match e {
        ServerError::ResourceNotFound { uri: Some(uri), .. } => {
            Some(serde_json::json!({ "uri": uri }).to_string())
        }
        ServerError::UnsupportedProtocolVersion {
            supported,
            requested,
        } => {
            Some(serde_json::json!({ "supported": supported, "requested": requested }).to_string())
        }
        ServerError::MissingRequiredClientCapability { required } => {
            let mut o = Obj::new();
            o.raw("requiredCapabilities", required.as_raw().as_text());
            Some(o.finish())
        }
        ServerError::Other { data: Some(d), .. } => {
            return error_spec(
                "McpError",
                &code,
                &message,
                Some(200),
                Some(d.as_raw().as_text()),
            );
        }
        _ => None,
    };
    let status = mcp_context::http::status_for(e.code());
    error_spec("McpError", &code, &message, Some(status), data.as_deref())
}

fn call_error(e: &CallError) -> String {
    match e {
        CallError::Server(s) => server_error(s),
        CallError::NotConnected(c) => context_spec(&err_code(c.ident()), &e.to_string()),
        other => context_spec(&err_code(other.ident()), &e.to_string()),
    }
}

fn filter(f: &OwnedSubscriptionFilter) -> String {
    let mut o = Obj::new();
    if let Some(b) = f.tools_list_changed {
        o.val("toolsListChanged", &Value::from(b));
    }
    if let Some(b) = f.prompts_list_changed {
        o.val("promptsListChanged", &Value::from(b));
    }
    if let Some(b) = f.resources_list_changed {
        o.val("resourcesListChanged", &Value::from(b));
    }
    if let Some(uris) = &f.resource_subscriptions {
        o.val("resourceSubscriptions", &Value::from(uris.clone()));
    }
    o.finish()
}

pub(crate) fn reply_into<K>(o: &mut Obj, reply: &Reply<K>) {
    o.raw("result", reply.json())
        .val("fromCache", &Value::from(reply.from_cache()));
}

fn listing_into<K>(o: &mut Obj, listing: &Listing<K>) {
    let mut pages = String::from("[");
    for (i, page) in listing.pages.iter().enumerate() {
        if i > 0 {
            pages.push(',');
        }
        let mut p = Obj::new();
        reply_into(&mut p, page);
        pages.push_str(&p.finish());
    }
    pages.push(']');
    o.raw("pages", &pages)
        .opt_str("nextCursor", listing.next_cursor.as_deref())
        .val("truncated", &Value::from(listing.truncated));
}

pub(crate) fn session(s: &Session) -> String {
    let f = s.features;
    let features = serde_json::json!({
        "resources": f.resources, "resourcesSubscribe": f.resources_subscribe,
        "resourcesListChanged": f.resources_list_changed, "prompts": f.prompts,
        "promptsListChanged": f.prompts_list_changed, "toolsListChanged": f.tools_list_changed,
        "completions": f.completions,
    });
    let mut o = Obj::new();
    o.str(
        "era",
        match s.era {
            Era::Modern => "modern",
            Era::Legacy => "legacy",
        },
    )
    .str("version", &s.version)
    .val("features", &features);
    o.finish()
}

/// A request id with its exact value and JSON type: a number while exact, else decimal
/// digits marked `bigId` (the glue makes them a `bigint`); strings stay strings.
fn request_id(o: &mut Obj, id: &OwnedRequestId) {
    const SAFE: i64 = (1 << 53) - 1;
    match id {
        OwnedRequestId::Str(s) => {
            o.str("id", s);
        }
        OwnedRequestId::Int(i) if (-SAFE..=SAFE).contains(i) => {
            o.raw("id", &i.to_string());
        }
        OwnedRequestId::Int(i) => {
            o.str("id", &i.to_string()).raw("bigId", "true");
        }
        OwnedRequestId::BigInt(digits) => {
            o.str("id", digits).raw("bigId", "true");
        }
    }
}

pub(crate) fn event(e: &Event) -> String {
    let mut o = Obj::typed(&camel(e.ident()));
    match e {
        Event::Connected(s) => {
            o.raw("session", &session(s))
                .raw("handshake", s.handshake.json());
        }
        Event::ConnectFailed(c) => {
            o.raw("error", &context_spec(&err_code(c.ident()), &c.to_string()));
        }
        Event::Discovered { call, reply } => reply_into(o.int("call", call.0), reply),
        Event::ResourceRead { call, reply } => reply_into(o.int("call", call.0), reply),
        Event::PromptFetched { call, reply } => reply_into(o.int("call", call.0), reply),
        Event::Completed { call, reply } => reply_into(o.int("call", call.0), reply),
        Event::ResourcesListed { call, listing } => listing_into(o.int("call", call.0), listing),
        Event::TemplatesListed { call, listing } => listing_into(o.int("call", call.0), listing),
        Event::PromptsListed { call, listing } => listing_into(o.int("call", call.0), listing),
        Event::InputRequired {
            call,
            round,
            requests,
        } => {
            let mut r = Obj::new();
            for (key, req) in requests {
                let mut one = Obj::new();
                one.str("method", req.method.as_str());
                if let Some(p) = &req.params {
                    one.raw("params", p.as_raw().as_text());
                }
                r.raw(key, &one.finish());
            }
            o.int("call", call.0)
                .raw("round", &round.to_string())
                .raw("requests", &r.finish());
        }
        Event::Failed { call, error } => {
            o.int("call", call.0).raw("error", &call_error(error));
        }
        Event::Acknowledged {
            call,
            honoured,
            refused,
        } => {
            o.int("call", call.0)
                .raw("honoured", &filter(honoured))
                .raw("refused", &filter(refused));
        }
        Event::Notified {
            subscription,
            notice,
        } => {
            match subscription {
                Some(c) => o.int("subscription", c.0),
                None => o.raw("subscription", "null"),
            };
            match notice {
                Notice::ResourceUpdated { uri } => {
                    o.str("notice", "resourceUpdated").str("uri", uri);
                }
                other => {
                    o.str("notice", &camel(other.ident()));
                }
            }
        }
        Event::SubscriptionEnded { call, reason } => {
            o.int("call", call.0).str("reason", &camel(reason.ident()));
            if let EndReason::UnexpectedClose { filter: f } = reason {
                o.raw("filter", &filter(f));
            }
        }
        Event::UnknownResponse { id } => request_id(&mut o, id),
        Event::PeerError(p) => {
            o.raw("error", &context_spec("ERR_PEER", &p.to_string()));
        }
        _ => {}
    }
    o.finish()
}
