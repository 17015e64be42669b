//! HTTP header values of a request (spec: Transports › Streamable HTTP › Standard MCP request
//! headers, Custom headers from tool parameters, Value encoding; docs/rules.md §15.1), and the
//! tool definitions whose `x-mcp-header` annotations name them (spec: Server features › Tools
//! › `x-mcp-header`).
//!
//! A tool's input schema may mark a top-level primitive property with `"x-mcp-header":
//! "Region"`; a `tools/call` of that tool then mirrors the argument's value into the header
//! `Mcp-Param-Region`. A tool whose annotations are invalid (empty, not a header token,
//! duplicated case-insensitively, or on a non-primitive property) MUST be rejected by the
//! client: the machine leaves it out of the `tools/list` result it hands the host and refuses
//! to call it.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::base64::{self, Alphabet};
use crate::json::{JsonKind, RawJson};

const SENTINEL_OPEN: &str = "=?base64?";
const SENTINEL_CLOSE: &str = "?=";

/// The header value for `value`: the value itself when it is safe as a plain header value
/// (printable ASCII `0x20..=0x7E`, no leading or trailing space, and not itself of the
/// sentinel form), else `=?base64?{standard base64 of its UTF-8}?=` ("clients MUST use
/// Base64 encoding", spec: Transports › Value encoding).
#[must_use]
pub fn header_value(value: &str) -> Cow<'_, str> {
    let sentinel = value.starts_with(SENTINEL_OPEN)
        && value.ends_with(SENTINEL_CLOSE)
        && value.len() >= SENTINEL_OPEN.len() + SENTINEL_CLOSE.len();
    let plain = value.bytes().all(|b| (0x20..=0x7E).contains(&b))
        && !value.starts_with(' ')
        && !value.ends_with(' ');
    if plain && !sentinel {
        return Cow::Borrowed(value);
    }
    let n = base64::encoded_len(Alphabet::Standard, value.len()).unwrap_or(0);
    let mut buf = alloc::vec![0u8; n];
    let written = base64::encode(Alphabet::Standard, value.as_bytes(), &mut buf).unwrap_or(0);
    let mut out = String::with_capacity(written + SENTINEL_OPEN.len() + SENTINEL_CLOSE.len());
    out.push_str(SENTINEL_OPEN);
    out.extend(
        buf.get(..written)
            .unwrap_or_default()
            .iter()
            .map(|&b| char::from(b)),
    );
    out.push_str(SENTINEL_CLOSE);
    Cow::Owned(out)
}

/// Why a tool definition's `x-mcp-header` annotations are invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolHeaderError {
    /// `x-mcp-header` is not a string, or is empty.
    Empty,
    /// The name has a character an HTTP header name may not (a space, `:`, a control,
    /// non-ASCII): header names are RFC 9110 tokens.
    Charset,
    /// Two properties name the same header (compared case-insensitively).
    Duplicate,
    /// The property is not of a type a header may carry: `string`, `integer` or `boolean`
    /// (not `number`, whose text form is not one value, nor objects, arrays, `null`).
    NotPrimitive,
}

impl fmt::Display for ToolHeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Empty => "x-mcp-header is empty or not a string",
            Self::Charset => "x-mcp-header is not a valid header name",
            Self::Duplicate => "x-mcp-header names the same header twice",
            Self::NotPrimitive => {
                "x-mcp-header on a property that is not a string, integer or boolean"
            }
        })
    }
}

impl core::error::Error for ToolHeaderError {}

/// RFC 9110 §5.6.2 `tchar`.
const fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'.'
                | b'^'
                | b'_'
                | b'`'
                | b'|'
                | b'~'
        )
}

fn primitive(ty: &str) -> bool {
    matches!(ty, "string" | "integer" | "boolean")
}

/// The `(property, header name)` pairs a tool's `inputSchema` annotates with
/// `x-mcp-header`, in schema order.
///
/// # Errors
/// [`ToolHeaderError`] when an annotation is invalid: the tool must then be rejected.
pub fn tool_headers(input_schema: RawJson<'_>) -> Result<Vec<(String, String)>, ToolHeaderError> {
    let mut out: Vec<(String, String)> = Vec::new();
    let Some(props) = input_schema.get("properties").and_then(|p| p.object()) else {
        return Ok(out);
    };
    for (prop, schema) in props {
        let Some(header) = schema.get("x-mcp-header") else {
            continue;
        };
        let header = header
            .as_str()
            .map(|h| h.to_cow())
            .filter(|h| !h.is_empty())
            .ok_or(ToolHeaderError::Empty)?;
        if !header.bytes().all(is_tchar) {
            return Err(ToolHeaderError::Charset);
        }
        let ok_type = match schema.get("type") {
            Some(t) if t.kind() == JsonKind::String => {
                t.as_str().is_some_and(|t| primitive(&t.to_cow()))
            }
            Some(t) if t.kind() == JsonKind::Array => t.array().is_some_and(|mut items| {
                items.all(|i| i.as_str().is_some_and(|t| primitive(&t.to_cow())))
            }),
            _ => false,
        };
        if !ok_type {
            return Err(ToolHeaderError::NotPrimitive);
        }
        if out.iter().any(|(_, h)| h.eq_ignore_ascii_case(&header)) {
            return Err(ToolHeaderError::Duplicate);
        }
        out.push((prop.to_cow().into_owned(), header.into_owned()));
    }
    Ok(out)
}

/// The `Mcp-Param-{Name}` headers of a call with `arguments` to a tool annotated with
/// `headers` (from [`tool_headers`]): strings as they are, numbers as their JSON text,
/// booleans as `true`/`false`, each encoded by [`header_value`]; an argument that is absent,
/// `null` or not a primitive gets no header.
#[must_use]
pub fn param_headers(
    headers: &[(String, String)],
    arguments: RawJson<'_>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (prop, header) in headers {
        let Some(v) = arguments.get(prop) else {
            continue;
        };
        let text: Cow<'_, str> = match v.kind() {
            JsonKind::String => match v.as_str() {
                Some(s) => s.to_cow(),
                None => continue,
            },
            JsonKind::Number | JsonKind::Bool => Cow::Borrowed(v.as_text()),
            _ => continue,
        };
        let mut name = String::with_capacity(10 + header.len());
        name.push_str("Mcp-Param-");
        name.push_str(header);
        out.push((name, header_value(&text).into_owned()));
    }
    out
}
