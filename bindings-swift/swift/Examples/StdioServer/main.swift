// mcp-stdio-server: a small MCP server in Swift on `MCPServerHost`, on stdin/stdout. The
// machine answers discovery, lists, static reads, completion from value sets and
// subscriptions itself; the handlers below answer template reads and the prompt, and each
// answer is written as soon as its handler returns.
import Foundation
import MCPContext

let host = try MCPServerHost(
    name: "mcp-stdio-server", version: "1.0.0", title: "Swift example",
    instructions: "Greetings are resources: greeting://{name}.")

try await host.resource(
    "greeting://world", name: "world", title: "Hello, world", mimeType: "text/plain",
    contents: [.text(uri: "greeting://world", mimeType: "text/plain", text: "Hello, world!")],
    cache: CacheHint(ttlMs: 60_000, scope: .public))

// Names with a `/` are not greetings: not found.
try await host.resource(
    "greeting://{name}", name: "greeting", description: "A greeting", mimeType: "text/plain",
    completions: ["name": ["world", "swift", "rust"]]
) { uri, variables in
    guard let name = variables["name"], !name.contains("/") else { throw MCPHandlerError.notFound }
    return [.text(uri: uri, mimeType: "text/plain", text: "Hello, \(name)!")]
}

try await host.prompt(
    "greet", title: "Greet someone",
    arguments: [PromptArgument(name: "name", description: "Who", required: true)],
    completions: ["name": ["world", "swift", "rust"]]
) { arguments in
    let name = arguments["name"] ?? "world"
    let uri = "greeting://\(name)"
    return Wire.GetPromptResult(
        description: "Greet \(name)",
        messages: [
            Wire.PromptMessage(role: "user", content: .text("Say hello to \(name), warmly.")),
            Wire.PromptMessage(role: "user", content: .resource(Wire.ResourceContents(uri: uri, mimeType: "text/plain", text: "Hello, \(name)!"))),
        ])
}

await host.runStdio()
