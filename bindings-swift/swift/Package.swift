// swift-tools-version:6.0
// The Swift package of mcp-context: module `MCPContext` over the Rust library
// `libmcp_context_ffi` (bindings-swift/). No `unsafeFlags`, so the package can be added by URL.
//
// Where the Rust library comes from:
// - Apple platforms: `MCPContextFFI.xcframework` next to this file (built by
//   `bindings-swift/build-apple.sh`, one static library per platform). When it is present the
//   package uses it as a `binaryTarget`; nothing else to set up.
// - Linux (and macOS without the XCFramework): the system library `mcp_context_ffi`, found
//   through pkg-config as `mcp-context-ffi`. The release archive
//   `mcp-context-primitives-swift-<version>-linux-<arch>.tar.gz` installs it with no Rust
//   toolchain (static link):
//       <archive>/install.sh && export PKG_CONFIG_PATH=$HOME/.local/lib/pkgconfig
//   From a checkout with Rust:
//       cargo build --release -p mcp-context-swift
//       bindings-swift/write-pc.sh target/release > ~/.local/lib/pkgconfig/mcp-context-ffi.pc
//       export PKG_CONFIG_PATH=~/.local/lib/pkgconfig LD_LIBRARY_PATH=$PWD/target/release
import Foundation
import PackageDescription

let xcframework = "MCPContextFFI.xcframework"
let useXCFramework = FileManager.default.fileExists(atPath: "\(Context.packageDirectory)/\(xcframework)")

let ffi: Target = useXCFramework
    ? .binaryTarget(name: "MCPContextFFI", path: xcframework)
    // The generated C header and module map (uniffi, checked in; see scripts/uniffi-gen.sh).
    : .systemLibrary(name: "MCPContextFFI", path: "Sources/MCPContextFFI", pkgConfig: "mcp-context-ffi")

let package = Package(
    name: "MCPContext",
    platforms: [.macOS(.v12), .iOS(.v15)],
    products: [
        .library(name: "MCPContext", targets: ["MCPContext"]),
    ],
    targets: [
        ffi,
        // The generated Swift (MCPContext.swift), Swift idioms, and the async hosts
        // (MCPClient, MCPServerHost, transports) in Sources/MCPContext/Async.
        .target(
            name: "MCPContext",
            dependencies: ["MCPContextFFI"],
            linkerSettings: useXCFramework ? [] : [.linkedLibrary("mcp_context_ffi")]
        ),
        .testTarget(name: "MCPContextTests", dependencies: ["MCPContext"]),
        // Examples (not products). scripts/swift-test.sh runs them.
        .executableTarget(name: "mcp-stdio-client", dependencies: ["MCPContext"], path: "Examples/StdioClient"),
        .executableTarget(name: "mcp-stdio-server", dependencies: ["MCPContext"], path: "Examples/StdioServer"),
        .executableTarget(name: "mcp-kb-server", dependencies: ["MCPContext"], path: "Examples/KnowledgeBase"),
        // The gate's cost: reads/s without and with a no-op middleware (docs/operations.md).
        .executableTarget(name: "mcp-gate-cost", dependencies: ["MCPContext"], path: "Examples/GateCost"),
        // The README's Swift quickstart, verbatim (scripts/swift-test.sh checks and runs it).
        .executableTarget(name: "mcp-quickstart", dependencies: ["MCPContext"], path: "Examples/Quickstart"),
    ]
)
