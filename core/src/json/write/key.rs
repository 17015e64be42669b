//! [`Key`]: an object key encoded once, at compile time, with its separators, so the writer
//! puts `,"name":` with one copy instead of escaping the name on every message.

/// An object key pre-encoded as `,"name":` (the comma is dropped for the first member).
/// Made by the crate's `key!` macro, which checks the text in a `const` block: a name that
/// would need escaping, or text that is not exactly `,"name":`, fails the build.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Key(&'static str);

impl Key {
    /// `text` must be `,"` + `name` + `":` and `name` must need no escaping; anything else
    /// fails (at compile time: call only through `key!`).
    pub(crate) const fn new(name: &str, text: &'static str) -> Self {
        let ok = match text.as_bytes() {
            [b',', b'"', body @ .., b'"', b':'] => same_and_clean(name.as_bytes(), body),
            _ => false,
        };
        assert!(
            ok,
            "a key must be `,\"name\":` with a name that needs no escape"
        );
        Self(text)
    }

    /// `,"name":`
    #[inline]
    pub(crate) const fn with_comma(self) -> &'static str {
        self.0
    }

    /// `"name":`
    #[inline]
    pub(crate) fn bare(self) -> &'static str {
        self.0.get(1..).unwrap_or("")
    }
}

/// Whether `a` and `b` are equal and hold no byte JSON would escape.
const fn same_and_clean(mut a: &[u8], mut b: &[u8]) -> bool {
    loop {
        match (a, b) {
            ([], []) => return true,
            ([x, ra @ ..], [y, rb @ ..]) if *x == *y && *x >= 0x20 && *x != b'"' && *x != b'\\' => {
                a = ra;
                b = rb;
            }
            _ => return false,
        }
    }
}

/// `key!("name")` or `key!(NAME_CONST = "name")`: a [`Key`] checked at compile time.
macro_rules! key {
    ($name:literal) => {
        const { $crate::json::Key::new($name, concat!(",\"", $name, "\":")) }
    };
    ($name:path = $lit:literal) => {
        const { $crate::json::Key::new($name, concat!(",\"", $lit, "\":")) }
    };
}
pub(crate) use key;

#[cfg(test)]
mod tests {
    use super::Key;

    #[test]
    fn a_key_carries_its_separators() {
        let k = key!("mimeType");
        assert_eq!(
            (k.with_comma(), k.bare()),
            (",\"mimeType\":", "\"mimeType\":")
        );
        const NAME: &str = "io.modelcontextprotocol/serverInfo";
        let k = key!(NAME = "io.modelcontextprotocol/serverInfo");
        assert_eq!(k.bare(), "\"io.modelcontextprotocol/serverInfo\":");
    }

    #[test]
    fn a_name_that_needs_escaping_is_refused() {
        let refused = |name: &'static str, text: &'static str| {
            std::panic::catch_unwind(|| Key::new(name, text)).is_err()
        };
        assert!(refused("a\"b", ",\"a\"b\":"));
        assert!(refused("ab", ",\"ac\":"));
        assert!(refused("ab", "\"ab\":"));
        assert!(!refused("ab", ",\"ab\":"));
    }
}
