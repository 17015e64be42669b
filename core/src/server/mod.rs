//! Server-side pieces. The sans-IO server machine (requests in, responses and notifications
//! out, DIGEST §1–§13) will live here; for now it holds the pure helpers it builds on.

pub mod file_root;
