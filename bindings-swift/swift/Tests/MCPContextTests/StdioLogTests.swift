import Foundation
import XCTest

import MCPContext

/// The lines a server wrote, collected from any task.
final class Written: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ bytes: Data) { lock.withLock { lines.append(String(decoding: bytes, as: UTF8.self)) } }

    /// The first `count` lines, waiting up to 5 s for them.
    func first(_ count: Int) async throws -> [String] {
        for _ in 0..<500 {
            let now = lock.withLock { lines }
            if now.count >= count { return Array(now.prefix(count)) }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        let have = lock.withLock { lines.count }
        XCTFail("only \(have) of \(count) lines written in 5 s")
        throw CocoaError(.fileReadUnknown)
    }
}

final class StdioLogTests: XCTestCase {
    static let meta = #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#

    /// `runStdio` reads through the core's line policy (`ServerConfig.maxLine`): a longer line
    /// gets -32600 with its id, is never buffered, and the next line is served.
    func testRunStdioAnswersALineOverMaxLineWithItsIdAndServesTheNext() async throws {
        let host = try MCPServerHost(name: "lines", version: "1.0.0", configure: { $0.maxLine = 256 })
        XCTAssertEqual(host.machine.maxLine(), 256)
        let input = Pipe(), output = Pipe()
        let server = Task { await host.runStdio(input: input.fileHandleForReading, output: output.fileHandleForWriting) }
        let written = Written()
        let reader = Task { for await line in lines(of: output.fileHandleForReading) { written.append(line) } }
        let long = #"{"jsonrpc":"2.0","id":7,"method":"resources/list","params":{"x":""# + String(repeating: "a", count: 20_000) + #""}}"#
        let next = #"{"jsonrpc":"2.0","id":8,"method":"server/discover","params":{"# + Self.meta + "}}"
        input.fileHandleForWriting.write(Data((long + "\n" + next + "\n").utf8))
        let answers = try await written.first(2).map { try object($0) }
        let (tooLong, served) = (answers[0], answers[1])
        XCTAssertEqual(tooLong["id"] as? Int, 7)
        XCTAssertEqual((tooLong["error"] as? [String: Any])?["code"] as? Int, -32600)
        XCTAssertEqual(served["id"] as? Int, 8)
        XCTAssertNotNil(served["result"])
        input.fileHandleForWriting.closeFile()
        await server.value
        output.fileHandleForWriting.closeFile()
        await reader.value
    }

    /// `host.log` reaches a 2025-11-25 connection at or above its `logging/setLevel`;
    /// `MCPServerHost.log` from a handler goes on its request's stream, before the answer,
    /// when the request admits the level.
    func testLogReachesALegacyConnectionAtItsLevelAndHandlersLogBeforeTheirAnswer() async throws {
        let host = try MCPServerHost(name: "log", version: "1.0.0")
        try await host.prompt("work") { _ in
            let quiet = try await MCPServerHost.log(.info, "skipped")
            let loud = try await MCPServerHost.log(.error, ["step": "one"], logger: "work")
            return Wire.GetPromptResult(description: "\(quiet) \(loud)", messages: [])
        }
        let (input, feed) = AsyncStream<Data>.makeStream()
        let written = Written()
        let server = Task { await host.run(lines: input) { written.append($0) } }
        for line in [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"warning"}}"#,
        ] { feed.yield(Data(line.utf8)) }
        _ = try await written.first(2)
        XCTAssertEqual(try host.log(.info, "below the level"), 0)
        XCTAssertEqual(try host.log(.error, "disk full", logger: "db"), 1)
        let logged = try object(try await written.first(3)[2])
        XCTAssertEqual(logged["method"] as? String, "notifications/message")
        let params = try XCTUnwrap(logged["params"] as? [String: Any])
        XCTAssertEqual(params["level"] as? String, "error")
        XCTAssertEqual(params["logger"] as? String, "db")
        XCTAssertEqual(params["data"] as? String, "disk full")

        feed.yield(Data(#"{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"work"}}"#.utf8))
        let tail = try await written.first(5).suffix(2).map { try object($0) }
        let (message, answer) = (tail[0], tail[1])
        XCTAssertEqual(message["method"] as? String, "notifications/message")
        XCTAssertEqual((message["params"] as? [String: Any])?["logger"] as? String, "work")
        XCTAssertEqual(answer["id"] as? Int, 3)
        XCTAssertEqual((answer["result"] as? [String: Any])?["description"] as? String, "false true")
        feed.finish()
        await server.value
    }

    struct Broken: Error, CustomStringConvertible {
        var description: String { "the disk is full" }
    }

    /// A handler's own error (not an `MCPHandlerError`) is the core's `Failure.handler`: a tool
    /// call's result with `isError: true` and the error's text; -32603 without it elsewhere.
    func testAHandlersOwnErrorIsAToolResultWithIsErrorOrAnInternalError() async throws {
        let host = try MCPServerHost(name: "fail", version: "1.0.0")
        try await host.tool("save") { _ in throw Broken() }
        try await host.prompt("draft") { _ in throw Broken() }
        let (input, feed) = AsyncStream<Data>.makeStream()
        let written = Written()
        let server = Task { await host.run(lines: input) { written.append($0) } }
        feed.yield(Data((#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"save","arguments":{},"# + Self.meta + "}}").utf8))
        let tool = try object(try await written.first(1)[0])
        let result = try XCTUnwrap(tool["result"] as? [String: Any])
        XCTAssertEqual(result["isError"] as? Bool, true)
        XCTAssertEqual((result["content"] as? [[String: Any]])?.first?["text"] as? String, "the disk is full")
        feed.yield(Data((#"{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"draft","# + Self.meta + "}}").utf8))
        let prompt = try object(try await written.first(2)[1])
        let error = try XCTUnwrap(prompt["error"] as? [String: Any])
        XCTAssertEqual(error["code"] as? Int, -32603)
        XCTAssertFalse(String(describing: error).contains("disk"))
        feed.finish()
        await server.value
    }
}
