//! A read's contents handed over as JSON text (`[{uri, mimeType?, text | blob, _meta?}]`), as
//! a runner whose application speaks JSON already has them: [`ReadContents::parse`] checks
//! the text with the same decoder, limits and schema rules as the owned items
//! (`Vec<OwnedResourceContents>`: each item an object with a string `uri` and exactly one of
//! a string `text` / `blob`, docs/rules.md §14.2), and [`Server::respond_read_json`] writes
//! the answer from the text's own spans, building no owned item (docs/rules.md §14.2 item 2).

use super::config::CacheHint;
use super::event::Handle;
use super::machine::Server;
use super::reply::RespondError;
use crate::json::{Cursor, Limits};
use crate::jsonrpc::{DecodeError, ParamsError};
use crate::messages::{ResourceContents, Seq};

/// A read's contents, checked (see the module).
#[derive(Clone, Copy)]
pub struct ReadContents<'a>(Seq<'a, ResourceContents<'a>>);

impl<'a> ReadContents<'a> {
    /// Checks `text`: one JSON value within the default [`Limits`] (depth, size), an array
    /// whose every item decodes as [`ResourceContents`].
    ///
    /// # Errors
    /// [`DecodeError::Json`] (-32700) for text that is not JSON, [`DecodeError::Params`]
    /// (-32602) naming the first field that breaks the schema: the same answers as
    /// `Vec::<OwnedResourceContents>::from_json_text`.
    pub fn parse(text: &'a str) -> Result<Self, DecodeError> {
        let mut c = Cursor::new(text.as_bytes(), Limits::default())?;
        let items = Seq::decode(&mut c, ParamsError::ITEM)?;
        c.finish()?;
        Ok(Self(items))
    }

    /// The number of items.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no items.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Server {
    /// [`Server::respond_read`] (`cache` `None`) or [`Server::respond_read_cached`] with
    /// checked JSON contents: the same answer, written from the text.
    ///
    /// # Errors
    /// [`RespondError::UnknownHandle`], [`RespondError::WrongKind`].
    pub fn respond_read_json(
        &mut self,
        handle: Handle,
        contents: ReadContents<'_>,
        cache: Option<CacheHint>,
    ) -> Result<(), RespondError> {
        let r = match cache {
            Some(hint) => self.answer_read_cached(handle, contents.0, hint),
            None => self.answer_read(handle, contents.0),
        };
        self.settle(handle, r)
    }
}
