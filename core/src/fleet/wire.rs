//! The fleet's wire format (docs/rules.md §23.1): one JSON object per event,
//! `{"v":1,"o":<origin>,"k":<kind>,"u":<uri>}`.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use super::Change;
use crate::json::{JsonSink, Limits, RawJson, Writer};

/// The wire version this core writes. A decoder accepts every version up to it; version 0 is
/// the same object without `"v"` (what the Python broker of releases before the fleet module
/// wrote). A new member or kind does not bump the version (decoders ignore unknown members
/// and skip unknown kinds); a change of meaning does.
pub const WIRE_VERSION: u64 = 1;

/// The largest event accepted (bytes): an origin, a kind and one URI.
pub const MAX_EVENT: usize = 64 * 1024;

/// Why a received event was not applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reject {
    /// Not a JSON object, over [`MAX_EVENT`], or without a string `o` and `k`, or a
    /// `resource_updated` without a string `u`.
    Malformed,
    /// A version above [`WIRE_VERSION`] (a newer instance): skipped.
    Version,
    /// A kind this core does not know (a newer instance's event of this version): skipped.
    Kind,
}

/// One decoded event: who made the change, and the change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message<'a> {
    /// The wire version it was written in (0: without `"v"`).
    pub version: u64,
    /// The origin instance's id.
    pub origin: Cow<'a, str>,
    /// The change.
    pub change: Change<'a>,
}

/// Appends `change`, made by `origin`, as one event to `out` (no allocation beyond `out`'s
/// growth).
pub fn encode_into(origin: &str, change: &Change<'_>, out: &mut Vec<u8>) {
    let mut w = Writer::new(out);
    // Writing into a Vec cannot fail.
    let _ = write(&mut w, origin, change);
}

fn write<S: JsonSink + ?Sized>(
    w: &mut Writer<'_, S>,
    origin: &str,
    change: &Change<'_>,
) -> Result<(), crate::json::EncodeError> {
    w.begin_object()?;
    w.key("v")?;
    w.u64(WIRE_VERSION)?;
    w.key("o")?;
    w.str(origin)?;
    w.key("k")?;
    w.str(change.kind())?;
    if let Change::ResourceUpdated(uri) = change {
        w.key("u")?;
        w.str(uri)?;
    }
    w.end_object()
}

/// Decodes one event (any version up to [`WIRE_VERSION`]), borrowing from `bytes` where the
/// strings carry no escapes.
///
/// # Errors
/// [`Reject`] says why the event cannot be applied; never panics on any input.
pub fn decode(bytes: &[u8]) -> Result<Message<'_>, Reject> {
    let limits = Limits {
        max_len: MAX_EVENT,
        max_depth: 8,
    };
    let value = RawJson::parse_with(bytes, limits).map_err(|_| Reject::Malformed)?;
    value.object().ok_or(Reject::Malformed)?;
    let version = match value.get("v") {
        None => 0,
        Some(v) => v
            .as_number()
            .and_then(|n| n.as_u64())
            .ok_or(Reject::Malformed)?,
    };
    if version > WIRE_VERSION {
        return Err(Reject::Version);
    }
    let text = |key: &str| value.get(key).and_then(|v| v.as_str()).map(|s| s.to_cow());
    let origin = text("o").ok_or(Reject::Malformed)?;
    let kind = value
        .get("k")
        .and_then(|v| v.as_str())
        .ok_or(Reject::Malformed)?;
    if origin.is_empty() {
        return Err(Reject::Malformed);
    }
    let change = if kind.eq_str("resource_updated") {
        Change::ResourceUpdated(text("u").ok_or(Reject::Malformed)?)
    } else if kind.eq_str("resources_list_changed") {
        Change::ResourcesListChanged
    } else if kind.eq_str("prompts_list_changed") {
        Change::PromptsListChanged
    } else if kind.eq_str("tools_list_changed") {
        Change::ToolsListChanged
    } else {
        return Err(Reject::Kind);
    };
    Ok(Message {
        version,
        origin,
        change,
    })
}
