//! Owned builders (feature `alloc`) for what a server emits: they store `String`s and
//! `Vec`s, borrow themselves as the zero-copy views ([`AsView`]) and encode through the
//! views' encoders, so there is one encoder per message shape.
//!
//! ```
//! use mcp_context::json::to_string;
//! use mcp_context::jsonrpc::OwnedRequestId;
//! use mcp_context::messages::CacheScope;
//! use mcp_context::messages::owned::{OwnedReadResourceResult, OwnedResourceContents, OwnedResponse};
//! let result = OwnedReadResourceResult {
//!     contents: vec![OwnedResourceContents::text("file:///a.txt", Some("text/plain"), "hi")],
//!     ..OwnedReadResourceResult::new(60_000, CacheScope::Private)
//! };
//! let response = OwnedResponse { id: OwnedRequestId::Int(2), result };
//! assert_eq!(to_string(&response).unwrap(),
//!     r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","contents":[{"uri":"file:///a.txt","mimeType":"text/plain","text":"hi"}],"ttlMs":60000,"cacheScope":"private"}}"#);
//! ```

mod from_json;
mod items;
mod notify;
mod results;
mod tool;
#[cfg(feature = "serde")]
mod wire_serde;

pub use from_json::FromJsonText;
pub use items::{
    OwnedAnnotations, OwnedContentBlock, OwnedIcon, OwnedImplementation, OwnedPrompt,
    OwnedPromptArgument, OwnedPromptMessage, OwnedResource, OwnedResourceContents,
    OwnedResourceTemplate,
};
pub use notify::{
    ListKind, OwnedAcknowledged, OwnedCancelled, OwnedErrorData, OwnedErrorResponse,
    OwnedListChanged, OwnedResourceUpdated, OwnedSubscriptionFilter,
};
pub use results::{
    OwnedCompleteResult, OwnedDiscoverResult, OwnedGetPromptResult, OwnedInputRequest,
    OwnedInputRequiredResult, OwnedListPromptsResult, OwnedListResourceTemplatesResult,
    OwnedListResourcesResult, OwnedListResult, OwnedListenResult, OwnedReadResourceResult,
    OwnedResponse, OwnedServerCapabilities,
};
pub use tool::{MAX_TOOL_NAME_LEN, OwnedTool, valid_tool_name};

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::map::MapSource;
use super::seq::SeqSource;
use crate::json::{Encode, EncodeError, JsonError, JsonSink, JsonStr, RawJson, Writer};

/// A validated JSON value that owns its text: `_meta`, `experimental`, input request params.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct OwnedJson(String);

impl OwnedJson {
    /// Validates `text` as one JSON value.
    ///
    /// # Errors
    /// [`JsonError`] when it is not.
    pub fn parse(text: impl Into<String>) -> Result<Self, JsonError> {
        let text: String = text.into();
        RawJson::parse(text.as_bytes())?;
        let trimmed = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
        Ok(Self(if trimmed.len() == text.len() {
            text
        } else {
            String::from(trimmed)
        }))
    }

    /// `{}`
    #[must_use]
    pub fn empty_object() -> Self {
        Self(String::from("{}"))
    }

    /// An owned copy of a validated value (no second validation).
    #[must_use]
    pub(crate) fn from_raw(raw: RawJson<'_>) -> Self {
        Self(String::from(raw.as_text()))
    }

    /// Borrows as a [`RawJson`].
    #[must_use]
    pub fn as_raw(&self) -> RawJson<'_> {
        RawJson::from_validated(&self.0)
    }
}

impl fmt::Debug for OwnedJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An owned value that can lend itself as a zero-copy view.
pub trait AsView {
    /// The view type.
    type View<'a>
    where
        Self: 'a;
    /// Borrows as the view.
    fn view(&self) -> Self::View<'_>;
}

impl AsView for String {
    type View<'a> = JsonStr<'a>;
    fn view(&self) -> JsonStr<'_> {
        JsonStr::new(self)
    }
}

impl<'a, O: AsView> SeqSource<'a, O::View<'a>> for Vec<O> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn item(&'a self, index: usize) -> Option<O::View<'a>> {
        self.get(index).map(AsView::view)
    }
}

impl<'a, O: AsView> MapSource<'a, O::View<'a>> for Vec<(String, O)> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn entry(&'a self, index: usize) -> Option<(JsonStr<'a>, O::View<'a>)> {
        self.get(index).map(|(k, v)| (JsonStr::new(k), v.view()))
    }
}

/// Owned items written as a JSON array, each through its own encoder: static dispatch, no
/// [`SeqSource`] indirection (the results' encoders take it in place of the view's items).
pub(crate) struct Items<'a, O>(pub(crate) &'a [O]);

impl<O: Encode> Encode for Items<'_, O> {
    #[inline]
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.begin_array()?;
        for item in self.0 {
            item.encode(w)?;
        }
        w.end_array()
    }
}

pub(crate) fn opt_str(s: &Option<String>) -> Option<JsonStr<'_>> {
    s.as_deref().map(JsonStr::new)
}

pub(crate) fn opt_raw(j: &Option<OwnedJson>) -> Option<RawJson<'_>> {
    j.as_ref().map(OwnedJson::as_raw)
}

/// Standard base64 (RFC 4648 §4, padded), as `blob` and image/audio `data` require
/// ([`crate::base64`]'s encoder).
#[must_use]
pub fn base64(bytes: &[u8]) -> String {
    use crate::base64::{Alphabet, encode, encoded_len};
    let mut out = alloc::vec![0u8; encoded_len(Alphabet::Standard, bytes.len()).unwrap_or(0)];
    // The buffer has exactly the encoded length and the alphabet is ASCII: neither step can
    // fail; if one did, the result would be empty rather than wrong.
    let n = encode(Alphabet::Standard, bytes, &mut out).unwrap_or(0);
    out.truncate(n);
    String::from_utf8(out).unwrap_or_default()
}
