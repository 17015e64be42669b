//! `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` against the body (docs/rules.md §15.1,
//! checklist §16.10 rules 62–63).

use core::fmt;

use crate::base64::{Alphabet, Decoder};
use crate::error_code::ErrorCode;

/// The standard request headers as the host's HTTP layer received them (`None` = absent).
/// Header names are case-insensitive; values are case-sensitive (docs/rules.md §15.1). Pass values
/// with the surrounding optional whitespace already stripped, as HTTP parsers do.
#[derive(Debug, Clone, Copy, Default)]
pub struct RequestHeaders<'a> {
    /// `MCP-Protocol-Version`.
    pub protocol_version: Option<&'a str>,
    /// `Mcp-Method`.
    pub method: Option<&'a str>,
    /// `Mcp-Name`.
    pub name: Option<&'a str>,
}

/// What the JSON body says. `protocol_version` is required: check the `_meta` keys first
/// (docs/rules.md §19.8 step 3) and only then the headers.
#[derive(Debug, Clone, Copy)]
pub struct BodyFields<'a> {
    /// `params._meta["io.modelcontextprotocol/protocolVersion"]`.
    pub protocol_version: &'a str,
    /// The JSON-RPC `method`.
    pub method: &'a str,
    /// The body value `Mcp-Name` mirrors, per [`name_source`]: `params.name` or
    /// `params.uri`; `None` if the body lacks it or the method has none.
    pub name: Option<&'a str>,
}

/// Which body field `Mcp-Name` mirrors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameSource {
    /// `params.name` (`tools/call`, `prompts/get`).
    Name,
    /// `params.uri` (`resources/read`).
    Uri,
}

/// Whether `method` requires `Mcp-Name`, and which field it mirrors (docs/rules.md §15.1 table:
/// `tools/call`, `prompts/get` → `params.name`; `resources/read` → `params.uri`).
#[must_use]
pub fn name_source(method: &str) -> Option<NameSource> {
    match method {
        "tools/call" | "prompts/get" => Some(NameSource::Name),
        "resources/read" => Some(NameSource::Uri),
        _ => None,
    }
}

/// One of the standard headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Header {
    /// `MCP-Protocol-Version`.
    ProtocolVersion,
    /// `Mcp-Method`.
    Method,
    /// `Mcp-Name`.
    Name,
}

impl Header {
    /// The header's name as the spec spells it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::ProtocolVersion => "MCP-Protocol-Version",
            Self::Method => "Mcp-Method",
            Self::Name => "Mcp-Name",
        }
    }
}

/// What is wrong with a header (docs/rules.md §15.1 "Failure conditions").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderProblem {
    /// A required header is absent.
    Missing,
    /// The value holds characters a plain header value may not (controls, non-ASCII,
    /// leading or trailing whitespace, or spaces in a token-valued header).
    InvalidCharacters,
    /// `=?base64?…?=` whose payload is not canonical standard base64.
    MalformedEncoding,
    /// The (decoded) value differs from the body.
    Mismatch,
}

/// A header check failed: JSON-RPC `-32020` with HTTP 400 (docs/rules.md §1.4, §15.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct HeaderError {
    /// Which header.
    pub header: Header,
    /// What is wrong with it.
    pub problem: HeaderProblem,
}

impl HeaderError {
    /// `-32020` HeaderMismatch.
    #[must_use]
    pub const fn code(self) -> ErrorCode {
        ErrorCode::HEADER_MISMATCH
    }

    /// 400 Bad Request.
    #[must_use]
    pub const fn http_status(self) -> u16 {
        400
    }
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = self.header.as_str();
        match self.problem {
            HeaderProblem::Missing => write!(f, "Header mismatch: {h} header is missing"),
            HeaderProblem::InvalidCharacters => {
                write!(f, "Header mismatch: {h} header has invalid characters")
            }
            HeaderProblem::MalformedEncoding => {
                write!(
                    f,
                    "Header mismatch: {h} header has a malformed base64 value"
                )
            }
            HeaderProblem::Mismatch => {
                write!(
                    f,
                    "Header mismatch: {h} header value does not match the body"
                )
            }
        }
    }
}

impl core::error::Error for HeaderError {}

const SENTINEL_OPEN: &str = "=?base64?";
const SENTINEL_CLOSE: &str = "?=";

/// Checks the standard headers against the body (docs/rules.md §15.1, §16.10 rules 62–63), in the
/// order `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`:
///
/// * `MCP-Protocol-Version` must be present and equal the body's `protocolVersion`. (A server
///   that serves pre-2025-06-18 clients MAY read a missing header as `2025-03-26`; such a
///   host substitutes that value before calling.) Token characters only: `0x21..=0x7E`.
/// * `Mcp-Method` must be present and equal the body `method`, compared literally (the spec
///   defines the base64 form for `Mcp-Name` and `Mcp-Param-*` only).
/// * `Mcp-Name` must be present for the methods of [`name_source`] and equal the mirrored
///   body field after decoding: a value of the exact form `=?base64?{payload}?=` (lowercase
///   markers) is decoded as standard base64 and compared byte-wise with the body, without a
///   buffer; any other value is plain and must be printable ASCII (`0x20..=0x7E`) with no
///   leading or trailing space (clients MUST encode anything else). For other methods an
///   `Mcp-Name` header is ignored: the spec gives it no meaning there.
///
/// Header requirements for notification POSTs are not defined (docs/rules.md §15.1); call this for
/// requests only.
///
/// # Errors
/// The first failing header and why; every [`HeaderError`] is -32020 with HTTP 400.
pub fn check_headers(
    headers: &RequestHeaders<'_>,
    body: &BodyFields<'_>,
) -> Result<(), HeaderError> {
    check_token(
        Header::ProtocolVersion,
        headers.protocol_version,
        body.protocol_version,
    )?;
    check_token(Header::Method, headers.method, body.method)?;
    if name_source(body.method).is_some() {
        check_name(headers.name, body.name)?;
    }
    Ok(())
}

fn err(header: Header, problem: HeaderProblem) -> HeaderError {
    HeaderError { header, problem }
}

fn check_token(header: Header, value: Option<&str>, body: &str) -> Result<(), HeaderError> {
    let value = value.ok_or(err(header, HeaderProblem::Missing))?;
    if value.is_empty() || !value.bytes().all(|b| (0x21..=0x7E).contains(&b)) {
        return Err(err(header, HeaderProblem::InvalidCharacters));
    }
    if value != body {
        return Err(err(header, HeaderProblem::Mismatch));
    }
    Ok(())
}

fn check_name(value: Option<&str>, body: Option<&str>) -> Result<(), HeaderError> {
    let e = |p| err(Header::Name, p);
    let value = value.ok_or(e(HeaderProblem::Missing))?;
    if let Some(payload) = sentinel_payload(value) {
        let dec = Decoder::new(Alphabet::Standard, payload.as_bytes())
            .map_err(|_| e(HeaderProblem::MalformedEncoding))?;
        // Decode fully (so a malformed payload is reported as such), comparing as we go.
        // A body that lacks the field matches nothing, not even an empty encoded value.
        let mut equal = body.is_some_and(|b| b.len() == dec.decoded_len());
        let mut expected = body.unwrap_or("").as_bytes().iter();
        for byte in dec {
            let byte = byte.map_err(|_| e(HeaderProblem::MalformedEncoding))?;
            equal &= expected.next() == Some(&byte);
        }
        return if equal {
            Ok(())
        } else {
            Err(e(HeaderProblem::Mismatch))
        };
    }
    let bytes = value.as_bytes();
    let printable = bytes.iter().all(|b| (0x20..=0x7E).contains(b));
    let padded = bytes.first() == Some(&b' ') || bytes.last() == Some(&b' ');
    if !printable || padded {
        return Err(e(HeaderProblem::InvalidCharacters));
    }
    match body {
        Some(b) if b == value => Ok(()),
        _ => Err(e(HeaderProblem::Mismatch)),
    }
}

/// The base64 payload of `=?base64?{payload}?=`, if `value` has exactly that form.
fn sentinel_payload(value: &str) -> Option<&str> {
    value
        .strip_prefix(SENTINEL_OPEN)?
        .strip_suffix(SENTINEL_CLOSE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use HeaderProblem::*;

    const V: &str = "2026-07-28";

    fn h<'a>(pv: Option<&'a str>, m: Option<&'a str>, n: Option<&'a str>) -> RequestHeaders<'a> {
        RequestHeaders {
            protocol_version: pv,
            method: m,
            name: n,
        }
    }

    #[test]
    fn table() {
        type Row = (
            RequestHeaders<'static>,
            (&'static str, &'static str, Option<&'static str>),
            Result<(), (Header, HeaderProblem)>,
        );
        let ok = Ok(());
        let uri = "file:///projects/myapp/config.json";
        #[rustfmt::skip]
        let rows: &[Row] = &[
            // docs/rules.md §15.1 examples.
            (h(Some(V), Some("resources/read"), Some(uri)), (V, "resources/read", Some(uri)), ok),
            (h(Some(V), Some("prompts/get"), Some("=?base64?csOpc3Vtw6lfcmV2aWV3?=")), (V, "prompts/get", Some("résumé_review")), ok),
            (h(Some(V), Some("tools/call"), Some("get_weather")), (V, "tools/call", Some("get_weather")), ok),
            // Methods without Mcp-Name: absent is fine, present is ignored.
            (h(Some(V), Some("resources/list"), None), (V, "resources/list", None), ok),
            (h(Some(V), Some("server/discover"), Some("x")), (V, "server/discover", None), ok),
            // Protocol version.
            (h(None, Some("resources/list"), None), (V, "resources/list", None), Err((Header::ProtocolVersion, Missing))),
            (h(Some("v999.0.0"), Some("resources/list"), None), (V, "resources/list", None), Err((Header::ProtocolVersion, Mismatch))),
            (h(Some(V), Some("resources/list"), None), ("v999.0.0", "resources/list", None), Err((Header::ProtocolVersion, Mismatch))),
            (h(Some("2026-07-28 "), Some("resources/list"), None), (V, "resources/list", None), Err((Header::ProtocolVersion, InvalidCharacters))),
            (h(Some(""), Some("resources/list"), None), (V, "resources/list", None), Err((Header::ProtocolVersion, InvalidCharacters))),
            // Method.
            (h(Some(V), None, None), (V, "resources/list", None), Err((Header::Method, Missing))),
            (h(Some(V), Some("resources/List"), None), (V, "resources/list", None), Err((Header::Method, Mismatch))),
            (h(Some(V), Some("prompts/list"), None), (V, "resources/list", None), Err((Header::Method, Mismatch))),
            (h(Some(V), Some("resources/\u{7f}list"), None), (V, "resources/list", None), Err((Header::Method, InvalidCharacters))),
            // Name: missing, mismatched, case-sensitive.
            (h(Some(V), Some("prompts/get"), None), (V, "prompts/get", Some("a")), Err((Header::Name, Missing))),
            (h(Some(V), Some("prompts/get"), Some("a")), (V, "prompts/get", Some("b")), Err((Header::Name, Mismatch))),
            (h(Some(V), Some("prompts/get"), Some("A")), (V, "prompts/get", Some("a")), Err((Header::Name, Mismatch))),
            (h(Some(V), Some("prompts/get"), Some("a")), (V, "prompts/get", None), Err((Header::Name, Mismatch))),
            (h(Some(V), Some("resources/read"), Some("file:///a")), (V, "resources/read", Some("file:///b")), Err((Header::Name, Mismatch))),
            // Name: characters a plain value may not carry.
            (h(Some(V), Some("prompts/get"), Some("résumé_review")), (V, "prompts/get", Some("résumé_review")), Err((Header::Name, InvalidCharacters))),
            (h(Some(V), Some("prompts/get"), Some(" a")), (V, "prompts/get", Some(" a")), Err((Header::Name, InvalidCharacters))),
            (h(Some(V), Some("prompts/get"), Some("a ")), (V, "prompts/get", Some("a ")), Err((Header::Name, InvalidCharacters))),
            (h(Some(V), Some("prompts/get"), Some("a\tb")), (V, "prompts/get", Some("a\tb")), Err((Header::Name, InvalidCharacters))),
            (h(Some(V), Some("prompts/get"), Some("a\0b")), (V, "prompts/get", Some("a\0b")), Err((Header::Name, InvalidCharacters))),
            (h(Some(V), Some("prompts/get"), Some("a b")), (V, "prompts/get", Some("a b")), ok),
            // Name: encoded forms. " a" (leading space) → "IGE=", " " → "IA==".
            (h(Some(V), Some("prompts/get"), Some("=?base64?IGE=?=")), (V, "prompts/get", Some(" a")), ok),
            (h(Some(V), Some("prompts/get"), Some("=?base64?IGE?=")), (V, "prompts/get", Some(" a")), ok),
            (h(Some(V), Some("prompts/get"), Some("=?base64?IGE=?=")), (V, "prompts/get", Some(" b")), Err((Header::Name, Mismatch))),
            (h(Some(V), Some("prompts/get"), Some("=?base64?IGE=?=")), (V, "prompts/get", Some(" ab")), Err((Header::Name, Mismatch))),
            (h(Some(V), Some("prompts/get"), Some("=?base64?IGE=?=")), (V, "prompts/get", Some(" ")), Err((Header::Name, Mismatch))),
            (h(Some(V), Some("prompts/get"), Some("=?base64?IA==?=")), (V, "prompts/get", Some(" ")), ok),
            (h(Some(V), Some("resources/read"), Some("=?base64?ZmlsZTovLy90bXAvw6k=?=")), (V, "resources/read", Some("file:///tmp/é")), ok),
            (h(Some(V), Some("prompts/get"), Some("=?base64?I!E=?=")), (V, "prompts/get", Some(" a")), Err((Header::Name, MalformedEncoding))),
            (h(Some(V), Some("prompts/get"), Some("=?base64?IGF=?=")), (V, "prompts/get", Some(" a")), Err((Header::Name, MalformedEncoding))),
            (h(Some(V), Some("prompts/get"), Some("=?base64?I?=")), (V, "prompts/get", Some(" a")), Err((Header::Name, MalformedEncoding))),
            (h(Some(V), Some("prompts/get"), Some("=?base64?IG E=?=")), (V, "prompts/get", Some(" a")), Err((Header::Name, MalformedEncoding))),
            (h(Some(V), Some("prompts/get"), Some("=?base64?IGE-?=")), (V, "prompts/get", Some(" a")), Err((Header::Name, MalformedEncoding))),
            // A plain value that matches the sentinel must itself be encoded, so the literal
            // text is decoded: `=?base64?YQ==?=` means "a".
            (h(Some(V), Some("prompts/get"), Some("=?base64?YQ==?=")), (V, "prompts/get", Some("=?base64?YQ==?=")), Err((Header::Name, Mismatch))),
            (h(Some(V), Some("prompts/get"), Some("=?base64?YQ==?=")), (V, "prompts/get", Some("a")), ok),
            // Markers are exact and lowercase: anything else is a plain value.
            (h(Some(V), Some("prompts/get"), Some("=?BASE64?YQ==?=")), (V, "prompts/get", Some("a")), Err((Header::Name, Mismatch))),
            (h(Some(V), Some("prompts/get"), Some("=?base64?YQ==")), (V, "prompts/get", Some("=?base64?YQ==")), ok),
            // Empty encoded value equals an empty name, not an absent one.
            (h(Some(V), Some("prompts/get"), Some("=?base64??=")), (V, "prompts/get", Some("")), ok),
            (h(Some(V), Some("prompts/get"), Some("=?base64??=")), (V, "prompts/get", None), Err((Header::Name, Mismatch))),
        ];
        for (i, (headers, (pv, method, name), want)) in rows.iter().enumerate() {
            let body = BodyFields {
                protocol_version: pv,
                method,
                name: *name,
            };
            let got = check_headers(headers, &body).map_err(|e| (e.header, e.problem));
            assert_eq!(got, *want, "row {i}: {headers:?}");
        }
    }

    #[test]
    fn error_display_and_code() {
        let e = err(Header::Name, Mismatch);
        assert_eq!(e.code(), ErrorCode::HEADER_MISMATCH);
        assert_eq!(
            std::format!("{e}"),
            "Header mismatch: Mcp-Name header value does not match the body"
        );
        assert_eq!(name_source("resources/read"), Some(NameSource::Uri));
        assert_eq!(name_source("prompts/get"), Some(NameSource::Name));
        assert_eq!(name_source("completion/complete"), None);
    }

    proptest::proptest! {
        /// Any name, sentinel-encoded as a client would, matches exactly its own body value.
        #[test]
        fn encoded_names_match_only_themselves(name in "\\PC{0,24}", other in "\\PC{0,24}") {
            let mut buf = [0u8; 256];
            let n = crate::base64::encode(Alphabet::Standard, name.as_bytes(), &mut buf).unwrap();
            let header = std::format!("=?base64?{}?=", std::str::from_utf8(&buf[..n]).unwrap());
            let headers = h(Some(V), Some("prompts/get"), Some(&header));
            let body = |name| BodyFields { protocol_version: V, method: "prompts/get", name: Some(name) };
            proptest::prop_assert!(check_headers(&headers, &body(&name)).is_ok());
            proptest::prop_assert_eq!(check_headers(&headers, &body(&other)).is_ok(), name == other);
        }
    }
}
