//! A small blocking Streamable HTTP client over `std::net::TcpStream`: one POST per message
//! (`Connection: close`), the response read to its end, de-chunked, and split into JSON-RPC
//! messages whether it came as `application/json` or as `text/event-stream`.
//!
//! Enough for the conformance suite's local scenario servers (plain `http://`, HTTP/1.1);
//! not a general HTTP client (no TLS, no redirects, no keep-alive). [`request`] carries the
//! authorization flow's fetches (any method, any URL of those servers).

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// Where the MCP endpoint is.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    host: String,
    port: u16,
    path: String,
}

impl Endpoint {
    /// Parses `http://host[:port][/path]`.
    pub(crate) fn parse(url: &str) -> Result<Self, String> {
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| format!("only http:// URLs are supported: {url}"))?;
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(']') || h.starts_with('[') => (
                h,
                p.parse::<u16>().map_err(|_| format!("bad port in {url}"))?,
            ),
            _ => (authority, 80),
        };
        Ok(Self {
            host: host.trim_matches(['[', ']']).to_string(),
            port,
            path: path.to_string(),
        })
    }
}

/// One HTTP response.
#[derive(Debug)]
pub(crate) struct Response {
    /// The status code.
    pub(crate) status: u16,
    /// `Content-Type`, lowercased, parameters dropped.
    pub(crate) content_type: String,
    /// The body, de-chunked (so far, when not `complete`).
    pub(crate) body: Vec<u8>,
    /// Whether the whole body is there.
    pub(crate) complete: bool,
    /// Every header, the name lowercased.
    pub(crate) headers: Vec<(String, String)>,
}

impl Response {
    /// The first value of header `name` (lowercase).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC messages of the body: the body itself for JSON, each event's `data` for
    /// an SSE stream (events without data, comments and `id`/`retry` fields are skipped).
    pub(crate) fn messages(&self) -> Vec<Vec<u8>> {
        if self.content_type == "text/event-stream" {
            return sse_data(&self.body);
        }
        let trimmed = self.body.trim_ascii();
        if trimmed.is_empty() {
            Vec::new()
        } else {
            vec![trimmed.to_vec()]
        }
    }
}

/// POSTs `body` to `endpoint` with `headers`. The response is read until it is complete:
/// `Content-Length` bytes, the last chunk, or (for an SSE stream, which a server may hold
/// open) as soon as `answered` says the messages so far include the answer; else to EOF.
pub(crate) fn post(
    endpoint: &Endpoint,
    headers: &[(&str, &str)],
    body: &[u8],
    answered: &dyn Fn(&[Vec<u8>]) -> bool,
) -> io::Result<Response> {
    send(endpoint, "POST", headers, body, answered)
}

/// Sends one request to `url` and reads the whole response (redirects are not followed).
pub(crate) fn request(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> io::Result<Response> {
    let endpoint = Endpoint::parse(url).map_err(|e| invalid(&e))?;
    send(&endpoint, method, headers, body, &|_| false)
}

fn send(
    endpoint: &Endpoint,
    method: &str,
    headers: &[(&str, &str)],
    body: &[u8],
    answered: &dyn Fn(&[Vec<u8>]) -> bool,
) -> io::Result<Response> {
    let mut stream = TcpStream::connect((endpoint.host.as_str(), endpoint.port))?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let host = if endpoint.host.contains(':') {
        format!("[{}]:{}", endpoint.host, endpoint.port)
    } else {
        format!("{}:{}", endpoint.host, endpoint.port)
    };
    let mut head = format!(
        "{method} {} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n",
        endpoint.path,
        body.len()
    );
    for (k, v) in headers {
        head.push_str(k);
        head.push_str(": ");
        head.push_str(v);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()?;
    let mut raw = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        let n = stream.read(&mut buf)?;
        if n == 0 {
            return parse_response(&raw, true);
        }
        raw.extend_from_slice(&buf[..n]);
        if let Ok(r) = parse_response(&raw, false)
            && (r.complete || (r.content_type == "text/event-stream" && answered(&r.messages())))
        {
            return Ok(r);
        }
    }
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// Parses what arrived so far; `eof`: the connection is closed, so what is there is all.
fn parse_response(raw: &[u8], eof: bool) -> io::Result<Response> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| invalid("no end of headers"))?;
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| invalid("non-UTF-8 head"))?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| invalid("bad status line"))?;
    let (mut content_type, mut chunked, mut length) = (String::new(), false, None);
    let mut headers = Vec::new();
    for line in lines {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let v = v.trim();
        headers.push((k.trim().to_ascii_lowercase(), v.to_string()));
        match k.trim().to_ascii_lowercase().as_str() {
            "content-type" => {
                content_type = v
                    .split(';')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_ascii_lowercase();
            }
            "transfer-encoding" => chunked = v.to_ascii_lowercase().contains("chunked"),
            "content-length" => length = v.parse::<usize>().ok(),
            _ => {}
        }
    }
    let rest = &raw[end + 4..];
    let (body, complete) = if chunked {
        dechunk(rest)
    } else {
        match length {
            Some(n) => (rest.get(..n).unwrap_or(rest).to_vec(), rest.len() >= n),
            None => (rest.to_vec(), eof),
        }
    };
    if !complete && eof && chunked {
        return Err(invalid("truncated chunked body"));
    }
    Ok(Response {
        status,
        content_type,
        body,
        complete,
        headers,
    })
}

/// The chunks so far, and whether the last (zero-size) chunk was seen.
fn dechunk(mut rest: &[u8]) -> (Vec<u8>, bool) {
    let mut body = Vec::new();
    loop {
        let Some(line_end) = rest.windows(2).position(|w| w == b"\r\n") else {
            return (body, false);
        };
        let size = std::str::from_utf8(&rest[..line_end]).ok().and_then(|t| {
            usize::from_str_radix(t.split(';').next().unwrap_or_default().trim(), 16).ok()
        });
        let Some(size) = size else {
            return (body, false);
        };
        rest = &rest[line_end + 2..];
        if size == 0 {
            return (body, true);
        }
        let Some(chunk) = rest.get(..size) else {
            return (body, false);
        };
        body.extend_from_slice(chunk);
        rest = rest.get(size + 2..).unwrap_or_default();
    }
}

/// The `data` of each SSE event (lines joined with `\n`), per the HTML event-stream format.
fn sse_data(body: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8_lossy(body).replace("\r\n", "\n");
    let mut out = Vec::new();
    let mut data: Option<String> = None;
    for line in text.split('\n') {
        if line.is_empty() {
            if let Some(d) = data.take()
                && !d.trim().is_empty()
            {
                out.push(d.into_bytes());
            }
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        if field == "data" {
            let d = data.get_or_insert_with(String::new);
            if !d.is_empty() {
                d.push('\n');
            }
            d.push_str(value);
        }
    }
    if let Some(d) = data
        && !d.trim().is_empty()
    {
        out.push(d.into_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_sse_is_split_into_messages() {
        let events = "event: message\ndata: {\"a\":1}\n\n: ping\n\ndata: {\"b\"\ndata:2}\n\n";
        let mut raw = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        for part in events.as_bytes().chunks(7) {
            raw.extend_from_slice(format!("{:x}\r\n", part.len()).as_bytes());
            raw.extend_from_slice(part);
            raw.extend_from_slice(b"\r\n");
        }
        let open = parse_response(&raw, false).unwrap();
        assert!(!open.complete, "no last chunk yet");
        raw.extend_from_slice(b"0\r\n\r\n");
        let r = parse_response(&raw, false).unwrap();
        assert!(r.complete);
        assert_eq!(
            (r.status, r.content_type.as_str()),
            (200, "text/event-stream")
        );
        let m: Vec<String> = r
            .messages()
            .into_iter()
            .map(|b| String::from_utf8(b).unwrap())
            .collect();
        assert_eq!(m, ["{\"a\":1}", "{\"b\"\n2}"]);
    }

    #[test]
    fn json_with_content_length_and_empty_202() {
        let r = parse_response(b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}", false).unwrap();
        assert_eq!(
            (r.status, r.messages(), r.complete),
            (400, vec![b"{}".to_vec()], true)
        );
        let r = parse_response(b"HTTP/1.1 202 Accepted\r\n\r\n", true).unwrap();
        assert!(r.messages().is_empty());
        let r = parse_response(b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n{}", false).unwrap();
        assert!(!r.complete);
    }

    #[test]
    fn endpoints() {
        let e = Endpoint::parse("http://localhost:3000/mcp").unwrap();
        assert_eq!(
            (e.host.as_str(), e.port, e.path.as_str()),
            ("localhost", 3000, "/mcp")
        );
        let e = Endpoint::parse("http://127.0.0.1:8").unwrap();
        assert_eq!((e.port, e.path.as_str()), (8, "/"));
        assert!(Endpoint::parse("https://x").is_err());
    }
}
