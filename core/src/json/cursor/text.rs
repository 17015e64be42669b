//! The caller's buffer a validating [`Cursor`](super::Cursor) unescapes strings into
//! ([`Cursor::with_text`](super::Cursor::with_text)).

/// The rest of the caller's buffer for unescaped strings ([`Cursor::with_text`](super::Cursor::with_text)). Of no
/// size on the compact targets ([`WIDE`](crate::WIDE)), which leave strings escaped.
#[derive(Debug, Default)]
pub(super) struct Text<'a> {
    #[cfg(all(
        any(target_pointer_width = "64", target_family = "wasm"),
        not(mcp_compact)
    ))]
    rest: &'a mut [u8],
    #[cfg(not(all(
        any(target_pointer_width = "64", target_family = "wasm"),
        not(mcp_compact)
    )))]
    rest: core::marker::PhantomData<&'a mut [u8]>,
}

#[cfg(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
))]
impl<'a> Text<'a> {
    pub(super) fn new(rest: &'a mut [u8]) -> Self {
        Self { rest }
    }

    pub(super) fn has_room(&self) -> bool {
        !self.rest.is_empty()
    }

    pub(super) fn take(&mut self) -> &'a mut [u8] {
        core::mem::take(&mut self.rest)
    }

    pub(super) fn put(&mut self, rest: &'a mut [u8]) {
        self.rest = rest;
    }
}

#[cfg(not(all(
    any(target_pointer_width = "64", target_family = "wasm"),
    not(mcp_compact)
)))]
impl<'a> Text<'a> {
    pub(super) fn new(_: &'a mut [u8]) -> Self {
        Self::default()
    }

    pub(super) fn has_room(&self) -> bool {
        false
    }

    pub(super) fn take(&mut self) -> &'a mut [u8] {
        &mut []
    }

    pub(super) fn put(&mut self, _: &'a mut [u8]) {}
}
