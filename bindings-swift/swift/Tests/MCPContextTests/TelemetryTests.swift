import Foundation
import XCTest

import MCPContext

/// Observations collected from any task.
final class Observed: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [ServerObservation] = []
    func add(_ o: ServerObservation) { lock.withLock { items.append(o) } }
    var all: [ServerObservation] { lock.withLock { items } }
    var requests: [RequestObservation] {
        all.compactMap { (o: ServerObservation) -> RequestObservation? in
            if case .request(let r) = o { return r }
            return nil
        }
    }
    var refusals: [String] {
        all.compactMap { (o: ServerObservation) -> String? in
            if case .refused(let limit, _, _, _) = o { return limit }
            return nil
        }
    }
}

/// Middleware calls seen, in order.
final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.withLock { items.append(s) } }
    var all: [String] { lock.withLock { items } }
}

/// MCPServerHost's telemetry (docs/operations.md): `onObservation` gets the core's record of
/// each request (span name, attributes, the `_meta` traceparent, outcome), middleware sees,
/// annotates and refuses, the rate limit answers -31429 and is observed as a `rate` refusal,
/// the response cap answers -31413.
final class TelemetryTests: XCTestCase {
    func testObservationsMiddlewareRateLimitAndResponseCap() async throws {
        let host = try MCPServerHost(name: "otel", version: "1.0.0")
        try await host.tool("echo", description: "echo", inputSchema: ["type": "object"]) { args in
            Wire.CallToolResult(content: [.text("\(args.count)")])
        }
        try await host.tool("big", description: "big", inputSchema: ["type": "object"]) { _ in
            Wire.CallToolResult(content: [.text(String(repeating: "x", count: 4096))])
        }
        let observed = Observed(), seen = Seen()
        await host.onObservation { observed.add($0) }
        await host.use { call, next in
            seen.add("outer \(call.method) \(call.target ?? "-") \(call.caller)")
            call.annotate("tenant", "acme")
            try await next()
            seen.add("outer after")
        }
        await host.use(MCPServerHost.rateLimit(perSecond: 0.001, burst: 3))
        await host.limitResponses(1024)
        let (lines, input) = AsyncStream<Data>.makeStream()
        let (answers, output) = AsyncStream<Data>.makeStream()
        let server = Task { await host.run(lines: lines) { output.yield($0) } }
        var replies = answers.makeAsyncIterator()
        func ask(_ line: String) async throws -> [String: Any] {
            input.yield(Data(line.utf8))
            let next = await replies.next()
            let bytes = try XCTUnwrap(next)
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        }
        let meta = #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}"#
        let call = { (id: Int, name: String) -> String in
            #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"\#(name)","arguments":{"a":1},"# + meta + "}}"
        }
        let ok = try await ask(call(1, "echo"))
        XCTAssertNotNil(ok["result"])
        let big = try await ask(call(2, "big"))
        XCTAssertEqual((big["error"] as? [String: Any])?["code"] as? Int, Int(responseTooLargeCode()))
        _ = try await ask(call(3, "echo"))
        let limited = try await ask(call(4, "echo"))
        let error = try XCTUnwrap(limited["error"] as? [String: Any])
        XCTAssertEqual(error["code"] as? Int, -31429)
        XCTAssertTrue((error["message"] as? String)?.hasPrefix("Rate limit exceeded: retry after") ?? false)
        input.finish()
        await server.value

        let requests = observed.requests
        XCTAssertEqual(requests.map(\.spanName), ["tools/call echo", "tools/call big", "tools/call echo", "tools/call echo"])
        let first = requests[0]
        XCTAssertEqual(first.attributes["mcp.method.name"], "tools/call")
        XCTAssertEqual(first.attributes["gen_ai.tool.name"], "echo")
        XCTAssertEqual(first.attributes["jsonrpc.request.id"], "1")
        XCTAssertEqual(first.attributes["network.transport"], "pipe")
        XCTAssertEqual(first.attributes["tenant"], "acme")
        XCTAssertEqual(first.outcome, "ok")
        XCTAssertEqual(first.parent?.traceId, "4bf92f3577b34da6a3ce929d0e0e4736")
        XCTAssertEqual(first.parent?.spanId, "00f067aa0ba902b7")
        XCTAssertEqual(requests[1].errorType, String(responseTooLargeCode()))
        XCTAssertEqual(requests[3].errorType, "-31429")
        XCTAssertEqual(Set(observed.refusals), ["response", "rate"])
        XCTAssertEqual(seen.all.first, "outer tools/call echo 0")
        XCTAssertEqual(seen.all.filter { $0 == "outer after" }.count, 3) // echo, big, echo
        XCTAssertEqual(parseTraceParent(text: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")?.traceFlags, 1)
        XCTAssertNil(parseTraceParent(text: "nope"))
    }
}
