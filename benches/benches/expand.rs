//! Placeholder: filled in by the template-engine work (see benches/README.md).
fn main() {}
