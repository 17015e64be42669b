import MCPContext

// A server: async handlers; runStdio() writes each answer as soon as its handler returns.
let host = try MCPServerHost(name: "notes", version: "1.0.0")
try await host.resource("notes://{id}", name: "note", mimeType: "text/plain") { uri, vars in
    guard let id = vars["id"], id != "404" else { throw MCPHandlerError.notFound }
    return [.text(uri: uri, mimeType: "text/plain", text: "Note \(id)")]
}
// await host.runStdio()

// A client: connect, read (cached per the server's hints), listen until an update.
let client = try MCPClient(transport: StdioTransport(command: "target/release/demo-server"))
let reply = try await client.readResource("notes://readme")     // reply.json, reply.fromCache
for try await event in await client.listen(SubscriptionFilter(resourceSubscriptions: ["notes://acme/1"])) {
    if case .notified(_, .resourceUpdated(let uri)) = event { print("updated", uri); break }
}
// Over HTTP: MCPClient(transport: HTTPTransport(url: URL(string: "http://127.0.0.1:3000/mcp")!))
