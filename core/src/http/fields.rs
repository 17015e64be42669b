//! From the header lines a runner received to a [`RequestHead`]: the one mapping every
//! runner shares (docs/rules.md §15.1 item 11).

use alloc::borrow::Cow;
use alloc::string::String;

use super::endpoint::RequestHead;

/// The headers the endpoint reads, collected from a request's header lines, to borrow a
/// [`RequestHead`] from. Build it with [`HeadFields::new`], then call [`HeadFields::head`]:
///
/// ```
/// use mcp_context::http::HeadFields;
/// let lines = [("host", "localhost:3000"), ("Content-Type", " application/json "),
///              ("content-length", "120"), ("X-Other", "ignored")];
/// let fields = HeadFields::new(lines);
/// let head = fields.head("POST", "/mcp");
/// assert_eq!(head.content_type, Some("application/json"));
/// assert_eq!(head.content_length, Some(120));
/// ```
///
/// The rules, the same in every runner:
/// * names match ASCII case-insensitively; unknown names are ignored; HTTP/2's `:authority`
///   stands for `Host` when there is no `Host` line;
/// * values lose their surrounding optional whitespace (spaces and tabs, RFC 9110 §5.5);
/// * a header given on several lines has its values joined with `,`, in order (RFC 9110
///   §5.3's combination). For `Accept`, a list, that is its meaning; for the headers that
///   take one value (`Host`, `Origin`, `Content-Type`, `Content-Length`, the `Mcp-*`
///   headers) the joined value is then refused by the check that reads it, as a malformed
///   value: `Host` 400, `Origin` 403, `Content-Type` 415, `MCP-Protocol-Version`,
///   `Mcp-Method`, `Mcp-Name` -32020, `Mcp-Session-Id` 404. A `Content-Length` that is not
///   one decimal number is read as absent: the body limit still applies to the bytes read.
///
/// Values are `&str`: a runner holding bytes converts them lossily (invalid UTF-8 becomes
/// U+FFFD, which the checks refuse). A value is copied only when joined.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeadFields<'a> {
    host: Option<Cow<'a, str>>,
    authority: Option<Cow<'a, str>>,
    origin: Option<Cow<'a, str>>,
    content_type: Option<Cow<'a, str>>,
    content_length: Option<Cow<'a, str>>,
    protocol_version: Option<Cow<'a, str>>,
    mcp_method: Option<Cow<'a, str>>,
    mcp_name: Option<Cow<'a, str>>,
    accept: Option<Cow<'a, str>>,
    session_id: Option<Cow<'a, str>>,
    authorization: Option<Cow<'a, str>>,
    last_event_id: Option<Cow<'a, str>>,
}

impl<'a> HeadFields<'a> {
    /// Collects the headers the endpoint reads from `lines` (name, value), in order.
    pub fn new<I: IntoIterator<Item = (&'a str, &'a str)>>(lines: I) -> Self {
        let mut f = Self::default();
        for (name, value) in lines {
            if let Some(slot) = f.slot(name) {
                add(slot, value.trim_matches([' ', '\t']));
            }
        }
        f
    }

    fn slot(&mut self, name: &str) -> Option<&mut Option<Cow<'a, str>>> {
        let is = |n: &str| name.eq_ignore_ascii_case(n);
        Some(if is("host") {
            &mut self.host
        } else if is(":authority") {
            &mut self.authority
        } else if is("origin") {
            &mut self.origin
        } else if is("content-type") {
            &mut self.content_type
        } else if is("content-length") {
            &mut self.content_length
        } else if is("mcp-protocol-version") {
            &mut self.protocol_version
        } else if is("mcp-method") {
            &mut self.mcp_method
        } else if is("mcp-name") {
            &mut self.mcp_name
        } else if is("accept") {
            &mut self.accept
        } else if is("mcp-session-id") {
            &mut self.session_id
        } else if is("authorization") {
            &mut self.authorization
        } else if is("last-event-id") {
            &mut self.last_event_id
        } else {
            return None;
        })
    }

    /// The request head of a request with this `method` and request-target `path` (a query
    /// string may stay on: the endpoint ignores it).
    #[must_use]
    pub fn head<'b>(&'b self, method: &'b str, path: &'b str) -> RequestHead<'b> {
        let s = |v: &'b Option<Cow<'a, str>>| v.as_deref();
        RequestHead {
            method,
            path,
            host: s(&self.host).or(s(&self.authority)),
            origin: s(&self.origin),
            content_type: s(&self.content_type),
            content_length: s(&self.content_length).and_then(decimal),
            protocol_version: s(&self.protocol_version),
            mcp_method: s(&self.mcp_method),
            mcp_name: s(&self.mcp_name),
            accept: s(&self.accept),
            session_id: s(&self.session_id),
        }
    }
}

impl HeadFields<'_> {
    /// `Authorization`, for [`Server::http_authenticate`](crate::server::Server::http_authenticate)
    /// (several lines are joined with `,`, which no bearer credential contains: malformed).
    #[must_use]
    pub fn authorization(&self) -> Option<&str> {
        self.authorization.as_deref()
    }

    /// `Last-Event-ID`: the last event a client got on a GET stream it resumes (spec
    /// 2025-11-25, basic/transports "Resumability and Redelivery"); its meaning is
    /// [`session_event_seq`](crate::server::session_event_seq)'s.
    #[must_use]
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }
}

fn add<'a>(slot: &mut Option<Cow<'a, str>>, value: &'a str) {
    *slot = Some(match slot.take() {
        None => Cow::Borrowed(value),
        Some(first) => {
            let mut joined = String::with_capacity(first.len() + 1 + value.len());
            joined.push_str(&first);
            joined.push(',');
            joined.push_str(value);
            Cow::Owned(joined)
        }
    });
}

/// One decimal number (digits only, as RFC 9110 §8.6 writes `Content-Length`).
fn decimal(v: &str) -> Option<u64> {
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    v.parse().ok()
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;
    use crate::http::{HttpConfig, Refusal, check_head};

    #[test]
    fn names_values_and_repeats() {
        let lines = [
            ("HOST", "\tlocalhost:3000 "),
            ("mcp-protocol-version", "2026-07-28"),
            ("MCP-METHOD", "resources/read"),
            ("Mcp-Name", " file:///a "),
            ("accept", "application/json"),
            ("Accept", "text/event-stream"),
            ("Content-Length", "12"),
            ("mcp-session-id", "abc"),
            ("x-unknown", "1"),
        ];
        let f = HeadFields::new(lines);
        let head = f.head("POST", "/mcp?x=1");
        assert_eq!(
            head,
            RequestHead {
                method: "POST",
                path: "/mcp?x=1",
                host: Some("localhost:3000"),
                origin: None,
                content_type: None,
                content_length: Some(12),
                protocol_version: Some("2026-07-28"),
                mcp_method: Some("resources/read"),
                mcp_name: Some("file:///a"),
                accept: Some("application/json,text/event-stream"),
                session_id: Some("abc"),
            }
        );
        // `:authority` only when `Host` is absent.
        let h2 = HeadFields::new([(":authority", "localhost")]);
        assert_eq!(h2.head("GET", "/").host, Some("localhost"));
        let both = HeadFields::new([(":authority", "evil.example"), ("host", "localhost")]);
        assert_eq!(both.head("GET", "/").host, Some("localhost"));
        // Lengths that are not one decimal number are absent.
        for bad in ["12,12", "-1", "+1", "0x10", "", "99999999999999999999999"] {
            let f = HeadFields::new([("content-length", bad)]);
            assert_eq!(f.head("POST", "/mcp").content_length, None, "{bad:?}");
        }
    }

    /// A header that takes one value, given twice, is refused by the check that reads it.
    #[test]
    fn repeated_single_value_headers_are_refused() {
        let config = HttpConfig::default();
        let base: Vec<(&str, &str)> = alloc::vec![
            ("host", "localhost"),
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
        ];
        let check = |extra: &[(&'static str, &'static str)]| {
            let mut lines = base.clone();
            lines.extend_from_slice(extra);
            let f = HeadFields::new(lines);
            check_head(&f.head("POST", "/mcp"), &config, &[]).map(|_| ())
        };
        assert_eq!(check(&[]), Ok(()));
        // A repeated Accept is one list: accepted.
        assert_eq!(check(&[("accept", "text/html")]), Ok(()));
        assert!(matches!(
            check(&[("host", "localhost")]),
            Err(Refusal::Origin(_))
        ));
        assert!(matches!(
            check(&[
                ("origin", "http://localhost"),
                ("origin", "http://localhost")
            ]),
            Err(Refusal::Origin(_))
        ));
        assert_eq!(
            check(&[("content-type", "application/json")]),
            Err(Refusal::UnsupportedMediaType)
        );
    }
}
