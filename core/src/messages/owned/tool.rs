//! [`OwnedTool`]: a tool definition (`Tool`), checked once when it is built.
//!
//! A tool is described in its wire shape (the host's JSON: `name`, `title`, `description`,
//! `inputSchema`, `outputSchema`, `annotations`, `icons`, `_meta`), validated against the
//! schema's `Tool` and the spec's naming rule (docs/rules.md §20.1), and kept as that text: the
//! machine lists it as it was given. Schemas are JSON Schema objects the core does not
//! interpret beyond their root (`inputSchema.type` is `"object"`).

use alloc::string::String;

use super::OwnedJson;
use super::from_json::FromJsonText;
use crate::json::{Encode, EncodeError, JsonKind, JsonSink, RawJson, Writer};
use crate::jsonrpc::{DecodeError, FromJson, ParamsError, ParamsErrorKind};
use crate::messages::Icon;

/// Longest tool name (Tools › Tool names: 1 to 128 characters).
pub const MAX_TOOL_NAME_LEN: usize = 128;

/// A validated tool definition (`Tool`), as the host gave it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OwnedTool {
    name: String,
    json: OwnedJson,
}

impl OwnedTool {
    /// The tool's `name` (its key in the registry and in `tools/call`).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The whole definition, as given.
    #[must_use]
    pub fn as_json(&self) -> &OwnedJson {
        &self.json
    }

    /// `inputSchema` (an object whose `type` is `"object"`).
    #[must_use]
    pub fn input_schema(&self) -> Option<RawJson<'_>> {
        self.json.as_raw().get("inputSchema")
    }

    /// `outputSchema`, when the tool declares one.
    #[must_use]
    pub fn output_schema(&self) -> Option<RawJson<'_>> {
        self.json.as_raw().get("outputSchema")
    }

    /// Checks `json` as a `Tool`.
    ///
    /// # Errors
    /// [`ParamsError`] naming the first member that breaks the schema or the naming rule.
    pub fn from_owned_json(json: OwnedJson) -> Result<Self, ParamsError> {
        let name = check(json.as_raw())?;
        Ok(Self { name, json })
    }
}

/// Whether `name` follows the spec's tool-name rule (Tools › Tool names): 1 to 128
/// characters, each an ASCII letter or digit, `_`, `-` or `.`.
#[must_use]
pub fn valid_tool_name(name: &str) -> bool {
    (1..=MAX_TOOL_NAME_LEN).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

fn err(kind: ParamsErrorKind, field: &'static str) -> ParamsError {
    ParamsError::new(kind, field)
}

fn object_member(v: RawJson<'_>, field: &'static str) -> Result<(), ParamsError> {
    match v.kind() {
        JsonKind::Object => Ok(()),
        _ => Err(err(ParamsErrorKind::WrongType, field)),
    }
}

fn string_member(v: RawJson<'_>, field: &'static str) -> Result<(), ParamsError> {
    v.as_str()
        .map(|_| ())
        .ok_or(err(ParamsErrorKind::WrongType, field))
}

/// A JSON Schema root: an object whose `$schema`, when present, is a string.
fn schema_root(
    v: RawJson<'_>,
    field: &'static str,
    schema: &'static str,
) -> Result<(), ParamsError> {
    object_member(v, field)?;
    match v.get("$schema") {
        Some(s) => string_member(s, schema),
        None => Ok(()),
    }
}

/// The `Tool` checks; the name on success.
fn check(v: RawJson<'_>) -> Result<String, ParamsError> {
    let members = v.object().ok_or(err(ParamsErrorKind::WrongType, "tool"))?;
    let (mut name, mut input) = (None, false);
    for (k, m) in members {
        let key = k.to_cow();
        match &*key {
            "name" => {
                let n = m.as_str().ok_or(err(ParamsErrorKind::WrongType, "name"))?;
                let n = n.to_cow().into_owned();
                if !valid_tool_name(&n) {
                    return Err(err(ParamsErrorKind::UnknownValue, "name"));
                }
                name = Some(n);
            }
            "title" => string_member(m, "title")?,
            "description" => string_member(m, "description")?,
            "inputSchema" => {
                schema_root(m, "inputSchema", "inputSchema.$schema")?;
                let object = m.get("type").and_then(|t| t.as_str());
                if !object.is_some_and(|t| t.eq_str("object")) {
                    return Err(err(ParamsErrorKind::UnknownValue, "inputSchema.type"));
                }
                input = true;
            }
            "outputSchema" => schema_root(m, "outputSchema", "outputSchema.$schema")?,
            "annotations" => annotations(m)?,
            "icons" => {
                let items = m.array().ok_or(err(ParamsErrorKind::WrongType, "icons"))?;
                for icon in items {
                    Icon::from_json(icon)?;
                }
            }
            "_meta" => object_member(m, "_meta")?,
            _ => {}
        }
    }
    if !input {
        return Err(err(ParamsErrorKind::Missing, "inputSchema"));
    }
    name.ok_or(err(ParamsErrorKind::Missing, "name"))
}

/// `ToolAnnotations`: `title` a string, the four hints booleans.
fn annotations(v: RawJson<'_>) -> Result<(), ParamsError> {
    let members = v
        .object()
        .ok_or(err(ParamsErrorKind::WrongType, "annotations"))?;
    for (k, m) in members {
        let key = k.to_cow();
        let field = match &*key {
            "title" => {
                string_member(m, "annotations.title")?;
                continue;
            }
            "readOnlyHint" => "annotations.readOnlyHint",
            "destructiveHint" => "annotations.destructiveHint",
            "idempotentHint" => "annotations.idempotentHint",
            "openWorldHint" => "annotations.openWorldHint",
            _ => continue,
        };
        if m.as_bool().is_none() {
            return Err(err(ParamsErrorKind::WrongType, field));
        }
    }
    Ok(())
}

impl FromJsonText for OwnedTool {
    fn from_json_text(text: &str) -> Result<Self, DecodeError> {
        let json = OwnedJson::parse(text)?;
        Ok(Self::from_owned_json(json)?)
    }
}

impl Encode for OwnedTool {
    fn encode<S: JsonSink + ?Sized>(&self, w: &mut Writer<'_, S>) -> Result<(), EncodeError> {
        w.raw(self.json.as_raw())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_spec_rule() {
        for ok in [
            "echo",
            "get_user",
            "DATA_EXPORT_v2",
            "admin.tools.list",
            "a-b",
        ] {
            assert!(valid_tool_name(ok), "{ok}");
        }
        let long = "x".repeat(MAX_TOOL_NAME_LEN + 1);
        for bad in ["", "a b", "a,b", "é", "a/b", long.as_str()] {
            assert!(!valid_tool_name(bad), "{bad}");
        }
        assert!(valid_tool_name(&long[1..]));
    }

    #[test]
    fn definitions_are_checked_against_the_schema() {
        let ok = r#"{"name":"echo","title":"Echo","inputSchema":{"type":"object"},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"title":"E"},"icons":[{"src":"https://x/i.png"}],"_meta":{},"x-vendor":1}"#;
        let t = OwnedTool::from_json_text(ok).unwrap();
        assert_eq!(t.name(), "echo");
        assert!(t.output_schema().is_some());
        let field = |text: &str| match OwnedTool::from_json_text(text) {
            Err(DecodeError::Params(p)) => p.field,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(field(r#"{"inputSchema":{"type":"object"}}"#), "name");
        assert_eq!(
            field(r#"{"name":"a b","inputSchema":{"type":"object"}}"#),
            "name"
        );
        assert_eq!(field(r#"{"name":"a"}"#), "inputSchema");
        assert_eq!(
            field(r#"{"name":"a","inputSchema":{}}"#),
            "inputSchema.type"
        );
        assert_eq!(
            field(r#"{"name":"a","inputSchema":{"type":"array"}}"#),
            "inputSchema.type"
        );
        assert_eq!(
            field(r#"{"name":"a","inputSchema":{"type":"object","$schema":1}}"#),
            "inputSchema.$schema"
        );
        assert_eq!(
            field(r#"{"name":"a","inputSchema":{"type":"object"},"outputSchema":[]}"#),
            "outputSchema"
        );
        assert_eq!(
            field(r#"{"name":"a","inputSchema":{"type":"object"},"title":1}"#),
            "title"
        );
        assert_eq!(
            field(
                r#"{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":"yes"}}"#
            ),
            "annotations.readOnlyHint"
        );
        assert_eq!(
            field(r#"{"name":"a","inputSchema":{"type":"object"},"icons":[{}]}"#),
            "src"
        );
        assert_eq!(
            field(r#"{"name":"a","inputSchema":{"type":"object"},"_meta":1}"#),
            "_meta"
        );
        assert!(matches!(
            OwnedTool::from_json_text("{"),
            Err(DecodeError::Json(_))
        ));
        assert_eq!(field("[]"), "tool");
    }
}
