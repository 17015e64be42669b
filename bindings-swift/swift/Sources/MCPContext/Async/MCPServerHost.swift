// MCPServerHost: an MCP server as a Swift actor over `ServerMachine`. Register resources,
// templates and prompts with async closures; `runStdio()` serves them on stdin/stdout.
//
//     let host = try MCPServerHost(name: "notes", version: "1.0.0")
//     try await host.resource("notes://{id}", name: "note") { uri, vars in
//         [.text(uri: uri, mimeType: "text/plain", text: try await load(vars["id"]!))]
//     }
//     await host.runStdio()
//
// The machine answers discovery, lists, static reads, completion from value sets and
// subscriptions itself; the host runs a closure per event it hands over, as its own task,
// and the answer is written as soon as the closure returns: the machine's output-ready
// signal (`setOutputReady`) wakes the run loop, which also wakes at the machine's next
// deadline (`pollTimeout()`) without waiting for input.
import Foundation

/// What a handler throws to answer with a JSON-RPC error instead of a result. Any other error
/// is the handler's own failure (the core's `Failure.handler`): a tool call's result with
/// `isError: true` and the error's description, -32603 (internal error) without its text for
/// any other request.
public enum MCPHandlerError: Error, Sendable, Equatable {
    /// Resource or prompt not found (-32602 with `data.uri` for reads).
    case notFound
    /// -32602 with this message.
    case invalidParams(String)
    /// An application error code and message.
    case application(code: Int32, message: String)
}

/// Thrown by a handler to answer with `input_required` (multi-round-trip requests): the
/// client answers each request and retries; the handler runs again with `MCPServerHost.retry`
/// set (its `inputResponses` by key, and `state` as given here, verified; `state` needs a
/// sealing key in the configuration).
public struct MCPInputRequired: Error, Sendable {
    /// Key → `{"method": "elicitation/create" | "sampling/createMessage" | "roots/list", "params": …}`.
    public var requests: [String: Wire.JSON]
    /// Application state sealed into `requestState`.
    public var state: Data?
    public init(_ requests: [String: Wire.JSON], state: Data? = nil) {
        self.requests = requests
        self.state = state
    }
}

/// An MCP server: a `ServerMachine` plus async handlers, driven by `run(...)`.
public actor MCPServerHost {
    /// Reads a resource: `uri` as requested, `variables` decoded from the template (empty for
    /// a listed resource).
    public typealias ResourceHandler = @Sendable (_ uri: String, _ variables: [String: String]) async throws -> [ResourceContents]
    /// Lists the host's own resources after the registered ones (`dynamicResources`): one
    /// page from the host's `cursor` (`nil`: the first), and the cursor of the next page.
    public typealias ListHandler = @Sendable (_ cursor: String?) async throws -> (resources: [Resource], nextCursor: String?)
    /// Gets a prompt from its arguments.
    public typealias PromptHandler = @Sendable (_ arguments: [String: String]) async throws -> Wire.GetPromptResult
    /// Calls a tool with its `arguments`.
    public typealias ToolHandler = @Sendable (_ arguments: [String: Wire.JSON]) async throws -> Wire.CallToolResult
    /// Answers an extension method from its `params` object: the result object.
    public typealias MethodHandler = @Sendable (_ params: Wire.JSON) async throws -> Wire.JSON

    /// The request a handler is answering (set for the handler's task).
    public struct RequestContext: Sendable {
        /// The host.
        public let host: MCPServerHost
        /// The machine's handle of the request.
        public let handle: UInt64
        /// The verified inputs of an `input_required` retry (`nil` on a first request).
        public let retry: Retry?
    }

    /// The request the current handler is answering.
    @TaskLocal public static var request: RequestContext?

    /// The verified inputs of the retry a handler is answering (`nil` on a first request).
    public static var retry: Retry? { request?.retry }

    /// From a handler: `notifications/progress` for its request, if the client sent a
    /// `progressToken` (`false`, nothing sent, otherwise). `progress` must increase.
    @discardableResult
    public static func progress(_ progress: Double, total: Double? = nil, message: String? = nil) async throws -> Bool {
        guard let request else { return false }
        return try await request.host.sendProgress(request.handle, progress, total, message)
    }

    /// From a handler: `notifications/message` (`data` at `level`, from `logger`) on its
    /// request's stream, before the answer, when the request admits `level` (a modern
    /// request's `_meta` log level, a 2025-11-25 session's `logging/setLevel`); `false`,
    /// nothing sent, when it does not or outside a handler.
    @discardableResult
    public static func log(_ level: LoggingLevel, _ data: Wire.JSON, logger: String? = nil) async throws -> Bool {
        guard let request else { return false }
        return try request.host.machine.logFor(
            handle: request.handle, level: level, logger: logger, dataJson: try wireJSON(data))
    }

    /// `notifications/message` (`data` at `level`, from `logger`) to every 2025-11-25
    /// connection and session whose `logging/setLevel` admits it (modern clients get log
    /// lines only on their requests, `MCPServerHost.log`); how many streams it was sent to.
    @discardableResult
    public nonisolated func log(_ level: LoggingLevel, _ data: Wire.JSON, logger: String? = nil) throws -> Int {
        Int(try machine.log(level: level, logger: logger, dataJson: try wireJSON(data)))
    }

    /// The machine (for what this actor does not wrap: visibility, `resourceUpdated`, …).
    public nonisolated let machine: ServerMachine
    private var templateHandlers: [UInt32: ResourceHandler] = [:]
    private var resourceHandlers: [String: ResourceHandler] = [:]
    private var promptHandlers: [String: PromptHandler] = [:]
    private var toolHandlers: [String: ToolHandler] = [:]
    private var methodHandlers: [String: MethodHandler] = [:]
    private var listHandler: ListHandler?
    /// Templates by machine id, to route reads of listed items to their template's handler.
    private let router = Router()
    private var routed: [UInt32: UInt32] = [:]
    private var inFlight = 0
    /// Telemetry and middleware (Telemetry.swift): observation callbacks, the chain.
    var observers: [@Sendable (ServerObservation) -> Void] = []
    var middlewares: [Middleware] = []
    /// The call the gate admitted last: the handler event it leads to takes it (Gate.swift).
    var admittedCall: MCPCall?
    /// Requests at the gate whose middleware still runs, by number.
    var gates: [UInt64: GatedRequest] = [:]
    var gateCount: UInt64 = 0

    /// A server named `name` at `version`; every other setting is the core's default
    /// (`serverConfig()`), changed through `configure`.
    public init(
        name: String = "mcp-context-swift", version: String = "0.1.0", title: String? = nil,
        instructions: String? = nil, configure: (inout ServerConfig) -> Void = { _ in }
    ) throws {
        var config = serverConfig()
        config.serverInfo = Implementation(name: name, version: version, title: title, description: nil, websiteUrl: nil)
        config.instructions = instructions
        configure(&config)
        machine = try ServerMachine(config: config)
    }

    // ---- registration ----

    /// A resource with fixed contents, served by the machine (no handler runs).
    public func resource(
        _ uri: String, name: String, title: String? = nil, description: String? = nil,
        mimeType: String? = nil, size: UInt64? = nil, contents: [ResourceContents], cache: CacheHint? = nil
    ) throws {
        try machine.addResource(
            resource: Resource(uri: uri, name: name, title: title, description: description, mimeType: mimeType, size: size),
            contents: contents, cache: cache)
    }

    /// A resource template (`{` in `templateOrURI`) or a listed resource (a plain URI) whose
    /// reads run `handler`. A template's `completions` complete its variables by prefix; its
    /// `listed` URIs are listed by `resources/list` and read through the same handler. They
    /// are registered resources, listed in URI order with the others; to list items in an
    /// order of your own, after the registered ones, use `listResources` instead.
    public func resource(
        _ templateOrURI: String, name: String, title: String? = nil, description: String? = nil,
        mimeType: String? = nil, cache: CacheHint? = nil, completions: [String: [String]] = [:],
        listed: [Resource] = [], handler: @escaping ResourceHandler
    ) throws {
        if templateOrURI.contains("{") {
            let id = try machine.addTemplate(
                template: ResourceTemplate(uriTemplate: templateOrURI, name: name, title: title, description: description, mimeType: mimeType),
                cache: cache, completions: completions)
            templateHandlers[id] = handler
            let routeId = try router.insert(template: templateOrURI)
            routed[routeId] = id
            for item in listed {
                try machine.addResource(resource: item, contents: nil, cache: cache)
            }
        } else {
            try machine.addResource(
                resource: Resource(uri: templateOrURI, name: name, title: title, description: description, mimeType: mimeType, size: nil),
                contents: nil, cache: cache)
            resourceHandlers[templateOrURI] = handler
        }
    }

    /// A prompt answered by `handler`; `completions` complete its arguments by prefix.
    public func prompt(
        _ name: String, title: String? = nil, description: String? = nil,
        arguments: [PromptArgument] = [], completions: [String: [String]] = [:],
        handler: @escaping PromptHandler
    ) throws {
        try machine.addPrompt(
            prompt: Prompt(name: name, title: title, description: description, arguments: arguments),
            completions: completions)
        promptHandlers[name] = handler
    }

    /// A tool in the core's registry (`addTool`: the machine lists it, declares `tools`,
    /// refuses unknown tools and answers a missing required argument as a tool error). A
    /// thrown `MCPHandlerError` is the call's JSON-RPC error; any other error is a tool error
    /// (`isError: true`, its description as text), as is a returned
    /// `CallToolResult(content:isError: true)`. Registering a name again replaces the tool.
    public func tool(
        _ name: String, title: String? = nil, description: String? = nil,
        inputSchema: Wire.JSON = ["type": "object"], outputSchema: Wire.JSON? = nil,
        handler: @escaping ToolHandler
    ) throws {
        let definition = Wire.Tool(name: name, title: title, description: description, inputSchema: inputSchema, outputSchema: outputSchema)
        let json = try wireJSON(definition)
        _ = machine.removeTool(name: name)
        try machine.addTool(toolJson: json)
        toolHandlers[name] = handler
    }

    /// Any other method the core does not own (e.g. a vendor method): the machine validates
    /// the request like its own, `handler` returns the result object.
    public func method(_ name: String, handler: @escaping MethodHandler) throws {
        try machine.addMethod(method: name)
        methodHandlers[name] = handler
    }

    /// The host's own resources, listed by `resources/list` after the registered ones; needs
    /// `dynamicResources` in the configuration (`configure: { $0.dynamicResources = true }`).
    public func listResources(_ handler: @escaping ListHandler) {
        listHandler = handler
    }

    /// Tells subscribers that `uri` changed.
    public func resourceUpdated(_ uri: String) {
        machine.resourceUpdated(uri: uri)
    }

    /// Handlers still running.
    public var handlersInFlight: Int { inFlight }

    // ---- run loop ----

    private enum Signal: Sendable {
        case line(StdioLine)
        case wake
        case end
    }

    /// Serves MCP over stdio: one JSON-RPC message per line on `input`, answers on `output`.
    /// Lines go through the core's line policy (`stdioLines(of:maxLine:)`, the configuration's
    /// `maxLine`): a longer line is answered -32600 with its id and never buffered. Returns
    /// when `input` ends.
    public func runStdio(input: FileHandle = .standardInput, output: FileHandle = .standardOutput) async {
        await run(stdioLines: stdioLines(of: input, maxLine: machine.maxLine())) { bytes in
            output.write(bytes + Data("\n".utf8))
        }
    }

    /// Serves one stream of messages (`lines`, each one message) and writes every answer with
    /// `send`, at once: after each input, each answer a handler gives, and each deadline of
    /// the machine.
    public func run(
        lines: AsyncStream<Data>, context: MessageContext = MessageContext(stream: 0, auth: 0, transport: .stdio),
        send: @escaping @Sendable (Data) -> Void
    ) async {
        let (messages, continuation) = AsyncStream<StdioLine>.makeStream()
        let forward = Task {
            for await line in lines { continuation.yield(.message(bytes: line)) }
            continuation.finish()
        }
        await run(stdioLines: messages, context: context, send: send)
        forward.cancel()
    }

    /// `run(lines:context:send:)` over lines split by the core (`StdioLines`): a `.tooLong`
    /// line is answered by the machine (`handleLineTooLong`).
    public func run(
        stdioLines lines: AsyncStream<StdioLine>,
        context: MessageContext = MessageContext(stream: 0, auth: 0, transport: .stdio),
        send: @escaping @Sendable (Data) -> Void
    ) async {
        let (signals, continuation) = AsyncStream<Signal>.makeStream()
        machine.setOutputReady(callback: StreamWaker(continuation, yielding: .wake))
        let reader = Task {
            for await line in lines { continuation.yield(.line(line)) }
            continuation.yield(.end)
        }
        var timer: Task<Void, Never>?
        defer {
            reader.cancel()
            timer?.cancel()
        }
        for await signal in signals {
            switch signal {
            case .line(.message(let bytes)):
                // With middleware, every request stops at the core's gate first (Gate.swift).
                if !middlewares.isEmpty,
                    let gate = machine.gateRequest(bytes: bytes, nowMs: monotonicMs(), context: context) {
                    startGate(gate, bytes, context, send)
                } else {
                    _ = machine.handleMessage(bytes: bytes, nowMs: monotonicMs(), context: context)
                }
            case .line(.tooLong(let head)):
                machine.handleLineTooLong(head: head, nowMs: monotonicMs(), context: context)
            case .wake:
                break
            case .end:
                await settleGates()
                machine.streamClosed(stream: context.stream)
                drain(send)
                return
            }
            let now = monotonicMs()
            if let deadline = machine.pollTimeout(), deadline <= now {
                machine.handleTimeout(nowMs: now)
            }
            drain(send)
            timer?.cancel()
            timer = nil
            if let deadline = machine.pollTimeout() {
                let delay = deadline > now ? deadline - now : 0
                timer = Task {
                    try? await Task.sleep(nanoseconds: delay * 1_000_000)
                    if !Task.isCancelled { continuation.yield(.wake) }
                }
            }
        }
    }

    /// The drain rule: every queued output at once (`drain()`), until a drain finds nothing
    /// (events answered at once queue more); events start their handler's task.
    func drain(_ send: @Sendable (Data) -> Void) {
        while true {
            let drained = machine.drain()
            if drained.outputs.isEmpty {
                if !observers.isEmpty { deliverObservations() }
                return
            }
            for output in drained.outputs {
                route(output, send)
            }
        }
    }

    private func route(_ output: ServerOutput, _ send: @Sendable (Data) -> Void) {
        switch output {
        case .transmit(_, let bytes, _, _, _):
            send(bytes)
        case .event(let event):
            dispatch(event)
        }
    }

    private func dispatch(_ event: ServerEvent) {
        switch event {
        case .readResource(let handle, let uri, let target, _, _, let retry):
            var handler: ResourceHandler?
            var variables: [String: String] = [:]
            switch target {
            case .template(let id, _, let vars):
                handler = templateHandlers[id]
                variables = vars
            case .resource, .unlisted:
                if let h = resourceHandlers[uri] {
                    handler = h
                } else if let match = try? router.route(uri: uri), let id = routed[match.id] {
                    handler = templateHandlers[id]
                    for capture in match.captures { variables[capture.name] = capture.values.first ?? "" }
                }
            }
            guard let handler else {
                try? machine.fail(handle: handle, failure: .notFound)
                return
            }
            let captured = variables
            spawn(handle, retry) { host in
                let contents = try await handler(uri, captured)
                try await host.answerRead(handle, contents)
            }
        case .getPrompt(let handle, let name, let arguments, _, _, let retry):
            guard let handler = promptHandlers[name] else {
                try? machine.fail(handle: handle, failure: .notFound)
                return
            }
            spawn(handle, retry) { host in
                let result = try await handler(arguments)
                try await host.answerPrompt(handle, result)
            }
        case .request(let handle, let method, let paramsJson, _, _, _, let retry):
            let params = (try? Wire.JSON(text: paramsJson)) ?? [:]
            guard let handler = methodHandlers[method] else {
                try? machine.fail(handle: handle, failure: .notFound)
                return
            }
            spawn(handle, retry) { host in
                let result = try await handler(params)
                try await host.answerResult(handle, try wireJSON(result))
            }
        case .callTool(let handle, let name, let argumentsJson, _, _, _, let retry):
            // The core checked the name, the arguments object and its required properties.
            guard let handler = toolHandlers[name] else {
                try? machine.fail(handle: handle, failure: .notFound)
                return
            }
            var arguments: [String: Wire.JSON] = [:]
            if case .object(let a)? = try? Wire.JSON(text: argumentsJson) { arguments = a }
            let captured = arguments
            // Any other error the tool throws is the core's `Failure.handler`: a result the
            // model sees (`isError`), not a JSON-RPC error.
            spawn(handle, retry) { host in
                let result = try await handler(captured)
                try await host.answerTool(handle, try wireJSON(result))
            }
        case .listResources(let handle, let cursor, _):
            guard let handler = listHandler else {
                try? machine.respondList(handle: handle, resources: [], nextCursor: nil)
                return
            }
            spawn(handle, nil) { host in
                let page = try await handler(cursor)
                try await host.answerList(handle, page.resources, page.nextCursor)
            }
        case .complete(let handle, _, _, _, _, _):
            try? machine.respondCompletion(handle: handle, values: [])
        case .cancelled, .streamOverflow, .other:
            break
        }
    }

    /// Runs `body` as its own task; a thrown error becomes the handle's JSON-RPC error. The
    /// request's middleware (its call, admitted at the gate) gets the handler's error back.
    private func spawn(
        _ handle: UInt64, _ retry: Retry?,
        _ body: @escaping @Sendable (MCPServerHost) async throws -> Void
    ) {
        inFlight += 1
        let call = admittedCall
        admittedCall = nil
        let task = Task<Error?, Never> {
            var thrown: Error?
            do {
                let context = RequestContext(host: self, handle: handle, retry: retry)
                try await Self.$request.withValue(context) { try await body(self) }
            } catch let input as MCPInputRequired {
                thrown = input
                self.answerInputRequired(handle, input)
            } catch let error as MCPHandlerError {
                thrown = error
                self.answerFailure(handle, error)
            } catch let error as RespondError {
                // Already answered, cancelled or timed out: nothing to send.
                thrown = error
            } catch {
                thrown = error
                self.answerHandlerFailure(handle, String(describing: error))
            }
            self.finished()
            return thrown
        }
        call?.state.bind(handle, task)
    }

    private func finished() { inFlight -= 1 }

    private func answerRead(_ handle: UInt64, _ contents: [ResourceContents]) throws {
        try machine.respondRead(handle: handle, contents: contents)
    }

    private func answerPrompt(_ handle: UInt64, _ result: Wire.GetPromptResult) throws {
        try machine.respondPrompt(handle: handle, result: result)
    }

    private func answerList(_ handle: UInt64, _ resources: [Resource], _ next: String?) throws {
        try machine.respondList(handle: handle, resources: resources, nextCursor: next)
    }

    fileprivate func sendProgress(_ handle: UInt64, _ progress: Double, _ total: Double?, _ message: String?) throws -> Bool {
        try machine.progress(handle: handle, progress: progress, total: total, message: message)
    }

    private func answerTool(_ handle: UInt64, _ json: String) throws {
        try machine.respondTool(handle: handle, resultJson: json)
    }

    /// The core's rule for a handler's own failure: `isError` on a tool call, -32603 (the
    /// message not sent) elsewhere.
    private func answerHandlerFailure(_ handle: UInt64, _ message: String) {
        try? machine.fail(handle: handle, failure: .handler(message: message))
    }

    private func answerResult(_ handle: UInt64, _ json: String) throws {
        try machine.respondResult(handle: handle, resultJson: json, cache: nil)
    }

    private func answerInputRequired(_ handle: UInt64, _ input: MCPInputRequired) {
        do {
            try machine.respondInputRequired(
                handle: handle, inputRequestsJson: try wireJSON(Wire.JSON.object(input.requests)), state: input.state)
        } catch {
            answerFailure(handle, nil)
        }
    }

    private func answerFailure(_ handle: UInt64, _ error: MCPHandlerError?) {
        let failure: Failure
        switch error {
        case .notFound: failure = .notFound
        case .invalidParams(let message): failure = .invalidParams(message: message)
        case .application(let code, let message): failure = .application(code: code, message: message)
        case nil: failure = .internal
        }
        try? machine.fail(handle: handle, failure: failure)
    }
}
