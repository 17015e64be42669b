//! Routing a URI among many templates (docs/matching.md §7): [`Router`] with `alloc`,
//! [`FixedRouter`] without. Registration compiles each template and indexes it (this may
//! allocate); routing never allocates and its cost does not grow with the number of
//! templates that share no prefix with the URI.

use super::Template;
use super::captures::Captures;
use super::compile::MatchOptions;
use super::error::{InsertError, MatchError, RouteId};
use super::index::Index;
use super::store::{ArrayStorage, Storage};

/// What a router found: the template and the value registered with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Routed<'r, T> {
    /// Which template matched.
    pub id: RouteId,
    /// Its source.
    pub template: &'r str,
    /// The value registered with it.
    pub value: &'r T,
}

/// Routes through `index`, then names the captures of the winning route.
#[cfg_attr(
    any(target_pointer_width = "64", target_family = "wasm"),
    inline(always)
)]
fn route_in<'r, 'u, S: Storage, A: AsRef<str>, T, const N: usize>(
    index: &'r Index<S>,
    sources: &'r [A],
    values: impl Fn(usize) -> Option<&'r T>,
    uri: &'u str,
    caps: &mut Captures<'r, 'u, N>,
) -> Result<Routed<'r, T>, MatchError> {
    caps.clear();
    let r = index
        .route(sources, uri, caps.slots_mut())
        .ok_or(MatchError::NoMatch)?;
    let info = index.route_info(r).ok_or(MatchError::NoMatch)?;
    let needed = usize::from(info.layout.vars);
    if needed > N {
        return Err(MatchError::TooManyVariables { needed });
    }
    let template = sources.get(r as usize).ok_or(MatchError::NoMatch)?.as_ref();
    caps.finish(uri, template, index.names(&info));
    Ok(Routed {
        id: RouteId(r),
        template,
        value: values(r as usize).ok_or(MatchError::NoMatch)?,
    })
}

/// A router over templates it stores itself, each with a value of type `T` (feature `alloc`).
///
/// Precedence (docs/matching.md §7.2): URIs are compared segment by segment; at the first
/// segment where templates differ, literal text beats a segment mixing text and variables,
/// which beats a bare `{var}`, which beats anything that spans segments (`{+var}`,
/// `{/var*}`, …); equal kinds keep registration order.
///
/// ```
/// use mcp_context::template::{Captures, Router};
///
/// let mut router = Router::new();
/// router.insert("repo://{owner}/{repo}", "repo").unwrap();
/// router.insert("repo://{owner}/{repo}/issues/{number}", "issue").unwrap();
/// router.insert("repo://acme/{repo}", "acme").unwrap();
/// let mut caps = Captures::<4>::new();
/// let hit = router.route("repo://acme/web/issues/7", &mut caps).unwrap();
/// assert_eq!(*hit.value, "issue");
/// assert_eq!(caps.get("number").unwrap().as_str(), Some("7"));
/// assert_eq!(*router.route("repo://acme/web", &mut caps).unwrap().value, "acme");
/// assert!(router.insert("repo://{a}/{b}", "dup").is_err());
/// ```
#[cfg(feature = "alloc")]
pub struct Router<T> {
    index: Index<super::store::VecStorage>,
    sources: alloc::vec::Vec<alloc::boxed::Box<str>>,
    values: alloc::vec::Vec<T>,
}

#[cfg(feature = "alloc")]
impl<T> Default for Router<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(feature = "alloc")]
impl<T: core::fmt::Debug> core::fmt::Debug for Router<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map()
            .entries(self.sources.iter().zip(&self.values))
            .finish()
    }
}

#[cfg(feature = "alloc")]
impl<T> Router<T> {
    /// An empty router with the default [`MatchOptions`].
    #[must_use]
    pub fn new() -> Self {
        Self::with_options(MatchOptions::new())
    }

    /// An empty router whose templates all use `opts`.
    #[must_use]
    pub fn with_options(opts: MatchOptions) -> Self {
        Self {
            index: Index::new(opts),
            sources: alloc::vec::Vec::new(),
            values: alloc::vec::Vec::new(),
        }
    }

    /// Registers `template` with `value`.
    ///
    /// # Errors
    /// [`InsertError::Parse`] / [`InsertError::Compile`] for a template that cannot be
    /// matched; [`InsertError::Indistinguishable`] or [`InsertError::Shadowed`] naming the
    /// registered template that makes it unreachable. The router is unchanged on error.
    pub fn insert(&mut self, template: &str, value: T) -> Result<RouteId, InsertError> {
        let t = super::OwnedTemplate::parse(template)?;
        let r = self.index.insert(&self.sources, t.as_ref())?;
        self.sources.push(template.into());
        self.values.push(value);
        Ok(RouteId(r))
    }

    /// Routes `uri`, writing the winner's variables into `caps`.
    ///
    /// # Errors
    /// [`MatchError::NoMatch`], or [`MatchError::TooManyVariables`] when the winner has more
    /// variables than `caps` holds.
    pub fn route<'r, 'u, const N: usize>(
        &'r self,
        uri: &'u str,
        caps: &mut Captures<'r, 'u, N>,
    ) -> Result<Routed<'r, T>, MatchError> {
        route_in(
            &self.index,
            &self.sources,
            |i| self.values.get(i),
            uri,
            caps,
        )
    }

    /// The number of templates.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no template is registered.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The source of a registered template.
    #[must_use]
    pub fn template(&self, id: RouteId) -> Option<&str> {
        self.sources.get(id.index()).map(AsRef::as_ref)
    }

    /// The value of a registered template.
    #[must_use]
    pub fn get(&self, id: RouteId) -> Option<&T> {
        self.values.get(id.index())
    }
}

/// A router with fixed capacity and no allocation: at most `R` templates whose sources it
/// borrows, and `CAP` entries in each internal table (compiled steps, trie nodes, edges).
/// About 8 per MCP-shaped template is plenty; a full router refuses templates with
/// [`InsertError::CapacityExceeded`]. A refused insert may use up some capacity.
///
/// ```
/// use mcp_context::template::{Captures, FixedRouter};
///
/// let mut router: FixedRouter<'_, u8, 4, 32> = FixedRouter::new();
/// router.insert("notes://{id}", 1).unwrap();
/// router.insert("notes://{id}/raw", 2).unwrap();
/// let mut caps = Captures::<2>::new();
/// assert_eq!(*router.route("notes://7/raw", &mut caps).unwrap().value, 2);
/// ```
pub struct FixedRouter<'t, T, const R: usize, const CAP: usize = 64> {
    index: Index<ArrayStorage<CAP>>,
    sources: [&'t str; R],
    values: [Option<T>; R],
    len: usize,
}

impl<T, const R: usize, const CAP: usize> Default for FixedRouter<'_, T, R, CAP> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'t, T, const R: usize, const CAP: usize> FixedRouter<'t, T, R, CAP> {
    /// An empty router with the default [`MatchOptions`].
    #[must_use]
    pub fn new() -> Self {
        Self::with_options(MatchOptions::new())
    }

    /// An empty router whose templates all use `opts`.
    #[must_use]
    pub fn with_options(opts: MatchOptions) -> Self {
        Self {
            index: Index::new(opts),
            sources: [""; R],
            values: core::array::from_fn(|_| None),
            len: 0,
        }
    }

    /// Registers `template` with `value`.
    ///
    /// # Errors
    /// As [`Router::insert`], plus [`InsertError::CapacityExceeded`].
    pub fn insert(&mut self, template: &'t str, value: T) -> Result<RouteId, InsertError> {
        if self.len >= R {
            return Err(InsertError::CapacityExceeded);
        }
        let t = Template::<'t, 64>::parse(template)?;
        let sources = self.sources.get(..self.len).unwrap_or_default();
        let r = self.index.insert(sources, t.as_ref())?;
        let full = InsertError::CapacityExceeded;
        *self.sources.get_mut(r as usize).ok_or(full)? = template;
        *self.values.get_mut(r as usize).ok_or(full)? = Some(value);
        self.len += 1;
        Ok(RouteId(r))
    }

    /// Routes `uri`, writing the winner's variables into `caps`.
    ///
    /// # Errors
    /// As [`Router::route`].
    pub fn route<'r, 'u, const N: usize>(
        &'r self,
        uri: &'u str,
        caps: &mut Captures<'r, 'u, N>,
    ) -> Result<Routed<'r, T>, MatchError> {
        let sources = self.sources.get(..self.len).unwrap_or_default();
        let values = |i: usize| self.values.get(i).and_then(Option::as_ref);
        route_in(&self.index, sources, values, uri, caps)
    }

    /// The number of templates.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no template is registered.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The source of a registered template.
    #[must_use]
    pub fn template(&self, id: RouteId) -> Option<&'t str> {
        self.sources.get(..self.len)?.get(id.index()).copied()
    }
}
