//! `notifications/resources/updated` fan-out: one resource changed, many subscriptions want
//! to hear it (the 2026-07-28 spec, "Subscriptions": each notification on a listen stream
//! carries that stream's `io.modelcontextprotocol/subscriptionId` in `_meta`). The message is
//! encoded once; each subscription's copy is the encoded prefix, its id, and the suffix.

use super::meta::NotificationMeta;
use super::notifications::ResourceUpdatedParams;
use crate::json::{EncodeError, JsonSink, JsonStr, SliceSink, Writer, to_slice};
use crate::jsonrpc::{RequestId, TypedNotification};

/// The id written into the hole while encoding: one byte, found again by its key.
const HOLE_KEY: &[u8] = b"\"io.modelcontextprotocol/subscriptionId\":0";

/// A `notifications/resources/updated` message encoded once for many subscriptions, in a
/// caller's buffer (no allocation).
///
/// ```
/// use mcp_context::json::JsonStr;
/// use mcp_context::jsonrpc::RequestId;
/// use mcp_context::messages::ResourceUpdatedFanOut;
///
/// let mut buf = [0u8; 256];
/// let fan = ResourceUpdatedFanOut::new(JsonStr::new("file:///notes.md"), &mut buf).unwrap();
/// let mut out = [0u8; 256];
/// let n = fan.to_slice(RequestId::Int(7), &mut out).unwrap();
/// assert_eq!(
///     &out[..n],
///     br#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"uri":"file:///notes.md"}}"#
/// );
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ResourceUpdatedFanOut<'b> {
    prefix: &'b str,
    suffix: &'b str,
}

impl<'b> ResourceUpdatedFanOut<'b> {
    /// Encodes the notification for `uri` into `buf`.
    ///
    /// # Errors
    /// [`EncodeError::BufferTooSmall`] when `buf` cannot hold the message (with a one-byte id).
    pub fn new(uri: JsonStr<'_>, buf: &'b mut [u8]) -> Result<Self, EncodeError> {
        let message = TypedNotification {
            params: ResourceUpdatedParams {
                meta: Some(NotificationMeta::subscription(RequestId::Int(0))),
                uri,
            },
        };
        let len = to_slice(&message, buf)?;
        let text = buf.get(..len).unwrap_or_default();
        // `_meta` precedes `uri`, so the first occurrence of the key is the hole.
        let hole = text
            .windows(HOLE_KEY.len())
            .position(|w| w == HOLE_KEY)
            .map(|at| at + HOLE_KEY.len() - 1)
            .ok_or(EncodeError::InvalidValue { what: &"uri" })?;
        let text = core::str::from_utf8(text).map_err(|_| EncodeError::Write)?;
        Ok(Self {
            prefix: text.get(..hole).unwrap_or_default(),
            suffix: text.get(hole + 1..).unwrap_or_default(),
        })
    }

    /// Writes the copy for the subscription `id` into `sink`.
    ///
    /// # Errors
    /// When the sink fails, or `id` is a [`RequestId::BigInt`] that is not an integer.
    pub fn write<S: JsonSink + ?Sized>(
        &self,
        id: RequestId<'_>,
        sink: &mut S,
    ) -> Result<(), EncodeError> {
        sink.put(self.prefix)?;
        crate::json::Encode::encode(&id, &mut Writer::new(sink))?;
        sink.put(self.suffix)
    }

    /// Writes the copy for `id` into `out`; returns its length.
    ///
    /// # Errors
    /// [`EncodeError::BufferTooSmall`] with the length needed.
    pub fn to_slice(&self, id: RequestId<'_>, out: &mut [u8]) -> Result<usize, EncodeError> {
        let mut sink = SliceSink::new(out);
        self.write(id, &mut sink)?;
        sink.finish()
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use crate::json::to_string;

    fn direct(uri: JsonStr<'_>, id: RequestId<'_>) -> alloc::string::String {
        to_string(&TypedNotification {
            params: ResourceUpdatedParams {
                meta: Some(NotificationMeta::subscription(id)),
                uri,
            },
        })
        .unwrap()
    }

    #[test]
    fn every_copy_equals_the_message_encoded_for_its_id() {
        let uris = [
            JsonStr::new("file:///a.md"),
            JsonStr::new("x://\"quoted\"/\u{1}\\/0"),
            JsonStr::new("x://io.modelcontextprotocol/subscriptionId\":0"),
        ];
        let ids = [
            RequestId::Int(0),
            RequestId::Int(-42),
            RequestId::Int(i64::MAX),
            RequestId::Str(JsonStr::new("listen-\"7\"")),
            RequestId::BigInt("123456789012345678901234567890"),
        ];
        let mut buf = [0u8; 512];
        let mut out = [0u8; 512];
        for uri in uris {
            let fan = ResourceUpdatedFanOut::new(uri, &mut buf).unwrap();
            for id in ids {
                let n = fan.to_slice(id, &mut out).unwrap();
                assert_eq!(core::str::from_utf8(&out[..n]).unwrap(), direct(uri, id));
            }
        }
    }

    #[test]
    fn small_buffers_are_errors_not_panics() {
        let uri = JsonStr::new("file:///a.md");
        let mut buf = [0u8; 512];
        for len in 0..120 {
            let mut small = [0u8; 120];
            let _ = ResourceUpdatedFanOut::new(uri, &mut small[..len]);
        }
        let fan = ResourceUpdatedFanOut::new(uri, &mut buf).unwrap();
        let need = fan.to_slice(RequestId::Int(5), &mut [0u8; 512]).unwrap();
        assert_eq!(
            fan.to_slice(RequestId::Int(5), &mut [0u8; 10]),
            Err(EncodeError::BufferTooSmall { needed: need })
        );
    }
}
