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

    func send(_ bytes: Data, id: Int64?, method: String?, name: String?, protocolVersion: String?) {
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
        XCTAssertTrue(listing.pages.first?.json.contains("kb://acme/fiches/changement-adresse") ?? false)
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
        await client.close()
    }

    func testSSEParsing() {
        var buffer = Data("event: message\ndata: {\"a\":1}\n\ndata: {\"b\":\r\ndata: 2}\r\n\r\ndata: {\"c\"".utf8)
        let events = HTTPTransport.events(&buffer).map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(events, ["{\"a\":1}", "{\"b\":\n2}"])
        XCTAssertEqual(String(decoding: buffer, as: UTF8.self), "data: {\"c\"")
    }
}
