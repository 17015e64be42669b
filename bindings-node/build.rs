//! Links the addon against Node-API (napi-build sets the platform's link arguments).

fn main() {
    napi_build::setup();
}
