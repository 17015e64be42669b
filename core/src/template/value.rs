//! Variable values for expansion (RFC 6570 §2.3: strings, lists, associative arrays).

/// The value of one template variable.
///
/// RFC 6570 treats an empty list and an empty associative array as *undefined*; so does the
/// expander. A variable that is absent from the [`Variables`] is undefined too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value<'v> {
    /// A string value.
    Str(&'v str),
    /// A list of strings.
    List(&'v [&'v str]),
    /// An associative array: ordered `(name, value)` pairs.
    Assoc(&'v [(&'v str, &'v str)]),
}

impl Value<'_> {
    /// Whether RFC 6570 treats this value as undefined (an empty list or associative array).
    #[must_use]
    pub fn is_undefined(&self) -> bool {
        match self {
            Self::Str(_) => false,
            Self::List(l) => l.is_empty(),
            Self::Assoc(a) => a.is_empty(),
        }
    }
}

/// A source of variable values, looked up by name exactly as written in the template.
pub trait Variables {
    /// The value of `name`, or `None` when undefined.
    fn get(&self, name: &str) -> Option<Value<'_>>;
}

impl Variables for [(&str, Value<'_>)] {
    fn get(&self, name: &str) -> Option<Value<'_>> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

impl<const N: usize> Variables for [(&str, Value<'_>); N] {
    fn get(&self, name: &str) -> Option<Value<'_>> {
        Variables::get(self.as_slice(), name)
    }
}

/// String-only variables, the common MCP case (`[("owner", "acme"), ("repo", "web")]`).
impl Variables for [(&str, &str)] {
    fn get(&self, name: &str) -> Option<Value<'_>> {
        self.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| Value::Str(v))
    }
}

impl<const N: usize> Variables for [(&str, &str); N] {
    fn get(&self, name: &str) -> Option<Value<'_>> {
        Variables::get(self.as_slice(), name)
    }
}

impl<V: Variables + ?Sized> Variables for &V {
    fn get(&self, name: &str) -> Option<Value<'_>> {
        (**self).get(name)
    }
}

#[cfg(feature = "alloc")]
impl<K: core::borrow::Borrow<str> + Ord> Variables for alloc::collections::BTreeMap<K, Value<'_>> {
    fn get(&self, name: &str) -> Option<Value<'_>> {
        alloc::collections::BTreeMap::get(self, name).copied()
    }
}
