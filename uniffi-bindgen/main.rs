//! The uniffi binding generator, built from the same uniffi version as `bindings-swift`.
//! Run it through `scripts/uniffi-gen.sh`, which caches the built binary outside the clone.

fn main() {
    uniffi::uniffi_bindgen_main()
}
