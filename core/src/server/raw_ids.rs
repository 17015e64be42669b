//! Ids from their numbers, for bindings: a foreign host keeps an event's handle as the
//! number [`Handle::get`] gave and hands it back. A number the machine never issued (or
//! already answered) is refused with [`RespondError::UnknownHandle`](super::RespondError).

use super::event::Handle;

impl Handle {
    /// The handle whose number ([`Handle::get`]) is `n`.
    #[must_use]
    pub const fn from_raw(n: u64) -> Self {
        Self(n)
    }
}
