//! The two seams where the template work of another module plugs in:
//!
//! * [`check_uri`]: the one function that validates a resource URI (docs/rules.md §7 "Servers
//!   **MUST** validate all resource URIs", §16.5 rules 32, 34), through [`crate::uri`].
//! * [`TemplateRouter`]: how a `resources/read` URI is matched against the registered
//!   templates. The machine holds no matcher of its own: the host installs a router
//!   ([`Server::set_router`](super::Server::set_router)); the default is [`IndexedRouter`], the
//!   crate's indexed template router.

#[cfg(feature = "alloc")]
use alloc::string::String;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::fmt;

#[cfg(feature = "alloc")]
use super::registry::TemplateId;

/// The longest resource URI accepted, in bytes.
pub const MAX_URI_LEN: usize = 8192;

/// Why a resource URI was refused. The client gets -32602 with `data.uri`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UriError {
    /// The URI is empty.
    Empty,
    /// Longer than [`MAX_URI_LEN`].
    TooLong,
    /// No `scheme:` prefix (RFC 3986 §3.1).
    MissingScheme,
    /// A byte that may not appear in a URI (space, control, non-ASCII, `"`, `<`, …).
    InvalidChar {
        /// Its byte offset.
        at: usize,
    },
    /// A `%` not followed by two hex digits.
    BadPercent {
        /// Its byte offset.
        at: usize,
    },
}

impl fmt::Display for UriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("empty URI"),
            Self::TooLong => f.write_str("URI too long"),
            Self::MissingScheme => f.write_str("URI has no scheme"),
            Self::InvalidChar { at } => write!(f, "invalid character in URI at byte {at}"),
            Self::BadPercent { at } => write!(f, "malformed percent-encoding in URI at byte {at}"),
        }
    }
}

impl core::error::Error for UriError {}

/// Validates `uri` as an absolute URI with the crate's RFC 3986 validator
/// ([`crate::uri::validate_uri`]), plus the [`MAX_URI_LEN`] bound.
///
/// ```
/// use mcp_context::server::{check_uri, UriError};
/// assert!(check_uri("notes://acme/42").is_ok());
/// assert_eq!(check_uri("no scheme"), Err(UriError::MissingScheme));
/// assert_eq!(check_uri("a:b c"), Err(UriError::InvalidChar { at: 3 }));
/// ```
///
/// # Errors
/// The first [`UriError`] found.
pub fn check_uri(uri: &str) -> Result<(), UriError> {
    use crate::uri::{UriErrorKind as K, validate_uri};
    if uri.len() > MAX_URI_LEN {
        return Err(UriError::TooLong);
    }
    validate_uri(uri).map_err(|e| match e.kind {
        K::Empty => UriError::Empty,
        K::MissingScheme | K::InvalidScheme => UriError::MissingScheme,
        K::InvalidPercentEncoding => UriError::BadPercent { at: e.at },
        _ => UriError::InvalidChar { at: e.at },
    })
}

#[cfg(feature = "alloc")]
/// A router refused a template (its own reason is the host's to report).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RouteInsertError {
    /// The router cannot match this template.
    Unsupported,
    /// Another registered template makes it unreachable, or it matches the same URIs.
    Conflict,
}

#[cfg(feature = "alloc")]
impl fmt::Display for RouteInsertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Unsupported => "the router cannot match this template",
            Self::Conflict => "the template conflicts with a registered one",
        })
    }
}

#[cfg(feature = "alloc")]
impl core::error::Error for RouteInsertError {}

#[cfg(feature = "alloc")]
/// Matches resource URIs against registered templates (docs/rules.md §6: "The server expands or
/// matches the template itself").
///
/// The machine calls [`TemplateRouter::insert`] for every template registered (after the
/// router is installed, it replays those registered before), [`TemplateRouter::remove`] when
/// one is removed, and [`TemplateRouter::route`] for every `resources/read` URI that is not a
/// registered resource.
pub trait TemplateRouter: Send {
    /// Registers `template` (an RFC 6570 template, already parsed successfully) as `id`.
    ///
    /// # Errors
    /// [`RouteInsertError`] when the router cannot serve it; the registration fails.
    fn insert(&mut self, id: TemplateId, template: &str) -> Result<(), RouteInsertError>;

    /// Forgets `id`.
    fn remove(&mut self, id: TemplateId);

    /// The template matching `uri` and its variables, percent-decoded, by name. Variables
    /// the URI leaves undefined are omitted.
    fn route(&self, uri: &str) -> Option<(TemplateId, Vec<(String, String)>)>;
}

#[cfg(feature = "alloc")]
/// The router installed by default: matches nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoRouter;

#[cfg(feature = "alloc")]
impl TemplateRouter for NoRouter {
    fn insert(&mut self, _: TemplateId, _: &str) -> Result<(), RouteInsertError> {
        Ok(())
    }

    fn remove(&mut self, _: TemplateId) {}

    fn route(&self, _: &str) -> Option<(TemplateId, Vec<(String, String)>)> {
        None
    }
}

#[cfg(feature = "alloc")]
/// The router the machine installs by default: the crate's indexed template
/// [`Router`](crate::template::Router) (docs/matching.md), so routing cost stays flat in the
/// number of templates and precedence follows its documented specificity order.
///
/// Values come back percent-decoded; an exploded list (`{/path*}`) comes back as its decoded
/// items joined with `,`. A URI whose captures do not decode to UTF-8 matches nothing.
#[derive(Debug, Default)]
pub struct IndexedRouter {
    router: crate::template::Router<TemplateId>,
    entries: Vec<(TemplateId, String)>,
}

#[cfg(feature = "alloc")]
impl TemplateRouter for IndexedRouter {
    fn insert(&mut self, id: TemplateId, template: &str) -> Result<(), RouteInsertError> {
        use crate::template::InsertError;
        match self.router.insert(template, id) {
            Ok(_) => {
                self.entries.push((id, String::from(template)));
                Ok(())
            }
            Err(InsertError::Indistinguishable { .. } | InsertError::Shadowed { .. }) => {
                Err(RouteInsertError::Conflict)
            }
            Err(_) => Err(RouteInsertError::Unsupported),
        }
    }

    fn remove(&mut self, id: TemplateId) {
        // The index has no removal: rebuild it from the templates that stay (removal is rare;
        // routing is the hot path). Every one of them was accepted before, in this order.
        self.entries.retain(|(e, _)| *e != id);
        let mut router = crate::template::Router::new();
        for (e, t) in &self.entries {
            let _ = router.insert(t, *e);
        }
        self.router = router;
    }

    fn route(&self, uri: &str) -> Option<(TemplateId, Vec<(String, String)>)> {
        let mut caps = crate::template::Captures::<32>::new();
        let hit = self.router.route(uri, &mut caps).ok()?;
        let mut vars = Vec::new();
        for cap in caps.iter() {
            let value = if cap.is_exploded() {
                let mut joined = String::new();
                for (i, item) in cap.values().enumerate() {
                    if i > 0 {
                        joined.push(',');
                    }
                    joined.push_str(&item.decode().ok()?);
                }
                joined
            } else {
                cap.decode().ok()?.into_owned()
            };
            vars.push((String::from(cap.name()), value));
        }
        Some((*hit.value, vars))
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        for ok in [
            "file:///a/b.rs",
            "test://static-text",
            "notes://acme/42?x=1#f",
            "urn:isbn:0451450523",
            "a+b.c-d:%20",
        ] {
            assert_eq!(check_uri(ok), Ok(()), "{ok}");
        }
        let table: &[(&str, UriError)] = &[
            ("", UriError::Empty),
            ("nocolon", UriError::MissingScheme),
            (":x", UriError::MissingScheme),
            ("1a:x", UriError::MissingScheme),
            ("a b:x", UriError::MissingScheme),
            ("a:x y", UriError::InvalidChar { at: 3 }),
            ("a:\u{e9}", UriError::InvalidChar { at: 2 }),
            ("a:\"", UriError::InvalidChar { at: 2 }),
            ("a:%2", UriError::BadPercent { at: 2 }),
            ("a:%zz", UriError::BadPercent { at: 2 }),
        ];
        for (uri, err) in table {
            assert_eq!(check_uri(uri), Err(*err), "{uri}");
        }
        let long = alloc::format!("a:{}", "x".repeat(MAX_URI_LEN));
        assert_eq!(check_uri(&long), Err(UriError::TooLong));
    }
}
