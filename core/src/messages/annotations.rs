//! `Annotations` (DIGEST §14.3): hints on resources, templates and content blocks.

use super::common::{Enc, Priority, Role, fields, next, string};
use super::seq::Seq;
use crate::json::{Encode, JsonSink, JsonStr, RawJson, Writer};
use crate::jsonrpc::{FromJson, ParamsError};

/// Annotations. Decoding enforces `priority` ∈ [0, 1] and `audience` ⊆ {`user`,
/// `assistant`} (DIGEST §16.7 rule 41), each a `-32602` when broken.
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
    fn from_json(v: RawJson<'a>) -> Result<Self, ParamsError> {
        let mut f = fields(v, &["audience", "priority", "lastModified"], "annotations")?;
        let mut a = Self::default();
        while let Some((i, v)) = next(&mut f)? {
            match i {
                0 => {
                    let seq = Seq::decode(v, "audience").map_err(|e| ParamsError {
                        field: "audience",
                        ..e
                    })?;
                    a.audience = Some(seq);
                }
                1 => a.priority = Some(Priority::from_json(v)?),
                _ => a.last_modified = Some(string(v, "lastModified")?),
            }
        }
        Ok(a)
    }
}

impl Encode for Annotations<'_> {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Enc {
        w.begin_object()?;
        w.opt_field("audience", &self.audience)?;
        w.opt_field("priority", &self.priority)?;
        w.opt_field("lastModified", &self.last_modified)?;
        w.end_object()
    }
}
