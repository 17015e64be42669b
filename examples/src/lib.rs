//! Shared pieces of the runnable examples: the level-1 repository router (`repo-router`),
//! kept in the library so its tests can drive it, and [`wire::Wire`], an in-memory stdio
//! connection for the `--transcript` modes and the tests.

pub mod repo_router;
pub mod wire;
