//! `Annotations` (docs/rules.md §14.3): hints on resources, templates and content blocks.

use super::common::{Enc, Priority, Role, obj, string};
use super::seq::Seq;
use crate::json::fields::keys;
use crate::json::key;
use crate::json::{Cursor, Encode, JsonSink, JsonStr, Writer};
use crate::jsonrpc::{DecodeError, FromJson, ParamsError};

/// Annotations. Decoding enforces `priority` ∈ [0, 1] and `audience` ⊆ {`user`,
/// `assistant`} (docs/rules.md §16.7 rule 41), each a `-32602` when broken.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Annotations<'a> {
    /// `audience`: who the item is for.
    pub audience: Option<Seq<'a, Role>>,
    /// `priority`: 1 = most important, 0 = entirely optional.
    pub priority: Option<Priority>,
    /// `lastModified`: an ISO 8601 timestamp (not checked: the schema has no `format`).
    pub last_modified: Option<JsonStr<'a>>,
}

impl<'a> FromJson<'a> for Annotations<'a> {
    fn decode(c: &mut Cursor<'a>) -> Result<Self, DecodeError> {
        let mut f = obj(
            c,
            keys!["audience", "priority", "lastModified"],
            "annotations",
        )?;
        let mut a = Self::default();
        while let Some(i) = f.next(c)? {
            match i {
                0 => {
                    let seq = Seq::decode(c, "audience").map_err(|e| match e {
                        DecodeError::Params(p) => ParamsError {
                            field: "audience",
                            ..p
                        }
                        .into(),
                        other => other,
                    })?;
                    a.audience = Some(seq);
                }
                1 => a.priority = Some(Priority::decode(c)?),
                _ => a.last_modified = Some(string(c, "lastModified")?),
            }
        }
        Ok(a)
    }
}

impl Encode for Annotations<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.opt_member(key!("audience"), &self.audience)?;
        w.opt_member(key!("priority"), &self.priority)?;
        w.opt_member(key!("lastModified"), &self.last_modified)?;
        w.end_object()
    }
}
