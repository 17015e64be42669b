//! The client machine's outputs as JS-shaped values (`ClientMachine.pollOutput()`): events,
//! the `Error`s they carry (an `McpError` with the JSON-RPC code and `data` for a server's
//! error, an `McpContextError` with a `code` string otherwise), replies, listings, sessions.

use mcp_context::client::{
    CallError, CallId, Client, ClientError, EndReason, Era, Event, Listing, Notice, Output, Reply,
    ServerError, Session,
};
use mcp_context::messages::owned::OwnedSubscriptionFilter;

use crate::error::Error;
use crate::server::Polled;
use crate::spell::camel;
use crate::value::{Js, Obj};

/// A `ClientError` thrown by a call.
#[must_use]
pub fn client_error(e: &ClientError) -> Error {
    Error::ident(e.ident(), e.to_string())
}

fn json(text: &str) -> Js {
    Js::Json(text.to_owned())
}

/// A server's error as an `McpError` (carried by a `failed` event).
fn server_error(e: &ServerError) -> Error {
    let mut data = Obj::default();
    let status = match e {
        ServerError::ResourceNotFound { uri: Some(uri), .. } => {
            data.set("uri", uri.clone());
            None
        }
        ServerError::UnsupportedProtocolVersion {
            supported,
            requested,
        } => {
            data.set("supported", supported.clone())
                .set("requested", requested.clone());
            None
        }
        ServerError::MissingRequiredClientCapability { required } => {
            data.set("requiredCapabilities", json(required.as_raw().as_text()));
            None
        }
        ServerError::Other { data: Some(d), .. } => {
            return Error::Mcp {
                code: e.code().0,
                message: e.to_string(),
                data: Some(json(d.as_raw().as_text())),
                status: 200,
            };
        }
        _ => Some(()),
    };
    Error::Mcp {
        code: e.code().0,
        message: e.to_string(),
        data: status.is_none().then_some(Js::Obj(data)),
        status: mcp_context::http::status_for(e.code()),
    }
}

fn call_error(e: &CallError) -> Error {
    match e {
        CallError::Server(s) => server_error(s),
        CallError::NotConnected(c) => Error::ident(c.ident(), e.to_string()),
        other => Error::ident(other.ident(), e.to_string()),
    }
}

fn filter(f: &OwnedSubscriptionFilter) -> Obj {
    let mut o = Obj::default();
    if let Some(b) = f.tools_list_changed {
        o.set("toolsListChanged", b);
    }
    if let Some(b) = f.prompts_list_changed {
        o.set("promptsListChanged", b);
    }
    if let Some(b) = f.resources_list_changed {
        o.set("resourcesListChanged", b);
    }
    if let Some(uris) = &f.resource_subscriptions {
        o.set("resourceSubscriptions", uris.clone());
    }
    o
}

/// `result` (the JSON the core holds) and `fromCache`, into `o`.
pub fn reply_into<K>(o: &mut Obj, reply: &Reply<K>) {
    o.set("result", json(reply.json()))
        .set("fromCache", reply.from_cache());
}

fn replied<K>(o: &mut Obj, call: CallId, reply: &Reply<K>) {
    o.set("call", call.0);
    reply_into(o, reply);
}

fn listed<K>(o: &mut Obj, call: CallId, listing: &Listing<K>) {
    o.set("call", call.0);
    let pages = listing
        .pages
        .iter()
        .map(|page| {
            let mut p = Obj::default();
            reply_into(&mut p, page);
            Js::Obj(p)
        })
        .collect();
    o.set("pages", Js::Arr(pages))
        .set("nextCursor", listing.next_cursor.clone())
        .set("truncated", listing.truncated);
}

/// The negotiated session: `{era, version, features}`.
#[must_use]
pub fn session(s: &Session) -> Obj {
    let f = s.features;
    let mut features = Obj::default();
    features
        .set("resources", f.resources)
        .set("resourcesSubscribe", f.resources_subscribe)
        .set("resourcesListChanged", f.resources_list_changed)
        .set("prompts", f.prompts)
        .set("promptsListChanged", f.prompts_list_changed)
        .set("toolsListChanged", f.tools_list_changed)
        .set("completions", f.completions);
    let mut o = Obj::default();
    o.set(
        "era",
        match s.era {
            Era::Modern => "modern",
            Era::Legacy => "legacy",
        },
    )
    .set("version", s.version.clone())
    .set("features", features);
    o
}

/// The next output of `client`, or `None`.
pub fn poll(client: &mut Client) -> Option<Polled> {
    Some(match client.poll_output()? {
        Output::Transmit(t) => {
            let mut o = Obj::typed("transmit");
            #[allow(clippy::cast_precision_loss)]
            o.set("id", t.id.map(|i| Js::Num(i as f64)))
                .set("method", t.method.map(|m| m.into_owned()))
                .set("name", t.name)
                .set("protocolVersion", t.protocol_version);
            Polled {
                shape: o,
                bytes: Some(t.bytes),
            }
        }
        Output::CloseStream { id } => {
            let mut o = Obj::typed("closeStream");
            #[allow(clippy::cast_precision_loss)]
            o.set("id", Js::Num(id as f64));
            Polled {
                shape: o,
                bytes: None,
            }
        }
        Output::Event(e) => Polled {
            shape: event(&e),
            bytes: None,
        },
    })
}

/// A client event as a JS object.
#[must_use]
pub fn event(e: &Event) -> Obj {
    let mut o = Obj::typed(camel(e.ident()));
    match e {
        Event::Connected(s) => {
            o.set("session", session(s))
                .set("handshake", json(s.handshake.json()));
        }
        Event::ConnectFailed(c) => {
            o.set("error", Error::ident(c.ident(), c.to_string()));
        }
        Event::Discovered { call, reply } => replied(&mut o, *call, reply),
        Event::ResourceRead { call, reply } => replied(&mut o, *call, reply),
        Event::PromptFetched { call, reply } => replied(&mut o, *call, reply),
        Event::Completed { call, reply } => replied(&mut o, *call, reply),
        Event::ResourcesListed { call, listing } => listed(&mut o, *call, listing),
        Event::TemplatesListed { call, listing } => listed(&mut o, *call, listing),
        Event::PromptsListed { call, listing } => listed(&mut o, *call, listing),
        Event::InputRequired {
            call,
            round,
            requests,
        } => {
            let mut r = Obj::default();
            for (key, req) in requests {
                let mut one = Obj::default();
                one.set("method", req.method.as_str().to_owned());
                if let Some(p) = &req.params {
                    one.set("params", json(p.as_raw().as_text()));
                }
                r.set(key.clone(), one);
            }
            o.set("call", call.0)
                .set("round", u32::from(*round))
                .set("requests", r);
        }
        Event::Failed { call, error } => {
            o.set("call", call.0).set("error", call_error(error));
        }
        Event::Acknowledged {
            call,
            honoured,
            refused,
        } => {
            o.set("call", call.0)
                .set("honoured", filter(honoured))
                .set("refused", filter(refused));
        }
        Event::Notified {
            subscription,
            notice,
        } => {
            o.set("subscription", subscription.map(|c| c.0));
            match notice {
                Notice::ResourceUpdated { uri } => {
                    o.set("notice", "resourceUpdated").set("uri", uri.clone());
                }
                other => {
                    o.set("notice", camel(other.ident()));
                }
            }
        }
        Event::SubscriptionEnded { call, reason } => {
            o.set("call", call.0).set("reason", camel(reason.ident()));
            if let EndReason::UnexpectedClose { filter: f } = reason {
                o.set("filter", filter(f));
            }
        }
        Event::UnknownResponse { id } => {
            o.set("id", Js::Id(id.clone()));
        }
        Event::PeerError(p) => {
            o.set("error", Error::context("ERR_PEER", p.to_string()));
        }
        _ => {}
    }
    o
}
