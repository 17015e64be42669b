import Foundation
import XCTest

import MCPContext

/// One stdio link to a running MCPServerHost: a line in, its answer out.
final class Link: @unchecked Sendable {
    private let input: AsyncStream<Data>.Continuation
    private var replies: AsyncStream<Data>.AsyncIterator
    private let server: Task<Void, Never>

    init(_ host: MCPServerHost, caller: UInt64 = 0) {
        let (lines, input) = AsyncStream<Data>.makeStream()
        let (answers, output) = AsyncStream<Data>.makeStream()
        self.input = input
        replies = answers.makeAsyncIterator()
        server = Task {
            await host.run(lines: lines, context: MessageContext(stream: 0, auth: caller, transport: .stdio)) { output.yield($0) }
        }
    }

    func ask(_ id: Int, _ method: String, _ params: String = "", traceparent: String? = nil) async throws -> [String: Any] {
        var meta = #""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}"#
        if let traceparent { meta += #","traceparent":"\#(traceparent)""# }
        let sep = params.isEmpty ? "" : ","
        input.yield(Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":{\#(params)\#(sep)"_meta":{\#(meta)}}}"#.utf8))
        let next = await replies.next()
        let bytes = try XCTUnwrap(next)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
    }

    func close() async {
        input.finish()
        await server.value
    }
}

/// What an OTLP receiver would hold after a session, built from the plain callback the way
/// the OpenTelemetry sinks of the other runners build it: one SERVER span per request
/// observation (name, attributes, parent), a request counter by method/outcome/error.type, a
/// duration histogram's count, a refusal counter by limit.
final class Collector: @unchecked Sendable {
    struct Span {
        let name: String
        let kind = "SERVER"
        let attributes: [String: String]
        let traceId: String?
        let parentSpanId: String?
        let error: Bool
        let startMs: UInt64
        let endMs: UInt64
    }
    struct Key: Hashable {
        let method: String
        let outcome: String
        let errorType: String?
    }
    private let lock = NSLock()
    private var spanList: [Span] = []
    private var requestCounts: [Key: Int] = [:]
    private var refusalCounts: [String: Int] = [:]
    private var durations = 0

    func record(_ o: ServerObservation) {
        lock.withLock {
            switch o {
            case .request(let r):
                spanList.append(Span(
                    name: r.spanName, attributes: r.attributes, traceId: r.parent?.traceId,
                    parentSpanId: r.parent?.spanId, error: r.errorType != nil, startMs: r.startMs, endMs: r.endMs))
                requestCounts[Key(method: r.method, outcome: r.outcome, errorType: r.errorType), default: 0] += 1
                durations += 1
            case .refused(let limit, _, _, _):
                refusalCounts[limit, default: 0] += 1
            }
        }
    }

    var spans: [String: Span] {
        lock.withLock { Dictionary(spanList.map { ($0.attributes["jsonrpc.request.id"] ?? "?", $0) }, uniquingKeysWith: { a, _ in a }) }
    }
    var requests: [Key: Int] { lock.withLock { requestCounts } }
    var refusals: [String: Int] { lock.withLock { refusalCounts } }
    var durationCount: Int { lock.withLock { durations } }
}

/// Lines written by the request log.
final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.withLock { items.append(s) } }
    var objects: [[String: Any]] {
        lock.withLock { items }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

/// The scripted session of the OTLP tests (tests/otlp, bindings-python/tests/test_otlp_export.py)
/// through the Swift host, checked at the plain callback: middleware runs at the core's gate,
/// so the rate limit counts the requests the core answers itself (the list) too.
final class TelemetryScriptTests: XCTestCase {
    static let metaTrace = "4bf92f3577b34da6a3ce929d0e0e4736", metaParent = "00f067aa0ba902b7"
    static let readTrace = "0af7651916cd43dd8448eb211c80319c", readParent = "b7ad6b7169203331"

    func demo() async throws -> MCPServerHost {
        let host = try MCPServerHost(name: "otlp", version: "1.0.0")
        try await host.resource(
            "notes://{id}", name: "note",
            listed: [Resource(uri: "notes://1", name: "note 1", title: nil, description: nil, mimeType: "text/plain", size: nil)]
        ) { uri, variables in
            guard variables["id"] == "1" else { throw MCPHandlerError.notFound }
            return [.text(uri: uri, mimeType: "text/plain", text: "hi")]
        }
        try await host.prompt("greet", arguments: [PromptArgument(name: "who", title: nil, description: nil, required: true)]) { args in
            Wire.GetPromptResult(description: nil, messages: [Wire.PromptMessage(role: "user", content: .text("hello \(args["who"] ?? "")"))])
        }
        struct Boom: Error {}
        try await host.tool("boom") { _ in throw Boom() }
        try await host.tool("big") { _ in Wire.CallToolResult(content: [.text(String(repeating: "x", count: 4096))]) }
        try await host.tool("echo") { _ in Wire.CallToolResult(content: [.text("hi")]) }
        return host
    }

    func testAScriptedSessionGivesTheSpansAndMetricsOfTheOTLPTests() async throws {
        let host = try await demo()
        let collector = Collector(), log = Lines()
        await host.onObservation { collector.record($0) }
        await host.onObservation(MCPServerHost.jsonLog { log.add($0) })
        let gated = Lines()
        await host.use { call, next in
            gated.add(#"{"method":"\#(call.method)","id":"\#(call.requestId)","caller":\#(call.caller)}"#)
            call.annotate("app.tenant", "acme")
            try await next()
        }
        // Six requests pass; the seventh is over the rate (the list counts: it is gated).
        await host.use(MCPServerHost.rateLimit(perSecond: 0.001, burst: 6))
        await host.limitResponses(1024)
        let link = Link(host, caller: 7)
        let list = try await link.ask(1, "resources/list", traceparent: "00-\(Self.metaTrace)-\(Self.metaParent)-01")
        let read = try await link.ask(2, "resources/read", #""uri":"notes://1""#, traceparent: "00-\(Self.readTrace)-\(Self.readParent)-01")
        let prompt = try await link.ask(3, "prompts/get", #""name":"greet","arguments":{"who":"ada"}"#)
        let boom = try await link.ask(4, "tools/call", #""name":"boom","arguments":{}"#)
        let unknown = try await link.ask(5, "resources/read", #""uri":"notes://2""#)
        let big = try await link.ask(6, "tools/call", #""name":"big","arguments":{}"#)
        let echo = try await link.ask(7, "tools/call", #""name":"echo","arguments":{}"#)
        await link.close()

        XCTAssertNotNil(list["result"], "\(list)")
        XCTAssertNotNil(read["result"], "\(read)")
        XCTAssertNotNil(prompt["result"], "\(prompt)")
        XCTAssertEqual((boom["result"] as? [String: Any])?["isError"] as? Bool, true, "\(boom)")
        let notFound = try XCTUnwrap((unknown["error"] as? [String: Any])?["code"] as? Int, "\(unknown)")
        XCTAssertEqual((big["error"] as? [String: Any])?["code"] as? Int, Int(responseTooLargeCode()), "\(big)")
        let limited = try XCTUnwrap(echo["error"] as? [String: Any], "\(echo)")
        XCTAssertEqual(limited["code"] as? Int, Int(rateLimitedCode()))
        XCTAssertTrue((limited["message"] as? String)?.hasPrefix("Rate limit exceeded: retry after ") ?? false, "\(limited)")

        // Middleware saw every request at the gate, the core-answered list first, with the caller.
        XCTAssertEqual(gated.objects.map { $0["method"] as? String }, [
            "resources/list", "resources/read", "prompts/get", "tools/call", "resources/read", "tools/call", "tools/call",
        ])
        XCTAssertEqual(Set(gated.objects.map { $0["caller"] as? Int }), [7])

        // Spans: names, kind, attributes, the client's trace and parent span ids.
        let spans = collector.spans
        XCTAssertEqual(spans.keys.sorted(), ["1", "2", "3", "4", "5", "6", "7"])
        XCTAssertEqual((1...7).map { spans[String($0)]?.name }, [
            "resources/list", "resources/read", "prompts/get greet", "tools/call boom", "resources/read",
            "tools/call big", "tools/call echo",
        ])
        for (_, s) in spans {
            XCTAssertEqual(s.kind, "SERVER")
            XCTAssertEqual(s.attributes["network.transport"], "pipe")
            XCTAssertEqual(s.attributes["mcp.protocol.version"], "2026-07-28")
            XCTAssertEqual(s.attributes["mcp_context.caller"], "7")
            XCTAssertEqual(s.attributes["app.tenant"], "acme", "gate annotations reach every span")
            XCTAssertGreaterThanOrEqual(s.endMs, s.startMs)
        }
        let listed = try XCTUnwrap(spans["1"]), readSpan = try XCTUnwrap(spans["2"])
        XCTAssertEqual(listed.traceId, Self.metaTrace)
        XCTAssertEqual(listed.parentSpanId, Self.metaParent)
        XCTAssertEqual(listed.attributes["mcp.method.name"], "resources/list")
        XCTAssertFalse(listed.error)
        XCTAssertEqual(readSpan.traceId, Self.readTrace)
        XCTAssertEqual(readSpan.parentSpanId, Self.readParent)
        XCTAssertEqual(readSpan.attributes["mcp.resource.uri"], "notes://1")
        XCTAssertNil(readSpan.attributes["error.type"])
        XCTAssertEqual(spans["3"]?.attributes["gen_ai.prompt.name"], "greet")
        XCTAssertNil(spans["3"]?.parentSpanId, "no traceparent: a new trace")
        let boomSpan = try XCTUnwrap(spans["4"])
        XCTAssertEqual(boomSpan.attributes["gen_ai.tool.name"], "boom")
        XCTAssertEqual(boomSpan.attributes["gen_ai.operation.name"], "execute_tool")
        XCTAssertEqual(boomSpan.attributes["error.type"], "tool_error")
        XCTAssertTrue(boomSpan.error)
        XCTAssertEqual(spans["5"]?.attributes["mcp.resource.uri"], "notes://2")
        XCTAssertEqual(spans["5"]?.attributes["error.type"], String(notFound))
        XCTAssertEqual(spans["5"]?.attributes["rpc.response.status_code"], String(notFound))
        XCTAssertEqual(spans["6"]?.attributes["error.type"], String(responseTooLargeCode()))
        XCTAssertEqual(spans["7"]?.attributes["error.type"], String(rateLimitedCode()))
        XCTAssertEqual(spans["7"]?.attributes["jsonrpc.request.id"], "7")

        // Metrics: requests by method, outcome and error.type; durations; refusals by limit.
        typealias K = Collector.Key
        XCTAssertEqual(collector.requests, [
            K(method: "resources/list", outcome: "ok", errorType: nil): 1,
            K(method: "resources/read", outcome: "ok", errorType: nil): 1,
            K(method: "prompts/get", outcome: "ok", errorType: nil): 1,
            K(method: "tools/call", outcome: "tool_error", errorType: "tool_error"): 1,
            K(method: "resources/read", outcome: "error", errorType: String(notFound)): 1,
            K(method: "tools/call", outcome: "error", errorType: String(responseTooLargeCode())): 1,
            K(method: "tools/call", outcome: "error", errorType: String(rateLimitedCode())): 1,
        ])
        XCTAssertEqual(collector.durationCount, 7)
        XCTAssertEqual(collector.refusals, ["rate": 1, "response": 1])

        // The request log: one line per request, one per refusal, the Rust host's keys.
        let lines = log.objects
        let requestLines = lines.filter { $0["method"] != nil }
        XCTAssertEqual(requestLines.map { $0["request_id"] as? String }, ["1", "2", "3", "4", "5", "6", "7"])
        XCTAssertEqual(Set(requestLines[0].keys), [
            "ts_ms", "method", "request_id", "target", "caller", "era", "session_id", "outcome", "error_type",
            "duration_ms", "trace_id", "annotations",
        ])
        XCTAssertEqual(requestLines[0]["trace_id"] as? String, Self.metaTrace)
        XCTAssertEqual((requestLines[0]["annotations"] as? [String: String])?["app.tenant"], "acme")
        XCTAssertEqual(requestLines[6]["error_type"] as? String, String(rateLimitedCode()))
        XCTAssertEqual(lines.compactMap { $0["refused"] as? String }.sorted(), ["rate", "response"])
    }

    /// A rate limit refuses requests the core answers itself (a list, discovery): they pass
    /// the gate like any other, so the limit cannot be bypassed.
    func testTheRateLimitRefusesACoreAnsweredList() async throws {
        let host = try MCPServerHost(name: "limited", version: "1.0.0")
        try await host.resource("notes://1", name: "note", contents: [.text(uri: "notes://1", mimeType: "text/plain", text: "hi")])
        let collector = Collector()
        await host.onObservation { collector.record($0) }
        let after = Lines()
        await host.use { call, next in
            try await next()
            after.add(#"{"after":"\#(call.method)","handle":\#(call.handle == nil ? "null" : "1")}"#)
        }
        await host.use(MCPServerHost.rateLimit(perSecond: 0.001, burst: 2))
        let link = Link(host, caller: 3)
        let first = try await link.ask(1, "resources/list")
        let read = try await link.ask(2, "resources/read", #""uri":"notes://1""#)
        let second = try await link.ask(3, "resources/list")
        let discover = try await link.ask(4, "server/discover")
        await link.close()

        XCTAssertNotNil(first["result"], "\(first)")
        XCTAssertNotNil(read["result"], "\(read)")
        for refused in [second, discover] {
            let error = try XCTUnwrap(refused["error"] as? [String: Any], "\(refused)")
            XCTAssertEqual(error["code"] as? Int, -31429)
            let message = try XCTUnwrap(error["message"] as? String)
            let wait = try XCTUnwrap(message.split(separator: " ").dropLast().last.flatMap { UInt64($0) }, message)
            XCTAssertEqual(message, rateLimitedMessage(waitMs: wait))
        }
        XCTAssertEqual(collector.refusals, ["rate": 2])
        XCTAssertEqual(collector.requests[Collector.Key(method: "resources/list", outcome: "error", errorType: "-31429")], 1)
        XCTAssertEqual(collector.requests[Collector.Key(method: "server/discover", outcome: "error", errorType: "-31429")], 1)
        // `after` ran at once for the two requests the core answered (no handler, no handle).
        XCTAssertEqual(after.objects.map { $0["after"] as? String }, ["resources/list", "resources/read"])
        XCTAssertEqual(after.objects.map { $0["handle"] is NSNull }, [true, true])
    }
}
