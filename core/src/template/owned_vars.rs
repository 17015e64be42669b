//! Owned variable values (feature `alloc`), for hosts whose values arrive as owned strings:
//! the Python, Node and Swift bindings convert into [`OwnedVariables`] and expand through it,
//! so the borrowing glue lives here once.

use super::TemplateRef;
use super::error::ExpandError;
use super::value::{Value, Variables};
use alloc::string::String;
use alloc::vec::Vec;

/// An owned template value: a string, a list, or an ordered associative array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnedValue {
    /// A string value.
    Str(String),
    /// A list of strings.
    List(Vec<String>),
    /// An associative array: ordered `(name, value)` pairs.
    Assoc(Vec<(String, String)>),
}

/// Owned variables by name, in insertion order; inserting a name again replaces its value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OwnedVariables {
    entries: Vec<(String, OwnedValue)>,
}

/// The borrowed form of one [`OwnedValue`]: what [`Value`] needs to point at.
enum Borrowed<'a> {
    Str(&'a str),
    List(Vec<&'a str>),
    Assoc(Vec<(&'a str, &'a str)>),
}

struct View<'a>(Vec<(&'a str, Borrowed<'a>)>);

impl Variables for View<'_> {
    fn get(&self, name: &str) -> Option<Value<'_>> {
        self.0
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| match v {
                Borrowed::Str(s) => Value::Str(s),
                Borrowed::List(l) => Value::List(l),
                Borrowed::Assoc(a) => Value::Assoc(a),
            })
    }
}

impl OwnedVariables {
    /// No variables.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `name` to `value`, replacing an earlier value of the same name.
    pub fn insert(&mut self, name: impl Into<String>, value: OwnedValue) {
        let name = name.into();
        match self.entries.iter_mut().find(|(n, _)| *n == name) {
            Some((_, slot)) => *slot = value,
            None => self.entries.push((name, value)),
        }
    }

    /// Unsets `name` (it becomes undefined); returns its value.
    pub fn remove(&mut self, name: &str) -> Option<OwnedValue> {
        let i = self.entries.iter().position(|(n, _)| n == name)?;
        Some(self.entries.remove(i).1)
    }

    /// The value of `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&OwnedValue> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// How many variables are set.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no variable is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Expands `template` with these variables into a new `String`.
    ///
    /// # Errors
    /// [`ExpandError::PrefixOnComposite`].
    pub fn expand(&self, template: TemplateRef<'_>) -> Result<String, ExpandError> {
        let view = View(
            self.entries
                .iter()
                .map(|(n, v)| {
                    let b = match v {
                        OwnedValue::Str(s) => Borrowed::Str(s),
                        OwnedValue::List(l) => {
                            Borrowed::List(l.iter().map(String::as_str).collect())
                        }
                        OwnedValue::Assoc(a) => Borrowed::Assoc(
                            a.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect(),
                        ),
                    };
                    (n.as_str(), b)
                })
                .collect(),
        );
        let mut out = String::new();
        template.expand(&view, &mut out)?;
        Ok(out)
    }
}

impl<N: Into<String>> FromIterator<(N, OwnedValue)> for OwnedVariables {
    fn from_iter<I: IntoIterator<Item = (N, OwnedValue)>>(iter: I) -> Self {
        let mut vars = Self::new();
        for (n, v) in iter {
            vars.insert(n, v);
        }
        vars
    }
}

#[cfg(test)]
mod tests {
    use super::{OwnedValue, OwnedVariables};
    use crate::template::OwnedTemplate;
    use alloc::string::String;
    use alloc::vec;

    #[test]
    fn expands_owned_values() {
        let t = OwnedTemplate::parse("x{/seg*}{?q,keys*}").unwrap();
        let mut vars: OwnedVariables = [
            (
                "seg",
                OwnedValue::List(vec![String::from("a"), String::from("b c")]),
            ),
            ("q", OwnedValue::Str(String::from("old"))),
        ]
        .into_iter()
        .collect();
        vars.insert("q", OwnedValue::Str(String::from("café")));
        vars.insert(
            "keys",
            OwnedValue::Assoc(vec![(String::from("k"), String::from("v"))]),
        );
        assert_eq!(vars.len(), 3);
        vars.insert("gone", OwnedValue::Str(String::from("x")));
        assert_eq!(
            vars.remove("gone"),
            Some(OwnedValue::Str(String::from("x")))
        );
        assert_eq!(vars.remove("gone"), None);
        assert_eq!(
            vars.expand(t.as_ref()).unwrap(),
            "x/a/b%20c?q=caf%C3%A9&k=v"
        );
        let p = OwnedTemplate::parse("{seg:1}").unwrap();
        assert!(vars.expand(p.as_ref()).is_err());
    }
}
