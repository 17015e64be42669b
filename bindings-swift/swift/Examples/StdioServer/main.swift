// mcp-stdio-server: a small MCP server in Swift on `ServerMachine`, on stdin/stdout. The
// machine answers discovery, lists, static reads, completion from value sets and
// subscriptions itself; this loop moves lines, keeps the clock and answers the events it
// hands over (template reads).
import Foundation
import MCPContext

func nowMs() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds / 1_000_000
}

func makeServer() throws -> ServerMachine {
    var config = serverConfig()
    config.serverInfo = Implementation(
        name: "mcp-stdio-server", version: "1.0.0", title: "Swift example", description: nil, websiteUrl: nil)
    config.instructions = "Greetings are resources: greeting://{name}."
    let server = try ServerMachine(config: config)
    try server.addResource(
        resource: Resource(
            uri: "greeting://world", name: "world", title: "Hello, world", description: nil,
            mimeType: "text/plain", size: nil),
        contents: [.text(uri: "greeting://world", mimeType: "text/plain", text: "Hello, world!")],
        cache: CacheHint(ttlMs: 60_000, scope: .public))
    _ = try server.addTemplate(
        template: ResourceTemplate(
            uriTemplate: "greeting://{name}", name: "greeting", title: nil, description: "A greeting",
            mimeType: "text/plain"),
        cache: nil, completions: ["name": ["world", "swift", "rust"]])
    try server.addPrompt(
        prompt: Prompt(
            name: "greet", title: "Greet someone", description: nil,
            arguments: [PromptArgument(name: "name", title: nil, description: "Who", required: true)]),
        completions: ["name": ["world", "swift", "rust"]])
    return server
}

/// Answers one event. Names with a `/` are not greetings: not found.
func answer(_ event: ServerEvent, _ server: ServerMachine) throws {
    switch event {
    case .readResource(let handle, let uri, .template(_, _, let variables), _, _, _):
        if let name = variables["name"], !name.contains("/") {
            try server.respondRead(handle: handle, contents: [.text(uri: uri, mimeType: "text/plain", text: "Hello, \(name)!")])
        } else {
            try server.fail(handle: handle, failure: .notFound)
        }
    case .getPrompt(let handle, _, let arguments, _, _, _):
        let name = arguments["name"] ?? "world"
        let uri = "greeting://\(name)"
        try server.respondPrompt(handle: handle, result: Wire.GetPromptResult(
            description: "Greet \(name)",
            messages: [
                Wire.PromptMessage(role: "user", content: .text("Say hello to \(name), warmly.")),
                Wire.PromptMessage(role: "user", content: .resource(Wire.ResourceContents(uri: uri, mimeType: "text/plain", text: "Hello, \(name)!"))),
            ]))
    case .readResource(let handle, _, _, _, _, _), .complete(let handle, _, _, _, _, _),
         .request(let handle, _, _, _, _, _, _):
        try server.fail(handle: handle, failure: .notFound)
    case .cancelled, .streamOverflow, .other:
        break
    }
}

func serve() throws {
    let server = try makeServer()
    let context = MessageContext(stream: 0, auth: 0, transport: .stdio)
    let stdin = FileHandle.standardInput
    let stdout = FileHandle.standardOutput
    func drain() throws {
        while let out = server.pollOutput() {
            switch out {
            case .transmit(_, let bytes, _, _, _):
                stdout.write(bytes + Data("\n".utf8))
            case .event(let event):
                try answer(event, server)
            }
        }
        if let deadline = server.pollTimeout(), deadline <= nowMs() {
            server.handleTimeout(nowMs: nowMs())
            try drain()
        }
    }
    var buffer = Data()
    while true {
        let chunk = stdin.availableData
        if chunk.isEmpty { break }
        buffer.append(chunk)
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = Data(buffer[buffer.startIndex..<newline])
            buffer.removeSubrange(buffer.startIndex...newline)
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0d }) {
                _ = server.handleMessage(bytes: line, nowMs: nowMs(), context: context)
                try drain()
            }
        }
    }
    server.shutdown()
    try drain()
}

do {
    try serve()
} catch {
    FileHandle.standardError.write(Data("mcp-stdio-server: \(error)\n".utf8))
    exit(1)
}
