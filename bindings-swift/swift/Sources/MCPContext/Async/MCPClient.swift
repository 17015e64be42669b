// MCPClient: an MCP client as a Swift actor over `ClientMachine`, on any `MCPTransport`
// (stdio to a spawned process, Streamable HTTP over URLSession).
//
//     let client = try MCPClient(transport: StdioTransport(command: "/usr/bin/my-server"))
//     let reply = try await client.readResource("notes://acme/1")
//     for try await event in await client.listen(SubscriptionFilter(resourceSubscriptions: ["notes://acme/1"])) { … }
//
// The machine does the protocol (handshake, ids, deadlines, version fallback, cache,
// `input_required` rounds, subscriptions); this actor moves messages, keeps the clock and
// turns the machine's events into async results.
import Foundation

/// A way to exchange JSON-RPC messages with one server.
public protocol MCPTransport: Sendable {
    /// The transport kind the machine is configured for.
    var kind: ClientTransport { get }
    /// Starts the transport; every incoming message goes to `receive`, a request that got
    /// no JSON-RPC answer (HTTP) to `failed`, the end of the connection to `closed`.
    func start(
        receive: @escaping @Sendable (Data) -> Void, failed: @escaping @Sendable (Int64) -> Void,
        closed: @escaping @Sendable () -> Void) throws
    /// Sends one message; `headers` are every header of its HTTP POST, from the machine
    /// (`Mcp-Method`, `Mcp-Name`, `MCP-Protocol-Version`, `Mcp-Param-*`, …).
    func send(_ bytes: Data, id: Int64?, headers: [HttpHeader])
    /// HTTP: closes the response stream of request `id` (cancellation).
    func closeStream(id: Int64)
    /// Ends the connection.
    func close()
    /// HTTP: every response head (the request's id, `nil` for a notification's POST; the
    /// status; the `Mcp-Session-Id` header) goes to `responded`, before the response's body.
    func observeResponses(_ responded: @escaping @Sendable (Int64?, UInt16, String?) -> Void)
    /// HTTP: ends a 2025-11-25 session with a `DELETE` carrying `headers` (from the machine).
    func endSession(headers: [HttpHeader])
    /// HTTP with authorization: the authorization context (the grant) whose token obtained
    /// each response (the request's id; `nil`: sent without a token), called just before that
    /// response's head goes to `observeResponses`' closure, on the same thread.
    func observeGrants(_ granted: @escaping @Sendable (Int64?, UInt64?) -> Void)
}

extension MCPTransport {
    /// stdio and other transports without response heads: nothing to observe.
    public func observeResponses(_ responded: @escaping @Sendable (Int64?, UInt16, String?) -> Void) {}
    /// stdio and other transports without sessions: nothing to end.
    public func endSession(headers: [HttpHeader]) {}
    /// Transports without authorization: no grants.
    public func observeGrants(_ granted: @escaping @Sendable (Int64?, UInt64?) -> Void) {}
}

/// The grant each response was obtained under, from `observeGrants` to the response head's
/// closure (the transport calls both on its thread, in that order).
private final class Grants: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [Int64?: UInt64?] = [:]

    func put(_ id: Int64?, _ grant: UInt64?) {
        lock.lock()
        defer { lock.unlock() }
        seen[id] = .some(grant)
    }

    func take(_ id: Int64?) -> UInt64?? {
        lock.lock()
        defer { lock.unlock() }
        return seen.removeValue(forKey: id)
    }
}

/// Errors of `MCPClient` itself (the server's are `CallError`).
public enum MCPClientError: Error, Sendable, Equatable {
    /// The handshake failed.
    case connectFailed(ConnectError)
    /// The server asked for input and no `inputHandler` is set.
    case inputRequiredWithoutHandler
    /// The client was closed.
    case closed
}

extension MCPClientError: LocalizedError {}

/// An MCP client over one transport.
public actor MCPClient {
    /// Answers a server's `input_required`: one result object (JSON text) per requested key.
    public typealias InputHandler = @Sendable (_ requests: [String: InputRequest]) async throws -> [String: String]

    /// The machine (for what this actor does not wrap).
    public nonisolated let machine: ClientMachine
    private let transport: MCPTransport
    private var inputHandler: InputHandler?
    private var session: Session?
    private var connecting: [CheckedContinuation<Session, Error>] = []
    private var waiting: [UInt64: CheckedContinuation<ClientEvent, Error>] = [:]
    private var listeners: [UInt64: AsyncThrowingStream<ClientEvent, Error>.Continuation] = [:]
    private var started = false
    private var closed = false
    private var timer: Task<Void, Never>?

    /// A client named `name` at `version` over `transport`; every other setting is the core's
    /// default (`clientConfig(name:version:)`), changed through `configure`.
    public init(
        transport: MCPTransport, name: String = "mcp-context-swift", version: String = "0.1.0",
        inputHandler: InputHandler? = nil, configure: (inout ClientConfig) -> Void = { _ in }
    ) throws {
        var config = clientConfig(name: name, version: version)
        config.transport = transport.kind
        configure(&config)
        machine = try ClientMachine(config: config)
        self.transport = transport
        self.inputHandler = inputHandler
    }

    /// Sets the `input_required` handler.
    public func setInputHandler(_ handler: InputHandler?) {
        inputHandler = handler
    }

    // ---- calls ----

    /// Connects (once); later calls return the session.
    @discardableResult
    public func connect() async throws -> Session {
        if let session { return session }
        if closed { throw MCPClientError.closed }
        try startIfNeeded()
        return try await withCheckedThrowingContinuation { connecting.append($0) }
    }

    /// `server/discover`: the result object.
    public func discover(policy: CachePolicy = .preferCache) async throws -> Reply {
        try await reply(await call { $0.discover(policy: policy, nowMs: $1) })
    }

    /// `resources/list`: every page (`all`, the default) or one page from `cursor`.
    public func listResources(cursor: String? = nil, all: Bool = true, policy: CachePolicy = .preferCache) async throws -> Listing {
        try listing(await call { $0.listResources(paging: Self.paging(cursor, all), policy: policy, nowMs: $1) })
    }

    /// `resources/templates/list`.
    public func listResourceTemplates(cursor: String? = nil, all: Bool = true, policy: CachePolicy = .preferCache) async throws -> Listing {
        try listing(await call { $0.listResourceTemplates(paging: Self.paging(cursor, all), policy: policy, nowMs: $1) })
    }

    /// `prompts/list`.
    public func listPrompts(cursor: String? = nil, all: Bool = true, policy: CachePolicy = .preferCache) async throws -> Listing {
        try listing(await call { $0.listPrompts(paging: Self.paging(cursor, all), policy: policy, nowMs: $1) })
    }

    /// `resources/read`: served from the cache when the server's hints allow (`fromCache`).
    public func readResource(_ uri: String, policy: CachePolicy = .preferCache) async throws -> Reply {
        try await reply(await call { $0.readResource(uri: uri, policy: policy, nowMs: $1) })
    }

    /// `prompts/get`.
    public func getPrompt(_ name: String, arguments: [String: String] = [:]) async throws -> Reply {
        try await reply(await call { $0.getPrompt(name: name, arguments: arguments, nowMs: $1) })
    }

    /// `completion/complete` of `argument` = `value` for a prompt or template.
    public func complete(_ ref: CompletionRef, argument: String, value: String, context: [String: String] = [:]) async throws -> Reply {
        try await reply(await call { $0.complete(reference: ref, argument: argument, value: value, context: context, nowMs: $1) })
    }

    /// Any other method (`tools/list`, `tools/call`, vendor methods) with the machine's
    /// `_meta`, id, deadline and `input_required` loop: the `result` object.
    public func request(_ method: String, params: Wire.JSON = [:]) async throws -> Wire.JSON {
        let text = try wireJSON(params)
        try startIfNeeded()
        let id = try machine.request(method: method, paramsJson: text, nowMs: monotonicMs())
        let event = try await wait(for: id)
        guard case .responded(_, let json) = event else { throw MCPClientError.closed }
        return try Wire.JSON(text: json)
    }

    /// `tools/list` (one page from `cursor`).
    public func listTools(cursor: String? = nil) async throws -> Wire.ListToolsResult {
        var params: [String: Wire.JSON] = [:]
        if let cursor { params["cursor"] = .string(cursor) }
        let result = try await request("tools/list", params: .object(params))
        return try JSONDecoder().decode(Wire.ListToolsResult.self, from: JSONEncoder().encode(result))
    }

    /// `tools/call` of `name` with `arguments`.
    public func callTool(_ name: String, arguments: [String: Wire.JSON] = [:]) async throws -> Wire.CallToolResult {
        let result = try await request("tools/call", params: ["name": .string(name), "arguments": .object(arguments)])
        return try JSONDecoder().decode(Wire.CallToolResult.self, from: JSONEncoder().encode(result))
    }

    /// `subscriptions/listen`: the stream yields `.acknowledged`, then `.notified` for each
    /// notification, and ends after `.subscriptionEnded` (or throws the call's error).
    /// Cancelling the iterating task cancels the subscription.
    public func listen(_ filter: SubscriptionFilter) -> AsyncThrowingStream<ClientEvent, Error> {
        let (stream, continuation) = AsyncThrowingStream<ClientEvent, Error>.makeStream()
        do {
            try startIfNeeded()
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let id = machine.listen(filter: filter, nowMs: monotonicMs())
        listeners[id] = continuation
        continuation.onTermination = { [weak self] reason in
            guard case .cancelled = reason, let self else { return }
            Task { await self.cancel(id) }
        }
        pump()
        return stream
    }

    /// Closes the transport; waiting calls fail with `.closed`.
    public func close() {
        guard !closed else { return }
        closed = true
        // A 2025-11-25 session is ended with the DELETE the machine describes.
        if let headers = machine.endSession() { transport.endSession(headers: headers) }
        transport.close()
        machine.handleClose(nowMs: monotonicMs())
        pump()
        failAll(MCPClientError.closed)
    }

    // ---- plumbing ----

    private static func paging(_ cursor: String?, _ all: Bool) -> ListPaging {
        all && cursor == nil ? .all : .page(cursor: cursor)
    }

    private func cancel(_ id: UInt64) {
        listeners[id] = nil
        try? machine.cancel(call: id, reason: nil, nowMs: monotonicMs())
        pump()
    }

    private func startIfNeeded() throws {
        guard !started else { return }
        if closed { throw MCPClientError.closed }
        started = true
        // Output the machine queues outside a call of ours (a deadline) is drained at once.
        machine.setOutputReady(callback: ClosureWaker { [weak self] in
            Task { await self?.pump() }
        })
        // Response heads, messages and failures go through the actor, one hop each (a
        // transport may call these from inside the actor's own `send`, e.g. an in-process one).
        let grants = Grants()
        transport.observeGrants { id, grant in grants.put(id, grant) }
        transport.observeResponses { [weak self] id, status, sessionId in
            let grant = grants.take(id)
            Task { await self?.responded(id, status, sessionId, grant: grant) }
        }
        try transport.start(
            receive: { [weak self] bytes in Task { await self?.received(bytes) } },
            failed: { [weak self] id in Task { await self?.requestFailed(id) } },
            closed: { [weak self] in Task { await self?.transportClosed() } })
        machine.connect(nowMs: monotonicMs())
        pump()
    }

    private func call(_ start: (ClientMachine, UInt64) -> UInt64) async throws -> ClientEvent {
        try startIfNeeded()
        return try await wait(for: start(machine, monotonicMs()))
    }

    private func wait(for id: UInt64) async throws -> ClientEvent {
        try await withCheckedThrowingContinuation { continuation in
            waiting[id] = continuation
            pump()
        }
    }

    private func reply(_ event: ClientEvent) async throws -> Reply {
        switch event {
        case .discovered(_, let r), .resourceRead(_, let r), .promptFetched(_, let r), .completed(_, let r):
            return r
        default:
            throw MCPClientError.closed
        }
    }

    private func listing(_ event: ClientEvent) throws -> Listing {
        switch event {
        case .resourcesListed(_, let l), .templatesListed(_, let l), .promptsListed(_, let l):
            return l
        default:
            throw MCPClientError.closed
        }
    }

    private func responded(_ id: Int64?, _ status: UInt16, _ sessionId: String?, grant: UInt64?? = nil) {
        // With authorization: the cache follows the grant whose token got the answer
        // (docs/rules.md §21.7), for this result and the lookups that follow.
        if let grant {
            machine.setAuthContext(authContext: grant)
            if let id { machine.setRequestAuthContext(id: id, authContext: grant) }
        }
        machine.handleHttpResponse(id: id, status: status, sessionId: sessionId, nowMs: monotonicMs())
        pump()
    }

    private func received(_ bytes: Data) {
        machine.handleMessage(bytes: bytes, nowMs: monotonicMs())
        pump()
    }

    private func requestFailed(_ id: Int64) {
        machine.handleRequestFailed(id: id, nowMs: monotonicMs())
        pump()
    }

    private func transportClosed() {
        machine.handleClose(nowMs: monotonicMs())
        pump()
        failAll(MCPClientError.closed)
    }

    private func failAll(_ error: Error) {
        for c in connecting { c.resume(throwing: error) }
        connecting = []
        for (_, c) in waiting { c.resume(throwing: error) }
        waiting = [:]
        for (_, l) in listeners { l.finish(throwing: error) }
        listeners = [:]
    }

    /// The drain rule: handle a due deadline, `pollOutput()` until `nil`, re-arm the timer.
    private func pump() {
        let now = monotonicMs()
        if let deadline = machine.pollTimeout(), deadline <= now {
            machine.handleTimeout(nowMs: now)
        }
        while let output = machine.pollOutput() {
            switch output {
            case .transmit(let bytes, let id, _, _, _, let headers):
                transport.send(bytes, id: id, headers: headers)
            case .closeStream(let id):
                transport.closeStream(id: id)
            case .event(let event):
                dispatch(event)
            }
        }
        timer?.cancel()
        timer = nil
        if let deadline = machine.pollTimeout() {
            let delay = deadline > now ? deadline - now : 0
            timer = Task { [weak self] in
                try? await Task.sleep(nanoseconds: delay * 1_000_000)
                if !Task.isCancelled { await self?.pump() }
            }
        }
    }

    private func dispatch(_ event: ClientEvent) {
        switch event {
        case .connected(let s):
            session = s
            for c in connecting { c.resume(returning: s) }
            connecting = []
        case .connectFailed(let error):
            failAll(MCPClientError.connectFailed(error))
        case .discovered(let call, _), .resourcesListed(let call, _), .templatesListed(let call, _),
            .promptsListed(let call, _), .resourceRead(let call, _), .promptFetched(let call, _),
            .completed(let call, _), .responded(let call, _):
            waiting.removeValue(forKey: call)?.resume(returning: event)
        case .failed(let call, let error):
            if let c = waiting.removeValue(forKey: call) {
                c.resume(throwing: error)
            } else {
                listeners.removeValue(forKey: call)?.finish(throwing: error)
            }
        case .inputRequired(let call, _, let requests):
            guard let handler = inputHandler else {
                waiting.removeValue(forKey: call)?.resume(throwing: MCPClientError.inputRequiredWithoutHandler)
                try? machine.cancel(call: call, reason: "no input handler", nowMs: monotonicMs())
                return
            }
            Task {
                do {
                    let responses = try await handler(requests)
                    await self.respondInput(call, responses)
                } catch {
                    await self.abandon(call, error)
                }
            }
        case .acknowledged(let call, _, _):
            listeners[call]?.yield(event)
        case .notified(let subscription, _):
            if let subscription {
                listeners[subscription]?.yield(event)
            } else {
                for (_, l) in listeners { l.yield(event) }
            }
        case .subscriptionEnded(let call, _):
            if let l = listeners.removeValue(forKey: call) {
                l.yield(event)
                l.finish()
            }
        case .unknownResponse, .peerError, .other:
            break
        }
    }

    private func respondInput(_ call: UInt64, _ responses: [String: String]) {
        do {
            try machine.respondInput(call: call, responses: responses, nowMs: monotonicMs())
        } catch {
            abandon(call, error)
        }
        pump()
    }

    private func abandon(_ call: UInt64, _ error: Error) {
        waiting.removeValue(forKey: call)?.resume(throwing: error)
        try? machine.cancel(call: call, reason: nil, nowMs: monotonicMs())
        pump()
    }
}
