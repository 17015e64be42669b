//! The server machine's Streamable HTTP entry points as both engines expose them: the
//! request head ([`Head`]), the head-only checks, the resource server's door (RFC 9728
//! metadata, bearer tokens, scopes) and a whole request's start.

use mcp_context::auth::resource_server::{Caller, ResourceServerConfig};
use mcp_context::http::{HeadCheck, HeadFields, HttpResponse, HttpStart, RequestHead};
use mcp_context::server::{Ctx, Gate};

use super::{Polled, ServerAdapter, register_error};
use crate::error::{Error, Result};
use crate::source::Source;
use crate::value::{Js, Obj, header_pairs};

/// A Streamable HTTP request head as the runner has it: the method, the request target
/// and the header lines, mapped to the core's `RequestHead` by the core (`HeadFields`:
/// names case-insensitive, values trimmed, repeats joined).
#[derive(Debug, Default, Clone)]
pub struct Head {
    /// `POST`, `GET`, …
    pub method: String,
    /// The request target (a query string may stay on).
    pub path: String,
    /// The header lines, in order.
    pub lines: Vec<(String, String)>,
}

impl Head {
    /// A head from a flat header list (`[name, value, name, value, …]`, node:http's
    /// `rawHeaders`).
    #[must_use]
    pub fn from_flat(method: String, path: String, flat: Vec<String>) -> Self {
        let mut lines = Vec::with_capacity(flat.len() / 2);
        let mut it = flat.into_iter();
        while let (Some(k), Some(v)) = (it.next(), it.next()) {
            lines.push((k, v));
        }
        Self {
            method,
            path,
            lines,
        }
    }

    /// Reads `{method, path, headers}` (`headers` flat, as [`Head::from_flat`]).
    pub fn read<S: Source>(s: &S) -> Result<Self> {
        let text = |key: &str| s.field(key)?.map(|v| v.string(key)).transpose();
        let headers = match s.field("headers")? {
            Some(h) => h.strings("headers")?,
            None => Vec::new(),
        };
        Ok(Self::from_flat(
            text("method")?.unwrap_or_default(),
            text("path")?.unwrap_or_default(),
            headers,
        ))
    }

    /// Runs `f` on the core's view of this head.
    pub fn with<R>(&self, f: impl FnOnce(&RequestHead<'_>) -> R) -> R {
        let fields = HeadFields::new(self.lines.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        f(&fields.head(&self.method, &self.path))
    }
}

impl ServerAdapter {
    /// The head-only HTTP checks: `{readBody: true, limit}` or a whole response.
    pub fn http_head(&self, head: &Head) -> Polled {
        match head.with(|h| self.inner.http_head(h)) {
            HeadCheck::ReadBody { limit } => {
                let mut o = Obj::default();
                o.set("readBody", true).set("limit", limit as u64);
                Polled {
                    shape: o,
                    bytes: None,
                }
            }
            HeadCheck::Respond(r) => response(r),
        }
    }

    /// Sets (or with `None` removes) the endpoint's protection (docs/rules.md §22); scope
    /// requirements are cleared.
    pub fn set_protection(&mut self, p: Option<ResourceServerConfig>) -> Result<()> {
        self.inner
            .set_protection(p)
            .map_err(|e| Error::context("ERR_CONFIG", e.to_string()))
    }

    /// Requires `scopes` of every caller of the item `kind`/`key` (`protect::scoped`).
    pub fn require_scopes(&mut self, kind: &str, key: &str, scopes: &[String]) -> Result<()> {
        let item = crate::protect::scoped(kind, key)?;
        let scopes: Vec<&str> = scopes.iter().map(String::as_str).collect();
        self.inner
            .require_scopes(item, &scopes)
            .map_err(|e| register_error("requireScopes", &e))
    }

    /// The protected endpoint's door, before `http_head`: `{proceed: true}`, `{token}` (verify
    /// it, then `http_admit`), or a whole response (the metadata document, a 401).
    pub fn http_authenticate(&self, head: &Head) -> Polled {
        let fields = HeadFields::new(head.lines.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let gate = self.inner.http_authenticate(
            &fields.head(&head.method, &head.path),
            fields.authorization(),
        );
        let mut o = Obj::default();
        match gate {
            Gate::Respond(r) => return response(r),
            Gate::Verify(t) => o.set("token", t.to_owned()),
            Gate::Proceed => o.set("proceed", true),
        };
        Polled {
            shape: o,
            bytes: None,
        }
    }

    /// The core's checks on a verified caller at `now` (Unix epoch milliseconds): `{scopes}`
    /// (the bits for the request's context) or the 401/403 response.
    pub fn http_admit(&self, caller: &Caller, now: u64) -> Polled {
        match self.inner.http_admit(caller, now) {
            Ok(s) => {
                let mut o = Obj::default();
                o.set("scopes", Js::U64(s.0));
                Polled {
                    shape: o,
                    bytes: None,
                }
            }
            Err(r) => response(r),
        }
    }

    /// The 401 `invalid_token` response for a token the verifier refused (`why`: its
    /// `error_description`).
    pub fn http_reject(&self, why: &str) -> Polled {
        response(self.inner.http_reject(why))
    }

    /// One HTTP request with its body: a whole response, `{stream}`, or for an event stream
    /// `{status, headers, body, stream, eventStream: true}`.
    pub fn handle_http(&mut self, head: &Head, body: &[u8], now: u64, ctx: Ctx) -> Polled {
        match head.with(|h| self.inner.handle_http(h, body, now, ctx)) {
            HttpStart::Respond(r) => response(r),
            HttpStart::Stream(s) => {
                let mut o = Obj::default();
                o.set("stream", s.0);
                Polled {
                    shape: o,
                    bytes: None,
                }
            }
            HttpStart::EventStream {
                stream,
                response: r,
            } => {
                let mut p = response(r);
                p.shape.set("stream", stream.0).set("eventStream", true);
                p
            }
        }
    }
}

/// A complete HTTP response: `{status, headers}` and its body.
pub(crate) fn response(r: HttpResponse) -> Polled {
    let mut o = Obj::default();
    o.set("status", r.status).set(
        "headers",
        header_pairs(r.headers.iter().map(|(k, v)| (*k, v.as_str()))),
    );
    Polled {
        shape: o,
        bytes: Some(r.body),
    }
}
