// What the core's gate costs a Swift stdio server (docs/operations.md "The gate"): reads/s of a
// template resource through MCPServerHost.run over in-memory lines, `inFlight` requests
// outstanding, with no middleware (`off`: the gate stays off) and with one middleware that
// allows everything (`noop`: every request stops at the gate, its chain runs as a task).
// Rounds alternate between the modes in one process; the best of each is printed.
//
//     swift run -c release mcp-gate-cost [reads] [rounds] [inFlight]
import Foundation
import MCPContext

func server(_ mode: String) async throws -> MCPServerHost {
    let host = try MCPServerHost(name: "gate-cost", version: "1.0.0")
    try await host.resource("notes://{id}", name: "note") { uri, _ in
        [.text(uri: uri, mimeType: "text/plain", text: "hi")]
    }
    if mode == "noop" {
        await host.use { _, next in try await next() }
    }
    return host
}

func line(_ id: Int) -> Data {
    Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"resources/read","params":{"uri":"notes://\#(id % 100)","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#.utf8)
}

/// Reads per second of one round.
func round(_ mode: String, reads: Int, inFlight: Int) async throws -> Double {
    let host = try await server(mode)
    let (lines, input) = AsyncStream<Data>.makeStream()
    let (answers, output) = AsyncStream<Data>.makeStream()
    let running = Task { await host.run(lines: lines) { output.yield($0) } }
    let start = DispatchTime.now().uptimeNanoseconds
    var sent = 0, received = 0
    while sent < min(inFlight, reads) {
        input.yield(line(sent))
        sent += 1
    }
    for await answer in answers {
        precondition(!answer.isEmpty)
        received += 1
        if received == reads { break }
        if sent < reads {
            input.yield(line(sent))
            sent += 1
        }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    input.finish()
    await running.value
    return Double(reads) / seconds
}

let args = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let reads = args.count > 0 ? args[0] : 20_000
let rounds = args.count > 1 ? args[1] : 3
let inFlight = args.count > 2 ? args[2] : 64
var best: [String: Double] = ["off": 0, "noop": 0]
for _ in 0..<rounds {
    for mode in ["off", "noop"] {
        let rate = try await round(mode, reads: reads, inFlight: inFlight)
        best[mode] = max(best[mode] ?? 0, rate)
        print("\(mode) \(Int(rate)) reads/s")
    }
}
let off = best["off"] ?? 0, noop = best["noop"] ?? 0
print("best of \(rounds): off \(Int(off)) reads/s, noop \(Int(noop)) reads/s, noop/off \(String(format: "%.2f", noop / off))")
