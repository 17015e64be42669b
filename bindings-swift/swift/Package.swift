// swift-tools-version:6.0
// The Swift package of mcp-context: module `MCPContext` over the Rust library
// `libmcp_context_ffi` (bindings-swift/). Build the library first:
//     cargo build --release -p mcp-context-swift
// By default the package links `../../target/release`; set MCP_CONTEXT_LIB_DIR to use another
// folder. Apple apps can use the XCFramework from `bindings-swift/build-apple.sh` instead.
import PackageDescription

let libDir = Context.environment["MCP_CONTEXT_LIB_DIR"]
    ?? "\(Context.packageDirectory)/../../target/release"

let package = Package(
    name: "MCPContext",
    products: [
        .library(name: "MCPContext", targets: ["MCPContext"]),
    ],
    targets: [
        // The generated C header and module map (uniffi, checked in; see scripts/uniffi-gen.sh).
        .systemLibrary(name: "MCPContextFFI", path: "Sources/MCPContextFFI"),
        // The generated Swift (MCPContext.swift) plus a thin hand-written file of Swift idioms.
        .target(
            name: "MCPContext",
            dependencies: ["MCPContextFFI"],
            linkerSettings: [
                .linkedLibrary("mcp_context_ffi"),
                .unsafeFlags(["-L", libDir, "-Xlinker", "-rpath", "-Xlinker", libDir]),
            ]
        ),
        .testTarget(name: "MCPContextTests", dependencies: ["MCPContext"]),
        // Examples (not products): a stdio client host over `Process` + `Pipe`, and a stdio
        // server loop. scripts/swift-test.sh runs them against each other and the Rust demo.
        .executableTarget(name: "mcp-stdio-client", dependencies: ["MCPContext"], path: "Examples/StdioClient"),
        .executableTarget(name: "mcp-stdio-server", dependencies: ["MCPContext"], path: "Examples/StdioServer"),
    ]
)
