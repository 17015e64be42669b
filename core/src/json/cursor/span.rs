//! [`Span`]: where the longest string a validating cursor read lies, so a
//! [`Seq`](crate::messages::Seq) iterated later reads it again in one step.

/// Where one string literal's body starts (after the opening quote) and where the literal
/// ends (after the closing quote), as validation found them, and whether it has escapes.
/// Empty (and of no size) on the compact targets, which keep no spans ([`WIDE`](crate::WIDE)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Span {
    #[cfg(all(
        any(target_pointer_width = "64", target_family = "wasm"),
        not(mcp_compact)
    ))]
    at: (u32, u32, bool),
}

#[cfg(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
))]
impl Span {
    /// The span of a literal whose body starts at `start` and which ends at `end` (none
    /// when an offset does not fit in 32 bits).
    pub(super) fn new(start: usize, end: usize, escaped: bool) -> Self {
        match (u32::try_from(start), u32::try_from(end)) {
            (Ok(s), Ok(e)) => Self {
                at: (s, e, escaped),
            },
            _ => Self::default(),
        }
    }

    /// The end and escapes of the literal whose body starts at `start`, when it is this one.
    pub(super) fn read_at(self, start: usize) -> Option<(usize, bool)> {
        let (s, e, escaped) = self.at;
        (s as usize == start && start > 0).then_some((e as usize, escaped))
    }

    /// The span moved `by` bytes towards the start (into a sub-slice starting there); none
    /// when it starts before it.
    pub(crate) fn shifted(self, by: usize) -> Self {
        let (s, e, escaped) = self.at;
        match u32::try_from(by) {
            Ok(by) if s > by => Self {
                at: (s - by, e - by, escaped),
            },
            _ => Self::default(),
        }
    }

    pub(super) fn len(self) -> usize {
        self.at.1.saturating_sub(self.at.0) as usize
    }
}

#[cfg(not(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
)))]
impl Span {
    pub(super) fn new(_: usize, _: usize, _: bool) -> Self {
        Self {}
    }

    pub(super) fn read_at(self, _: usize) -> Option<(usize, bool)> {
        None
    }

    pub(crate) fn shifted(self, _: usize) -> Self {
        self
    }

    pub(super) fn len(self) -> usize {
        usize::MAX
    }
}
