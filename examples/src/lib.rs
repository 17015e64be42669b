//! Shared pieces of the runnable examples: the stdio host loop every stdio server here uses,
//! and the level-1 repository router (`repo-router`), kept in the library so its tests can
//! drive it.

pub mod repo_router;
pub mod stdio;
