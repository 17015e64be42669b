//! The `error` member of an error response, with typed `data` for the codes whose data the
//! spec fixes (docs/rules.md §1.4): -32022 (`supported`, `requested`), -32021
//! (`requiredCapabilities`), and resource not found (-32602 or legacy -32002, `uri`).

use super::error::{EnvelopeError, ParamsError};
use crate::error_code::ErrorCode;
use crate::json::fields::Fields;
use crate::json::key;
use crate::json::{Encode, EncodeError, JsonSink, JsonStr, RawJson, Writer};
use crate::messages::{ClientCapabilities, Seq};

/// The `data` of an error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ErrorData<'a> {
    /// No `data`.
    None,
    /// `data` as received, or any value to pass through.
    Raw(RawJson<'a>),
    /// -32022: `{supported, requested}` (docs/rules.md §2, §16.1 rule 3).
    UnsupportedProtocolVersion {
        /// `supported`: the versions the server serves.
        supported: Seq<'a, JsonStr<'a>>,
        /// `requested`: the version the client asked for, echoed.
        requested: JsonStr<'a>,
    },
    /// -32021: `{requiredCapabilities}` (an object, not an array; docs/rules.md §1.1).
    MissingRequiredClientCapability {
        /// `requiredCapabilities`
        required: ClientCapabilities<'a>,
    },
    /// Resource not found: `{uri}` (docs/rules.md §7, SEP-2164).
    ResourceNotFound {
        /// `uri`
        uri: JsonStr<'a>,
    },
}

/// A JSON-RPC error object: `code`, `message`, optional `data`.
///
/// ```
/// use mcp_context::jsonrpc::{ErrorData, ErrorObject};
/// use mcp_context::json::{to_string, JsonStr};
/// use mcp_context::messages::Seq;
/// let supported = [JsonStr::new("2026-07-28")];
/// let e = ErrorObject::unsupported_protocol_version(Seq::from_slice(&supported), "1900-01-01");
/// assert_eq!(to_string(&e).unwrap(),
///     r#"{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ErrorObject<'a> {
    /// `code`
    pub code: ErrorCode,
    /// `message`: one concise sentence.
    pub message: JsonStr<'a>,
    /// `data`
    pub data: ErrorData<'a>,
}

impl<'a> ErrorObject<'a> {
    /// An error without data.
    #[must_use]
    pub const fn new(code: ErrorCode, message: &'a str) -> Self {
        Self {
            code,
            message: JsonStr::new(message),
            data: ErrorData::None,
        }
    }

    /// -32022 with `data.supported` / `data.requested`.
    #[must_use]
    pub const fn unsupported_protocol_version(
        supported: Seq<'a, JsonStr<'a>>,
        requested: &'a str,
    ) -> Self {
        Self {
            code: ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
            message: JsonStr::new("Unsupported protocol version"),
            data: ErrorData::UnsupportedProtocolVersion {
                supported,
                requested: JsonStr::new(requested),
            },
        }
    }

    /// -32021 with `data.requiredCapabilities`.
    #[must_use]
    pub const fn missing_required_client_capability(required: ClientCapabilities<'a>) -> Self {
        Self {
            code: ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
            message: JsonStr::new("Missing required client capability"),
            data: ErrorData::MissingRequiredClientCapability { required },
        }
    }

    /// -32602 "Resource not found" with `data.uri` (never the legacy -32002, docs/rules.md §16.1
    /// rule 9).
    #[must_use]
    pub const fn resource_not_found(uri: JsonStr<'a>) -> Self {
        Self {
            code: ErrorCode::INVALID_PARAMS,
            message: JsonStr::new("Resource not found"),
            data: ErrorData::ResourceNotFound { uri },
        }
    }

    pub(crate) fn from_json(v: RawJson<'a>) -> Result<Self, EnvelopeError> {
        let bad = EnvelopeError::InvalidErrorObject;
        let mut f = Fields::new(v, &["code", "message", "data"]).ok_or(bad)?;
        let (mut code, mut message, mut data) = (None, None, ErrorData::None);
        while let Some((i, v)) = f.next_known().map_err(EnvelopeError::DuplicateMember)? {
            match i {
                0 => {
                    let n = v
                        .as_number()
                        .filter(|n| n.is_integer_literal())
                        .ok_or(bad)?;
                    code = Some(ErrorCode(if crate::WIDE {
                        n.as_str().parse().map_err(|_| bad)?
                    } else {
                        // The digit loop request ids use (same answer as `parse`).
                        super::id::digits_i64(n.as_str())
                            .and_then(|c| i32::try_from(c).ok())
                            .ok_or(bad)?
                    }));
                }
                1 => message = Some(v.as_str().ok_or(bad)?),
                _ => data = ErrorData::Raw(v),
            }
        }
        Ok(Self {
            code: code.ok_or(bad)?,
            message: message.ok_or(bad)?,
            data,
        })
    }

    /// Decodes a bare error object (as in the schema's `Error` examples).
    ///
    /// # Errors
    /// [`EnvelopeError::InvalidErrorObject`] when `code` or `message` is missing or mistyped.
    pub fn decode(v: RawJson<'a>) -> Result<Self, EnvelopeError> {
        Self::from_json(v)
    }

    /// Whether this error means "resource not found": -32602 with `data.uri`, or the legacy
    /// -32002 a client SHOULD still accept (docs/rules.md §7, §17.2).
    #[must_use]
    pub fn is_resource_not_found(&self) -> bool {
        match self.code {
            ErrorCode::LEGACY_RESOURCE_NOT_FOUND => true,
            ErrorCode::INVALID_PARAMS => {
                matches!(self.details(), Ok(ErrorData::ResourceNotFound { .. }))
            }
            _ => false,
        }
    }

    /// Interprets `data` by `code`: -32022 and -32021 must carry their typed data (the
    /// schema requires it); -32602/-32002 data with a string `uri` is a not-found; anything
    /// else stays raw.
    ///
    /// # Errors
    /// [`ParamsError`] when -32022/-32021 data is missing or malformed.
    pub fn details(&self) -> Result<ErrorData<'a>, ParamsError> {
        let ErrorData::Raw(data) = self.data else {
            return Ok(self.data);
        };
        match self.code {
            ErrorCode::UNSUPPORTED_PROTOCOL_VERSION => {
                let supported = data
                    .get("supported")
                    .ok_or(ParamsError::missing("supported"))?;
                let requested = data
                    .get("requested")
                    .ok_or(ParamsError::missing("requested"))?;
                Ok(ErrorData::UnsupportedProtocolVersion {
                    supported: Seq::decode_raw(supported, "supported")?,
                    requested: requested
                        .as_str()
                        .ok_or(ParamsError::wrong_type("requested"))?,
                })
            }
            ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY => {
                let caps = data
                    .get("requiredCapabilities")
                    .ok_or(ParamsError::missing("requiredCapabilities"))?;
                Ok(ErrorData::MissingRequiredClientCapability {
                    required: ClientCapabilities::decode_raw(caps, "requiredCapabilities")?,
                })
            }
            ErrorCode::INVALID_PARAMS | ErrorCode::LEGACY_RESOURCE_NOT_FOUND => {
                match data.get("uri").and_then(|u| u.as_str()) {
                    Some(uri) => Ok(ErrorData::ResourceNotFound { uri }),
                    None => Ok(self.data),
                }
            }
            _ => Ok(self.data),
        }
    }
}

impl Encode for ErrorObject<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.begin_object()?;
        w.key_of(key!("code"))?;
        w.i64(i64::from(self.code.code()))?;
        w.member(key!("message"), &self.message)?;
        match &self.data {
            ErrorData::None => {}
            ErrorData::Raw(v) => w.member(key!("data"), v)?,
            ErrorData::UnsupportedProtocolVersion {
                supported,
                requested,
            } => {
                w.key_of(key!("data"))?;
                w.begin_object()?;
                w.member(key!("supported"), supported)?;
                w.member(key!("requested"), requested)?;
                w.end_object()?;
            }
            ErrorData::MissingRequiredClientCapability { required } => {
                w.key_of(key!("data"))?;
                w.begin_object()?;
                w.member(key!("requiredCapabilities"), required)?;
                w.end_object()?;
            }
            ErrorData::ResourceNotFound { uri } => {
                w.key_of(key!("data"))?;
                w.begin_object()?;
                w.member(key!("uri"), uri)?;
                w.end_object()?;
            }
        }
        w.end_object()
    }
}
