// Middleware at the core's gate (docs/rules.md §26.7, docs/operations.md "Middleware"): with
// middleware, MCPServerHost stops every request at the machine's gate (`gateRequest`) before
// the machine acts on it, the ones the core answers itself (lists, `server/discover`, static
// reads, completion from values, unknown methods) included, and runs the chain as its own
// task. The innermost `next()` admits the request (`gateAdmit`: the machine handles the same
// bytes as without a gate) and, when a handler runs for it, waits for the handler; a throw
// before that refuses it (`gateRefuse`: the error a handler's throw gets). The rule is the
// core's; this file only schedules.
import Foundation

/// A request at the gate, as middleware sees it.
public struct MCPCall: Sendable {
    /// The host.
    public let host: MCPServerHost
    /// The request's fields at receipt (the core's `GateInfo`).
    public let info: GateInfo
    let state: CallState

    /// `mcp.method.name`: `tools/call`, `resources/list`, `server/discover`, ….
    public var method: String { info.method }
    /// The tool or prompt name, or the URI.
    public var target: String? { info.target }
    /// The caller-context id (`MessageContext.auth`; 0 = anonymous).
    public var caller: UInt64 { info.caller }
    /// `jsonrpc.request.id`, as text.
    public var requestId: String { info.requestId }
    /// The request's `_meta.traceparent`, when valid.
    public var parent: TraceParentInfo? { info.parent }
    /// The host's clock (`monotonicMs`) at receipt.
    public var startMs: UInt64 { info.startMs }
    /// The machine's handle of the request once a handler runs for it (`nil` before, and
    /// for a request the core answered itself).
    public var handle: UInt64? { state.handle }

    /// Adds `key = value` to the request's observation (its span attributes, log line):
    /// before `next()` at the gate, after it on the handler's request.
    public func annotate(_ key: String, _ value: String) {
        if let handle = state.handle {
            host.machine.annotate(handle: handle, key: key, value: value)
        } else {
            state.gate.annotate(key: key, value: value)
        }
    }
}

/// Sees each request at the gate: before `try await next()` (allow by calling it, refuse by
/// throwing `MCPHandlerError`, annotate), and its answer after: `next()` runs the rest of the
/// chain, hands the request to the machine and returns when it is answered (at once when the
/// core answers it; after the handler otherwise, rethrowing the handler's error).
public typealias Middleware = @Sendable (_ call: MCPCall, _ next: @Sendable () async throws -> Void) async throws -> Void

/// What a call learns once admitted: the handle and task of its handler.
final class CallState: @unchecked Sendable {
    let gate: GatedRequest
    private let lock = NSLock()
    private var bound: (handle: UInt64, run: Task<Error?, Never>)?

    init(_ gate: GatedRequest) { self.gate = gate }

    var handle: UInt64? { lock.withLock { bound?.handle } }
    var run: Task<Error?, Never>? { lock.withLock { bound?.run } }
    func bind(_ handle: UInt64, _ run: Task<Error?, Never>) { lock.withLock { bound = (handle, run) } }
}

extension MCPServerHost {
    /// Runs `middleware` on every request at the core's gate, after those added before it
    /// (the first added sees a request first and its answer last); turns the gate on.
    public func use(_ middleware: @escaping Middleware) {
        middlewares.append(middleware)
        machine.gate(on: true)
    }

    /// The chain of `gate`'s request, as its own task (the run loop goes on reading).
    func startGate(_ gate: GatedRequest, _ bytes: Data, _ context: MessageContext, _ send: @escaping @Sendable (Data) -> Void) {
        let call = MCPCall(host: self, info: gate.info(), state: CallState(gate))
        let chain = middlewares
        gateCount += 1
        let number = gateCount
        gates[number] = gate
        Task {
            do {
                try await self.through(chain, call) {
                    await self.admit(call, bytes, context, send)
                    if let error = await call.state.run?.value { throw error }
                }
                // A chain that returned without calling `next()` decided nothing: -32603.
                if !gate.decided() { self.refuse(call, MCPHandlerErrorUnanswered(), send) }
            } catch {
                if !gate.decided() { self.refuse(call, error, send) }
            }
            self.gateDone(number)
        }
    }

    /// `body` through `chain` (the first middleware outermost).
    func through(_ chain: [Middleware], _ call: MCPCall, _ body: @escaping @Sendable () async throws -> Void) async throws {
        @Sendable func step(_ i: Int) async throws {
            if i == chain.count { return try await body() }
            try await chain[i](call) { try await step(i + 1) }
        }
        try await step(0)
    }

    /// The machine handles the admitted bytes; the handler event they lead to (if any) takes
    /// `call` (`spawn`), before anything else reaches the machine.
    private func admit(_ call: MCPCall, _ bytes: Data, _ context: MessageContext, _ send: @Sendable (Data) -> Void) {
        admittedCall = call
        _ = machine.gateAdmit(gate: call.state.gate, bytes: bytes, nowMs: monotonicMs(), context: context)
        drain(send)
        admittedCall = nil
    }

    /// The error the chain threw refuses the request, answered as a handler's throw is; a
    /// rate limit's refusal is also observed as a `rate` refusal.
    private func refuse(_ call: MCPCall, _ error: Error, _ send: @Sendable (Data) -> Void) {
        let failure: Failure
        switch error {
        case MCPHandlerError.notFound: failure = .notFound
        case MCPHandlerError.invalidParams(let message): failure = .invalidParams(message: message)
        case MCPHandlerError.application(let code, let message): failure = .application(code: code, message: message)
        default: failure = .internal
        }
        guard machine.gateRefuse(gate: call.state.gate, failure: failure) else { return }
        drain(send)
        if case .application(let code, _) = failure, code == rateLimitedCode(), !observers.isEmpty {
            let refusal = ServerObservation.refused(limit: "rate", caller: call.caller, stream: call.info.stream, atMs: monotonicMs())
            for callback in observers { callback(refusal) }
        }
    }

    private func gateDone(_ number: UInt64) { gates[number] = nil }

    /// Waits until every request at the gate is admitted or refused (the input ended: they
    /// reach the machine before the stream closes; handlers are not waited for).
    func settleGates() async {
        while gates.values.contains(where: { !$0.decided() }) {
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}

/// A chain that returned without calling `next()`.
struct MCPHandlerErrorUnanswered: Error {}
