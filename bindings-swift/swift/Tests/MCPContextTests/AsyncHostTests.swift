import Foundation
import XCTest

import MCPContext

/// A client transport wired to an in-process `MCPServerHost.run(lines:send:)`.
final class MemoryTransport: MCPTransport, @unchecked Sendable {
    let kind = ClientTransport.stdio
    let serverLines: AsyncStream<Data>
    private let toServer: AsyncStream<Data>.Continuation
    private let lock = NSLock()
    private var receive: (@Sendable (Data) -> Void)?

    init() {
        (serverLines, toServer) = AsyncStream<Data>.makeStream()
    }

    func start(receive: @escaping @Sendable (Data) -> Void, failed: @escaping @Sendable (Int64) -> Void, closed: @escaping @Sendable () -> Void) throws {
        lock.withLock { self.receive = receive }
    }

    func send(_ bytes: Data, id: Int64?, headers: [HttpHeader]) {
        toServer.yield(bytes)
    }

    func closeStream(id: Int64) {}

    func close() { toServer.finish() }

    /// Server → client.
    func deliver(_ bytes: Data) {
        lock.withLock { receive }?(bytes)
    }
}

/// A time written once from any task.
final class Stamp: @unchecked Sendable {
    private let lock = NSLock()
    private var value: UInt64?
    func set(_ v: UInt64) { lock.withLock { if value == nil { value = v } } }
    var get: UInt64? { lock.withLock { value } }
}

final class AsyncHostTests: XCTestCase {
    /// Issue 13: an answer given 10 ms after its event is on the wire within 100 ms, with no
    /// further input (the output-ready callback wakes the run loop).
    func testAnswerGivenTenMsAfterItsEventIsWrittenWithin100ms() async throws {
        let host = try MCPServerHost(name: "slow", version: "1.0.0")
        let answered = Stamp(), written = Stamp()
        try await host.resource("slow://{x}", name: "slow") { uri, vars in
            try await Task.sleep(nanoseconds: 10_000_000)
            answered.set(monotonicMs())
            return [.text(uri: uri, mimeType: "text/plain", text: "late \(vars["x"] ?? "")")]
        }
        let transport = MemoryTransport()
        let server = Task {
            await host.run(lines: transport.serverLines) { bytes in
                if String(decoding: bytes, as: UTF8.self).contains("late a") { written.set(monotonicMs()) }
                transport.deliver(bytes)
            }
        }
        let client = try MCPClient(transport: transport)
        let reply = try await client.readResource("slow://a")
        XCTAssertEqual(try firstText(reply), "late a")
        let (a, w) = (try XCTUnwrap(answered.get), try XCTUnwrap(written.get))
        XCTAssertLessThan(w - a, 100, "answer written \(w - a) ms after it was given")
        print("answer written \(w - a) ms after the handler gave it")
        await client.close()
        await server.value
    }

    /// MCPServerHost and MCPClient back to back: lists, static and template reads, the cache,
    /// a thrown not-found, prompts, completion, and a listen until an update.
    func testHostAndClientInProcess() async throws {
        let host = try MCPServerHost(name: "notes", version: "1.0.0")
        try await host.resource(
            "notes://readme", name: "readme", mimeType: "text/plain",
            contents: [.text(uri: "notes://readme", mimeType: "text/plain", text: "hello")],
            cache: CacheHint(ttlMs: 60_000, scope: .public))
        try await host.resource("notes://{id}", name: "note", completions: ["id": ["1", "12", "2"]]) { uri, vars in
            guard vars["id"] != "404" else { throw MCPHandlerError.notFound }
            return [.text(uri: uri, mimeType: "text/plain", text: "note \(vars["id"] ?? "")")]
        }
        try await host.prompt("greet", arguments: [PromptArgument(name: "name", required: true)]) { args in
            Wire.GetPromptResult(description: "greet", messages: [Wire.PromptMessage(role: "user", content: .text("Hello, \(args["name"] ?? "")!"))])
        }
        let transport = MemoryTransport()
        let server = Task { await host.run(lines: transport.serverLines) { transport.deliver($0) } }
        let client = try MCPClient(transport: transport)
        let session = try await client.connect()
        XCTAssertEqual(session.era, .modern)

        let listing = try await client.listResources()
        XCTAssertTrue(listing.pages.first?.json.contains("notes://readme") ?? false)
        let templates = try await client.listResourceTemplates()
        XCTAssertTrue(templates.pages.first?.json.contains("notes://{id}") ?? false)
        let readme = try await client.readResource("notes://readme")
        XCTAssertEqual(try firstText(readme), "hello")
        let again = try await client.readResource("notes://readme")
        XCTAssertTrue(again.fromCache)
        let seven = try await client.readResource("notes://7")
        XCTAssertEqual(try firstText(seven), "note 7")
        do {
            _ = try await client.readResource("notes://404")
            XCTFail("expected not found")
        } catch let error as CallError {
            guard case .server(.resourceNotFound(let uri, _)) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(uri, "notes://404")
        }
        let prompt = try await client.getPrompt("greet", arguments: ["name": "swift"])
        XCTAssertTrue(prompt.json.contains("Hello, swift!"))
        let completion = try await client.complete(.resource(uriTemplate: "notes://{id}"), argument: "id", value: "1")
        XCTAssertTrue(completion.json.contains("\"12\""))

        // Listen until an update.
        var acknowledged = false
        for try await event in await client.listen(SubscriptionFilter(resourceSubscriptions: ["notes://7"])) {
            if case .acknowledged = event {
                acknowledged = true
                await host.resourceUpdated("notes://7")
            }
            if case .notified(_, .resourceUpdated(let uri)) = event {
                XCTAssertEqual(uri, "notes://7")
                break
            }
        }
        XCTAssertTrue(acknowledged)
        await client.close()
        await server.value
    }

    /// MCPClient over stdio against the Rust demo server (scripts/swift-test.sh sets
    /// MCP_DEMO_SERVER): read, cache, not found, prompt, listen until an update.
    func testClientOverStdioAgainstTheRustDemoServer() async throws {
        let path = try XCTUnwrap(ProcessInfo.processInfo.environment["MCP_DEMO_SERVER"], "MCP_DEMO_SERVER not set")
        let client = try MCPClient(transport: StdioTransport(command: path, arguments: ["--tick-ms", "100"]))
        let session = try await client.connect()
        XCTAssertEqual(session.version, "2026-07-28")
        let listing = try await client.listResources()
        XCTAssertTrue(listing.pages.first?.json.contains("notes://readme") ?? false)
        let readme = try await client.readResource("notes://readme")
        XCTAssertTrue(try firstText(readme)?.contains("notes://{project}/{id}") ?? false)
        let cached = try await client.readResource("notes://readme")
        XCTAssertTrue(cached.fromCache)
        do {
            _ = try await client.readResource("notes://acme/999")
            XCTFail("expected not found")
        } catch let error as CallError {
            guard case .server(.resourceNotFound) = error else { return XCTFail("\(error)") }
        }
        let prompt = try await client.getPrompt("review_note", arguments: ["project": "acme", "id": "1"])
        XCTAssertTrue(prompt.json.contains("messages"))
        var updated = false
        for try await event in await client.listen(SubscriptionFilter(resourceSubscriptions: ["notes://acme/1"])) {
            if case .notified(_, .resourceUpdated(let uri)) = event {
                XCTAssertEqual(uri, "notes://acme/1")
                updated = true
                break
            }
        }
        XCTAssertTrue(updated)
        await client.close()
    }

    /// MCPClient over Streamable HTTP (URLSession, JSON and SSE) against the Node example
    /// server (`node examples/node/server.mjs --kb --http 0`, started by scripts/swift-test.sh,
    /// which sets MCP_NODE_HTTP_URL).
    func testClientOverHTTPAgainstTheNodeServer() async throws {
        guard let text = ProcessInfo.processInfo.environment["MCP_NODE_HTTP_URL"], !text.isEmpty,
              let url = URL(string: text) else {
            throw XCTSkip("MCP_NODE_HTTP_URL not set (no Node server)")
        }
        let client = try MCPClient(transport: HTTPTransport(url: url))
        let session = try await client.connect()
        XCTAssertEqual(session.version, "2026-07-28")
        let listing = try await client.listResources()
        // The template's list callback answers through the dynamic lists: its items follow
        // the registered resources (the page that ends them carries the first of them).
        XCTAssertTrue(listing.pages.contains { $0.json.contains("kb://acme/fiches/changement-adresse") })
        XCTAssertTrue(listing.pages.contains { $0.json.contains("kb://acme/charte-reponse") })
        let charter = try await client.readResource("kb://acme/charte-reponse")
        XCTAssertTrue(try firstText(charter)?.hasPrefix("# Charte de réponse") ?? false)
        let sheet = try await client.readResource("kb://acme/fiches/resiliation-contrat", policy: .refresh)
        XCTAssertTrue(try firstText(sheet)?.contains("Résilier un contrat") ?? false)
        do {
            _ = try await client.readResource("kb://acme/fiches/inconnue")
            XCTFail("expected not found")
        } catch let error as CallError {
            guard case .server(.resourceNotFound) = error else { return XCTFail("\(error)") }
        }
        let prompt = try await client.getPrompt("repondre_ticket", arguments: ["ticketId": "T-1", "ton": "chaleureux"])
        XCTAssertTrue(prompt.json.contains("T-1"))
        // A listen is answered on an SSE stream: the acknowledgment arrives through it.
        var acknowledged = false
        for try await event in await client.listen(SubscriptionFilter(resourceSubscriptions: ["kb://acme/charte-reponse"])) {
            if case .acknowledged(_, let honoured, _) = event {
                XCTAssertEqual(honoured.resourceSubscriptions, ["kb://acme/charte-reponse"])
                acknowledged = true
                break
            }
        }
        XCTAssertTrue(acknowledged)
        await client.close()
    }

    /// Tools in the core's registry: `tools/list`, `tools/call` (async handler), an unknown
    /// tool, and `tools` announced by `server/discover`; raw JSON-RPC lines as a client sends.
    func testToolsThroughExtensionMethods() async throws {
        let host = try MCPServerHost(name: "tools", version: "1.0.0")
        try await host.tool("add", description: "Adds two numbers",
                            inputSchema: ["type": "object", "properties": ["a": ["type": "number"], "b": ["type": "number"]]]) { args in
            guard case .number(let a)? = args["a"], case .number(let b)? = args["b"] else {
                throw MCPHandlerError.invalidParams("a and b must be numbers")
            }
            try await MCPServerHost.progress(0.5, total: 1, message: "adding")
            try await Task.sleep(nanoseconds: 5_000_000)
            return Wire.CallToolResult(content: [.text("\(Int(a + b))")], structuredContent: ["sum": .number(a + b)])
        }
        let (lines, input) = AsyncStream<Data>.makeStream()
        let (answers, output) = AsyncStream<Data>.makeStream()
        let server = Task { await host.run(lines: lines) { output.yield($0) } }
        let meta = #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#
        var replies = answers.makeAsyncIterator()
        func ask(_ line: String) async throws -> [String: Any] {
            input.yield(Data(line.utf8))
            let next = await replies.next()
            let bytes = try XCTUnwrap(next)
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        }
        let discover = try await ask(#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"# + meta + "}}")
        let caps = (discover["result"] as? [String: Any])?["capabilities"] as? [String: Any]
        XCTAssertNotNil(caps?["tools"])
        let list = try await ask(#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"# + meta + "}}")
        let tools = (list["result"] as? [String: Any])?["tools"] as? [[String: Any]]
        XCTAssertEqual(tools?.first?["name"] as? String, "add")
        let call = try await ask(#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":40},"# + meta + "}}")
        let result = try XCTUnwrap(call["result"] as? [String: Any])
        XCTAssertEqual(result["resultType"] as? String, "complete")
        XCTAssertEqual((result["content"] as? [[String: Any]])?.first?["text"] as? String, "42")
        // With a progressToken: notifications/progress first, then the result.
        let progress = try await ask(#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":1},"_meta":{"progressToken":"p1","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#)
        XCTAssertEqual(progress["method"] as? String, "notifications/progress")
        let note = try XCTUnwrap(progress["params"] as? [String: Any])
        XCTAssertEqual(note["progressToken"] as? String, "p1")
        XCTAssertEqual(note["progress"] as? Double, 0.5)
        let next = await replies.next()
        let after = try XCTUnwrap(next)
        let final = try XCTUnwrap(try JSONSerialization.jsonObject(with: after) as? [String: Any])
        XCTAssertEqual(final["id"] as? Int, 6)
        XCTAssertNotNil(final["result"])
        let unknown = try await ask(#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope","arguments":{},"# + meta + "}}")
        XCTAssertEqual((unknown["error"] as? [String: Any])?["code"] as? Int, -32602)
        let bad = try await ask(#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add","arguments":{"a":"x"},"# + meta + "}}")
        XCTAssertEqual((bad["error"] as? [String: Any])?["code"] as? Int, -32602)
        input.finish()
        await server.value
    }

    /// MCPClient's own methods (`Client::request`) against MCPServerHost's tools.
    func testClientCallsToolsOfTheHost() async throws {
        let host = try MCPServerHost(name: "tools", version: "1.0.0")
        try await host.tool("echo", description: "Echoes its text") { args in
            Wire.CallToolResult(content: [.text(args["text"]?.stringValue ?? "")])
        }
        let transport = MemoryTransport()
        let server = Task { await host.run(lines: transport.serverLines) { transport.deliver($0) } }
        let client = try MCPClient(transport: transport)
        let tools = try await client.listTools()
        XCTAssertEqual(tools.tools.map(\.name), ["echo"])
        let result = try await client.callTool("echo", arguments: ["text": "héllo"])
        XCTAssertEqual(result.content.first?.text, "héllo")
        do {
            _ = try await client.request("resources/read", params: ["uri": "x://y"])
            XCTFail("the machine owns resources/read")
        } catch let error as ClientError {
            XCTAssertEqual(error, .ownedMethod)
        }
        await client.close()
        await server.value
    }

    /// `input_required`: the handler throws MCPInputRequired, MCPClient's async input handler
    /// answers, the retry runs the handler again with `MCPServerHost.retry`.
    func testInputRequiredThroughTheAsyncCallback() async throws {
        let host = try MCPServerHost(name: "ask", version: "1.0.0")
        try await host.resource("vault://{item}", name: "vault") { uri, vars in
            guard let retry = MCPServerHost.retry else {
                throw MCPInputRequired(["confirm": [
                    "method": "elicitation/create",
                    "params": ["message": "Open the vault?", "requestedSchema": [
                        "type": "object", "properties": ["ok": ["type": "boolean"]]]],
                ]])
            }
            let answer = try Wire.JSON(text: retry.inputResponses["confirm"] ?? "{}")
            guard answer["action"]?.stringValue == "accept" else { throw MCPHandlerError.invalidParams("declined") }
            return [.text(uri: uri, mimeType: "text/plain", text: "opened \(vars["item"] ?? "")")]
        }
        let transport = MemoryTransport()
        let server = Task { await host.run(lines: transport.serverLines) { transport.deliver($0) } }
        let asked = Stamp()
        let client = try MCPClient(transport: transport, inputHandler: { requests in
            XCTAssertEqual(requests["confirm"]?.method, "elicitation/create")
            asked.set(1)
            return ["confirm": #"{"action":"accept","content":{"ok":true}}"#]
        }) { $0.capabilitiesJson = #"{"elicitation":{}}"# }
        let reply = try await client.readResource("vault://gold")
        XCTAssertEqual(try firstText(reply), "opened gold")
        XCTAssertEqual(asked.get, 1)
        await client.close()
        await server.value
    }

    /// Dynamic lists: `resources/list` pages through the registered resources, then the
    /// host's own pages (its cursor in, the next cursor out).
    func testDynamicResourceListing() async throws {
        let host = try MCPServerHost(name: "dyn", version: "1.0.0") {
            $0.dynamicResources = true
            $0.pageSize = 2
        }
        try await host.resource(
            "static://a", name: "a", contents: [.text(uri: "static://a", mimeType: nil, text: "a")])
        await host.listResources { cursor in
            let start = Int(cursor ?? "0") ?? 0
            let items = (start..<min(start + 2, 5)).map { Resource(uri: "dyn://\($0)", name: "d\($0)") }
            return (items, start + 2 < 5 ? String(start + 2) : nil)
        }
        let transport = MemoryTransport()
        let server = Task { await host.run(lines: transport.serverLines) { transport.deliver($0) } }
        let client = try MCPClient(transport: transport)
        let listing = try await client.listResources()
        let uris = try listing.pages.flatMap { try $0.decode(Wire.ListResourcesResult.self).resources.map(\.uri) }
        XCTAssertEqual(uris, ["static://a", "dyn://0", "dyn://1", "dyn://2", "dyn://3", "dyn://4"])
        await client.close()
        await server.value
    }

    /// The run loop honours the machine's deadline without input: a handler that never
    /// answers gets the machine's timeout error on the wire.
    func testRunLoopHonoursTheMachineTimerWithoutInput() async throws {
        let host = try MCPServerHost(name: "stuck", version: "1.0.0") { $0.requestTimeoutMs = 200 }
        try await host.resource("stuck://{x}", name: "stuck") { _, _ in
            try await Task.sleep(nanoseconds: 10_000_000_000)
            return []
        }
        let transport = MemoryTransport()
        let server = Task { await host.run(lines: transport.serverLines) { transport.deliver($0) } }
        let client = try MCPClient(transport: transport)
        let start = monotonicMs()
        do {
            _ = try await client.readResource("stuck://a")
            XCTFail("expected the deadline's error")
        } catch let error as CallError {
            guard case .server(.internal) = error else { return XCTFail("\(error)") }
        }
        let elapsed = monotonicMs() - start
        XCTAssertLessThan(elapsed, 2_000, "timed out after \(elapsed) ms")
        await client.close()
        server.cancel()
    }

    func testSSEParsing() throws {
        // The core's decoder: events across chunks, CRLF, comments; an unfinished event waits.
        let decoder = SseDecoder(maxEvent: sseDefaultMaxEvent())
        var events = try decoder.feed(chunk: Data("event: message\ndata: {\"a\":1}\n\n: keepalive\n\ndata: {\"b\":\r".utf8))
        events += try decoder.feed(chunk: Data("\ndata: 2}\r\n\r\ndata: {\"c\"".utf8))
        XCTAssertEqual(events.map { String(decoding: $0.data, as: UTF8.self) }, ["{\"a\":1}", "{\"b\":\n2}"])
        XCTAssertThrowsError(try SseDecoder(maxEvent: 4).feed(chunk: Data("data: 12345".utf8)))
    }

    /// MCPClient keeps a 2025-11-25 session with the TypeScript SDK 1.x server over HTTP
    /// (`tests/interop/ts/legacy-server.mjs --http`, started by scripts/swift-test.sh, which
    /// sets MCP_LEGACY_HTTP_URL): the session id on every request, a new session after the
    /// server ends one (404), the DELETE at close.
    func testClientKeepsALegacySessionOverHTTP() async throws {
        guard let text = ProcessInfo.processInfo.environment["MCP_LEGACY_HTTP_URL"], !text.isEmpty,
              let url = URL(string: text) else {
            throw XCTSkip("MCP_LEGACY_HTTP_URL not set (no TypeScript SDK 1.x server)")
        }
        let client = try MCPClient(transport: HTTPTransport(url: url))
        let session = try await client.connect()
        XCTAssertEqual(session.era, .legacy)
        XCTAssertNotNil(client.machine.httpSessionId())
        func read(_ c: MCPClient, _ uri: String) async throws -> String? {
            try firstText(try await c.readResource(uri, policy: .refresh))
        }
        let served = try await read(client, "test://static")
        XCTAssertEqual(served, "static text")
        let live = try await read(client, "test://sessions")
        XCTAssertEqual(live, "1")
        let first = client.machine.httpSessionId()
        let ending = try await read(client, "test://end-session")
        XCTAssertEqual(ending, "ending")
        // The server closes it just after answering: reads keep working throughout, and once
        // it is gone the client is in a new session.
        for _ in 0..<100 {
            let again = try await read(client, "test://static")
            XCTAssertEqual(again, "static text")
            if let now = client.machine.httpSessionId(), now != first { break }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        XCTAssertNotNil(client.machine.httpSessionId())
        XCTAssertNotEqual(client.machine.httpSessionId(), first)
        await client.close()
        let other = try MCPClient(transport: HTTPTransport(url: url))
        let left = try await read(other, "test://sessions")
        XCTAssertEqual(left, "1")
        await other.close()
    }
}
