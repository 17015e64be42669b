//! `UriTemplate`: an RFC 6570 template parsed once, then expanded with Swift values
//! (docs/rules.md §6, `ResourceTemplate.uriTemplate`).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use mcp_context::template::{Modifier, OwnedTemplate, OwnedValue, OwnedVariables};

use crate::errors::TemplateError;

/// A parsed RFC 6570 URI template (levels 1–4). Immutable and thread-safe.
#[derive(Debug, uniffi::Object)]
#[uniffi::export(Display, Eq, Hash)]
pub struct UriTemplate {
    inner: OwnedTemplate,
}

#[uniffi::export]
impl UriTemplate {
    /// Parses `source`; throws `TemplateError.parse(kind:byteOffset:)`.
    #[uniffi::constructor]
    pub fn new(source: String) -> Result<Arc<Self>, TemplateError> {
        let inner = OwnedTemplate::parse(&source)?;
        Ok(Arc::new(Self { inner }))
    }

    /// The template source, as given.
    pub fn source(&self) -> String {
        self.inner.source().into()
    }

    /// Every varspec in template order (a name used twice appears twice).
    pub fn variables(&self) -> Vec<TemplateVariable> {
        self.inner.variables().map(TemplateVariable::from).collect()
    }

    /// Expands the template (RFC 6570 §3). A missing name, an empty list and an empty
    /// dictionary are undefined. Throws `TemplateError.prefixOnComposite` for `{x:3}` when
    /// `x` is a list or dictionary.
    pub fn expand(&self, vars: HashMap<String, TemplateValue>) -> Result<String, TemplateError> {
        let vars: OwnedVariables = vars
            .into_iter()
            .map(|(n, v)| (n, OwnedValue::from(v)))
            .collect();
        Ok(vars.expand(self.inner.as_ref())?)
    }
}

impl std::fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.inner.source())
    }
}

/// Two templates are equal when their sources are (the parts follow from the source).
impl PartialEq for UriTemplate {
    fn eq(&self, other: &Self) -> bool {
        self.inner.source() == other.inner.source()
    }
}

impl Eq for UriTemplate {}

impl Hash for UriTemplate {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.inner.source().hash(state);
    }
}

/// The value of one template variable (RFC 6570 §2.3).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum TemplateValue {
    /// A string.
    String(String),
    /// A list of strings.
    List(Vec<String>),
    /// An associative array; expansion keeps this order.
    Dict(Vec<TemplatePair>),
}

/// One `(key, value)` entry of a [`TemplateValue::Dict`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct TemplatePair {
    /// The key.
    pub key: String,
    /// The value.
    pub value: String,
}

/// One varspec of a template: a name, its modifier, and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct TemplateVariable {
    /// The name exactly as written (pct-encoded triplets kept).
    pub name: String,
    /// `:n` or `*`; `nil` when there is none.
    pub modifier: Option<TemplateModifier>,
    /// Position of the name, in bytes from the start of the source.
    pub byte_offset: u64,
}

/// A value modifier (RFC 6570 §2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum TemplateModifier {
    /// `:n`: keep the first `max_length` characters (1..=9999).
    Prefix {
        /// The prefix length in characters.
        max_length: u16,
    },
    /// `*`: explode a list or dictionary.
    Explode,
}

impl From<mcp_context::template::VarSpec<'_>> for TemplateVariable {
    fn from(v: mcp_context::template::VarSpec<'_>) -> Self {
        Self {
            name: v.name.into(),
            modifier: match v.modifier {
                Modifier::None => None,
                Modifier::Prefix(max_length) => Some(TemplateModifier::Prefix { max_length }),
                Modifier::Explode => Some(TemplateModifier::Explode),
            },
            byte_offset: u64::try_from(v.at).unwrap_or(u64::MAX),
        }
    }
}

impl From<TemplateValue> for OwnedValue {
    fn from(value: TemplateValue) -> Self {
        match value {
            TemplateValue::String(s) => Self::Str(s),
            TemplateValue::List(l) => Self::List(l),
            TemplateValue::Dict(d) => {
                Self::Assoc(d.into_iter().map(|p| (p.key, p.value)).collect())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{TemplateModifier, TemplatePair, TemplateValue, TemplateVariable, UriTemplate};
    use crate::errors::TemplateError;
    use std::collections::HashMap;

    fn vars(pairs: &[(&str, TemplateValue)]) -> HashMap<String, TemplateValue> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect()
    }

    #[test]
    fn expands_strings_lists_and_ordered_dicts() {
        let t = UriTemplate::new("/s{?q,tags,keys*}".into()).unwrap();
        let keys = TemplateValue::Dict(vec![
            TemplatePair {
                key: "semi".into(),
                value: ";".into(),
            },
            TemplatePair {
                key: "dot".into(),
                value: ".".into(),
            },
        ]);
        let got = t
            .expand(vars(&[
                ("q", TemplateValue::String("café".into())),
                ("tags", TemplateValue::List(vec!["a".into(), "b".into()])),
                ("keys", keys),
            ]))
            .unwrap();
        assert_eq!(got, "/s?q=caf%C3%A9&tags=a,b&semi=%3B&dot=.");
    }

    #[test]
    fn variables_and_prefix_on_composite() {
        let t = UriTemplate::new("{a:3}{/b*}".into()).unwrap();
        assert_eq!(
            t.variables(),
            [
                TemplateVariable {
                    name: "a".into(),
                    modifier: Some(TemplateModifier::Prefix { max_length: 3 }),
                    byte_offset: 1,
                },
                TemplateVariable {
                    name: "b".into(),
                    modifier: Some(TemplateModifier::Explode),
                    byte_offset: 7,
                },
            ]
        );
        let err = t
            .expand(vars(&[("a", TemplateValue::List(vec!["x".into()]))]))
            .unwrap_err();
        assert_eq!(err, TemplateError::PrefixOnComposite { byte_offset: 1 });
    }
}
