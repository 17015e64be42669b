// mcp-stdio-client: a Swift host that drives `ClientMachine` against any stdio MCP server it
// spawns (Foundation `Process` + `Pipe`). The machine does the protocol; this file moves
// lines, keeps the clock, and prints what it got.
//
//   mcp-stdio-client [--listen URI] [--prompt NAME [KEY=VALUE...]] -- SERVER [ARGS...]
//
// It connects, lists resources and templates, reads the first resource twice (the second
// from the client's cache when the server's TTL allows), reads a missing URI (a typed
// not-found error), with --prompt gets that prompt (decoded into `Wire.GetPromptResult`), and
// with --listen waits for one `resources/updated` of URI. Exit status 0 means every step got
// the answer the protocol promises.
import Foundation
import MCPContext

struct Failure: Error, CustomStringConvertible {
    let description: String
}

/// Newline-delimited JSON-RPC over a pair of pipes (docs/rules.md §15.2).
final class StdioLink {
    private let input: FileHandle
    private let output: FileHandle
    private var buffer = Data()

    init(reading input: FileHandle, writing output: FileHandle) {
        self.input = input
        self.output = output
    }

    func send(_ bytes: Data) {
        output.write(bytes + Data("\n".utf8))
    }

    /// The next line without its newline; `nil` at end of stream.
    func receive() -> Data? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                return Data(line)
            }
            let chunk = input.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }

    func close() {
        try? output.close()
    }
}

/// Milliseconds on a monotonic clock: the machine's only notion of time.
func nowMs() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds / 1_000_000
}

final class Host {
    let client: ClientMachine
    let link: StdioLink
    private var events: [ClientEvent] = []

    init(client: ClientMachine, link: StdioLink) {
        self.client = client
        self.link = link
    }

    /// The drain rule: after every input, poll until `nil`.
    func drain() {
        while let out = client.pollOutput() {
            switch out {
            case .transmit(let bytes, _, _, _, _, _):
                link.send(bytes)
            case .closeStream:
                break  // HTTP only
            case .event(let event):
                events.append(event)
            }
        }
    }

    /// Feeds server lines to the machine until `pick` accepts an event.
    func wait<T>(for what: String, _ pick: (ClientEvent) -> T?) throws -> T {
        while true {
            drain()
            if let i = events.firstIndex(where: { pick($0) != nil }), let found = pick(events.remove(at: i)) {
                return found
            }
            if let deadline = client.pollTimeout(), deadline <= nowMs() {
                client.handleTimeout(nowMs: nowMs())
                continue
            }
            guard let line = link.receive() else {
                client.handleClose(nowMs: nowMs())
                drain()
                throw Failure(description: "server closed the connection while waiting for \(what)")
            }
            client.handleMessage(bytes: line, nowMs: nowMs())
        }
    }

    func reply(of call: UInt64) throws -> Reply {
        try wait(for: "call \(call)") { event -> Result<Reply, CallError>? in
            switch event {
            case .resourceRead(let c, let reply) where c == call: return .success(reply)
            case .failed(let c, let error) where c == call: return .failure(error)
            default: return nil
            }
        }.get()
    }

    func listing(of call: UInt64) throws -> Listing {
        try wait(for: "list \(call)") { event -> Result<Listing, CallError>? in
            switch event {
            case .resourcesListed(let c, let listing) where c == call: return .success(listing)
            case .templatesListed(let c, let listing) where c == call: return .success(listing)
            case .failed(let c, let error) where c == call: return .failure(error)
            default: return nil
            }
        }.get()
    }
}

func items(_ listing: Listing, _ field: String, _ key: String) throws -> [String] {
    try listing.pages.flatMap { page -> [String] in
        let object = try JSONSerialization.jsonObject(with: Data(page.json.utf8)) as? [String: Any]
        return (object?[field] as? [[String: Any]] ?? []).compactMap { $0[key] as? String }
    }
}

func run() throws {
    var args = Array(CommandLine.arguments.dropFirst())
    var listenUri: String?
    var prompt: (name: String, arguments: [String: String])?
    while let flag = args.first, flag != "--" {
        args.removeFirst()
        switch flag {
        case "--listen" where !args.isEmpty:
            listenUri = args.removeFirst()
        case "--prompt" where !args.isEmpty:
            var arguments: [String: String] = [:]
            let name = args.removeFirst()
            while let pair = args.first, pair.contains("="), !pair.hasPrefix("-") {
                args.removeFirst()
                let parts = pair.split(separator: "=", maxSplits: 1)
                arguments[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            prompt = (name, arguments)
        default:
            throw Failure(description: "unknown argument \(flag)")
        }
    }
    if args.first == "--" { args.removeFirst() }
    guard let command = args.first else {
        throw Failure(description: "usage: mcp-stdio-client [--listen URI] [--prompt NAME [KEY=VALUE...]] -- SERVER [ARGS...]")
    }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: command)
    process.arguments = Array(args.dropFirst())
    let toServer = Pipe()
    let fromServer = Pipe()
    process.standardInput = toServer
    process.standardOutput = fromServer
    try process.run()
    let link = StdioLink(reading: fromServer.fileHandleForReading, writing: toServer.fileHandleForWriting)
    let host = Host(client: try ClientMachine(config: clientConfig(name: "mcp-stdio-client", version: "1.0.0")), link: link)

    host.client.connect(nowMs: nowMs())
    let session = try host.wait(for: "the handshake") { event -> Result<Session, Failure>? in
        switch event {
        case .connected(let session): return .success(session)
        case .connectFailed(let error): return .failure(Failure(description: "connect failed: \(error)"))
        default: return nil
        }
    }.get()
    print("connected: \(session.era) \(session.version), resources=\(session.features.resources) prompts=\(session.features.prompts)")

    let resources = try items(host.listing(of: host.client.listResources(paging: .all, policy: .refresh, nowMs: nowMs())), "resources", "uri")
    print("resources: \(resources.joined(separator: ", "))")
    let templates = try items(host.listing(of: host.client.listResourceTemplates(paging: .all, policy: .refresh, nowMs: nowMs())), "resourceTemplates", "uriTemplate")
    print("templates: \(templates.joined(separator: ", "))")
    guard let first = resources.first else { throw Failure(description: "the server lists no resource") }

    let read = try host.reply(of: host.client.readResource(uri: first, policy: .preferCache, nowMs: nowMs()))
    let contents = (try JSONSerialization.jsonObject(with: Data(read.json.utf8)) as? [String: Any])?["contents"] as? [[String: Any]]
    guard let text = contents?.first?["text"] as? String else { throw Failure(description: "\(first) has no text contents") }
    print("read \(first): \(text.split(separator: "\n").first ?? "") (fromCache: \(read.fromCache))")
    let again = try host.reply(of: host.client.readResource(uri: first, policy: .preferCache, nowMs: nowMs()))
    print("read again: fromCache: \(again.fromCache)")

    let missing = "\(first)/does-not-exist"
    do {
        _ = try host.reply(of: host.client.readResource(uri: missing, policy: .refresh, nowMs: nowMs()))
        throw Failure(description: "\(missing) was found")
    } catch CallError.server(.resourceNotFound(let uri, _)) {
        print("not found, as expected: \(uri ?? "?")")
    }

    if let (name, arguments) = prompt {
        let call = host.client.getPrompt(name: name, arguments: arguments, nowMs: nowMs())
        let result = try host.wait(for: "prompt \(name)") { event -> Result<Reply, CallError>? in
            switch event {
            case .promptFetched(let c, let reply) where c == call: return .success(reply)
            case .failed(let c, let error) where c == call: return .failure(error)
            default: return nil
            }
        }.get().decode(Wire.GetPromptResult.self)
        let kinds = result.messages.map { "\($0.role)/\($0.content.type)" }.joined(separator: ", ")
        print("prompt \(name): \(result.description ?? "") [\(kinds)]")
    }

    if let uri = listenUri {
        let filter = SubscriptionFilter(toolsListChanged: nil, promptsListChanged: nil, resourcesListChanged: nil, resourceSubscriptions: [uri])
        let listen = host.client.listen(filter: filter, nowMs: nowMs())
        let honoured = try host.wait(for: "the acknowledgment") { event -> SubscriptionFilter? in
            if case .acknowledged(let c, let honoured, _) = event, c == listen { return honoured }
            return nil
        }
        print("listening: \(honoured.resourceSubscriptions ?? [])")
        let updated = try host.wait(for: "an update of \(uri)") { event -> String? in
            if case .notified(let sub, .resourceUpdated(let u)) = event, sub == listen { return u }
            return nil
        }
        print("updated: \(updated)")
        try host.client.cancel(call: listen, reason: "done", nowMs: nowMs())
        host.drain()
    }

    link.close()  // EOF: the server shuts down
    process.waitUntilExit()
    host.client.handleClose(nowMs: nowMs())
    host.drain()
    print("mcp-stdio-client: ok (server exit \(process.terminationStatus))")
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("mcp-stdio-client: FAILED: \(error)\n".utf8))
    exit(1)
}
