//! `Router`: many RFC 6570 templates, one URI in, the winning template and its variables out
//! (docs/matching.md §7). The Rust router holds no Swift values: `insert` returns the
//! template's id (its registration index) for the host to map to its own handler.

use std::sync::{Mutex, MutexGuard};

use mcp_context::template::{
    Captures, InsertError, MatchError, ParseError, RouteId, Router as CoreRouter,
};

use crate::errors::TemplateParseErrorKind;

/// The most variables one routed template may have.
const MAX_VARIABLES: usize = 64;

/// A template router. Thread-safe; `route` never allocates in the core.
#[derive(Debug, uniffi::Object)]
pub struct Router {
    inner: Mutex<Routes>,
}

/// The core router and the ids it handed out, by registration index.
#[derive(Debug, Default)]
struct Routes {
    router: CoreRouter<()>,
    ids: Vec<RouteId>,
}

/// Why a template was refused, or a URI could not be routed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Error)]
#[uniffi::export(Display)]
pub enum RouterError {
    /// The template is not RFC 6570.
    Parse {
        /// What is wrong.
        kind: TemplateParseErrorKind,
        /// Where, in bytes of the template.
        byte_offset: u64,
    },
    /// A valid template that cannot be matched (e.g. `{a}{b}`: where `a` ends is undecided).
    Unmatchable {
        /// The core's reason.
        reason: String,
    },
    /// Same shape as registered template `existing`: no URI could reach it.
    Indistinguishable {
        /// The id of the registered template.
        existing: u32,
    },
    /// Every URI it matches is matched first by registered template `existing`.
    Shadowed {
        /// The id of the registered template that wins.
        existing: u32,
    },
    /// The matching template has more variables than the binding's capture capacity (64).
    TooManyVariables {
        /// The capacity needed.
        needed: u64,
    },
    /// A captured value does not percent-decode to UTF-8.
    Undecodable {
        /// The variable.
        name: String,
    },
    /// An error kind added to the core after this binding version.
    Other,
}

impl std::fmt::Display for RouterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Parse { kind, byte_offset } => match kind.to_core() {
                Some(kind) => ParseError {
                    kind,
                    at: usize::try_from(*byte_offset).unwrap_or(usize::MAX),
                }
                .fmt(f),
                None => write!(f, "invalid URI template at byte {byte_offset}"),
            },
            Self::Unmatchable { reason } => write!(f, "template cannot be matched: {reason}"),
            Self::Indistinguishable { existing } => {
                write!(f, "indistinguishable from template #{existing}")
            }
            Self::Shadowed { existing } => {
                write!(f, "shadowed by template #{existing}: no URI can reach it")
            }
            Self::TooManyVariables { needed } => write!(f, "template has {needed} variables"),
            Self::Undecodable { name } => write!(f, "variable {name} does not decode to UTF-8"),
            Self::Other => f.write_str("router error"),
        }
    }
}

impl std::error::Error for RouterError {}

fn id(r: RouteId) -> u32 {
    u32::try_from(r.index()).unwrap_or(u32::MAX)
}

impl From<InsertError> for RouterError {
    fn from(e: InsertError) -> Self {
        match e {
            InsertError::Parse(p) => Self::Parse {
                kind: p.kind.into(),
                byte_offset: u64::try_from(p.at).unwrap_or(u64::MAX),
            },
            InsertError::Compile(c) => Self::Unmatchable {
                reason: c.to_string(),
            },
            InsertError::Indistinguishable { existing, .. } => Self::Indistinguishable {
                existing: id(existing),
            },
            InsertError::Shadowed { existing, .. } => Self::Shadowed {
                existing: id(existing),
            },
            _ => Self::Other,
        }
    }
}

/// One variable of a match.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct RouteCapture {
    /// The variable name as written in the template.
    pub name: String,
    /// The captured span of the URI, still percent-encoded.
    pub raw: String,
    /// Whether the template explodes it (`*`).
    pub exploded: bool,
    /// The decoded items: one for a plain variable; each list item for an exploded one.
    pub values: Vec<String>,
}

/// What `route` found.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct RouteMatch {
    /// The template's id (registration index).
    pub id: u32,
    /// Its source.
    pub template: String,
    /// The variables the URI defines, in template order.
    pub captures: Vec<RouteCapture>,
}

impl Router {
    fn lock(&self) -> MutexGuard<'_, Routes> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[uniffi::export]
impl Router {
    /// An empty router.
    #[uniffi::constructor]
    pub fn new() -> Self {
        Self {
            inner: Mutex::new(Routes::default()),
        }
    }

    /// Registers `template`; returns its id. Throws `RouterError` (and changes nothing) for
    /// a template that does not parse, cannot be matched, or that a registered one makes
    /// unreachable.
    pub fn insert(&self, template: String) -> Result<u32, RouterError> {
        let mut routes = self.lock();
        let r = routes.router.insert(&template, ())?;
        routes.ids.push(r);
        Ok(id(r))
    }

    /// The template registered as `id`.
    pub fn template(&self, id: u32) -> Option<String> {
        let routes = self.lock();
        let r = *routes.ids.get(usize::try_from(id).ok()?)?;
        routes.router.template(r).map(String::from)
    }

    /// Number of templates.
    pub fn count(&self) -> u32 {
        u32::try_from(self.lock().router.len()).unwrap_or(u32::MAX)
    }

    /// The most specific template matching `uri` and its decoded variables; `nil` when none
    /// matches. Throws `RouterError.tooManyVariables` / `.undecodable`.
    pub fn route(&self, uri: String) -> Result<Option<RouteMatch>, RouterError> {
        let routes = self.lock();
        let mut caps = Captures::<MAX_VARIABLES>::new();
        let hit = match routes.router.route(&uri, &mut caps) {
            Ok(hit) => hit,
            Err(MatchError::NoMatch) => return Ok(None),
            Err(MatchError::TooManyVariables { needed }) => {
                return Err(RouterError::TooManyVariables {
                    needed: u64::try_from(needed).unwrap_or(u64::MAX),
                });
            }
            Err(_) => return Err(RouterError::Other),
        };
        let mut captures = Vec::new();
        for cap in caps.iter() {
            let undecodable = || RouterError::Undecodable {
                name: cap.name().into(),
            };
            let values = if cap.is_exploded() {
                cap.values()
                    .map(|item| item.decode().map(|s| s.into_owned()))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|_| undecodable())?
            } else {
                vec![cap.decode().map_err(|_| undecodable())?.into_owned()]
            };
            captures.push(RouteCapture {
                name: cap.name().into(),
                raw: cap.raw().into(),
                exploded: cap.is_exploded(),
                values,
            });
        }
        Ok(Some(RouteMatch {
            id: id(hit.id),
            template: hit.template.into(),
            captures,
        }))
    }
}

impl Default for Router {
    fn default() -> Self {
        Self::new()
    }
}
