// Telemetry and middleware of MCPServerHost (docs/operations.md): the core's observations
// handed to callbacks (`onObservation`), one middleware shape around every handler (`use`),
// a per-caller token bucket (`MCPServerHost.rateLimit`) and the response cap
// (`limitResponses`). The records, names and outcomes are the core's.
//
//     await host.onObservation { obs in
//         if case .request(let r) = obs { print(r.spanName, r.attributes, r.endMs - r.startMs) }
//     }
//     await host.use { call, next in
//         call.annotate("tenant", "acme")
//         try await next()
//     }
//     await host.use(MCPServerHost.rateLimit(perSecond: 10, burst: 20))
import Foundation

/// A request on its way to its handler, as middleware sees it.
public struct MCPCall: Sendable {
    /// The host.
    public let host: MCPServerHost
    /// The machine's handle of the request.
    public let handle: UInt64
    /// `tools/call`, `resources/read`, `prompts/get` or an extension method.
    public let method: String
    /// The tool or prompt name, or the URI.
    public let target: String?
    /// The caller-context id (`MessageContext.auth`; 0 = anonymous).
    public let caller: UInt64

    /// Adds `key = value` to the request's observation (its span attributes, log line).
    public func annotate(_ key: String, _ value: String) {
        host.machine.annotate(handle: handle, key: key, value: value)
    }
}

/// Sees each request before its handler and its answer after (`try await next()` runs the
/// rest of the chain and the handler); throwing (`MCPHandlerError`) refuses the request.
public typealias Middleware = @Sendable (_ call: MCPCall, _ next: @Sendable () async throws -> Void) async throws -> Void

extension MCPServerHost {
    /// Calls `callback` with every observation of the core (each finished request, each
    /// refusal by a limit), in order, after the answers left; turns observations on.
    /// Times are the host's clock (`monotonicMs`).
    public func onObservation(_ callback: @escaping @Sendable (ServerObservation) -> Void) {
        machine.observe(on: true)
        observers.append(callback)
    }

    /// Runs `middleware` around every handler, after those added before it (the first added
    /// sees a request first and its answer last). Requests the core answers itself (lists,
    /// discovery, static reads) reach no handler: `onObservation` sees those.
    public func use(_ middleware: @escaping Middleware) {
        middlewares.append(middleware)
    }

    /// Answers over `max` bytes become the error `responseTooLargeCode()` (-31413), observed
    /// as a `response` refusal (`nil`: no cap).
    public func limitResponses(_ max: UInt64?) {
        machine.limitResponses(max: max)
    }

    /// A per-caller token bucket: `burst` tokens refilled at `perSecond`, one per request;
    /// an empty bucket refuses with `rateLimitedCode()` (-31429) and
    /// `Rate limit exceeded: retry after N ms`, observed as a `rate` refusal.
    public static func rateLimit(perSecond rate: Double, burst: Double) -> Middleware {
        let buckets = TokenBuckets(rate: max(rate, .leastNonzeroMagnitude), burst: max(burst, 1))
        return { call, next in
            if let wait = buckets.take(call.caller) {
                throw MCPHandlerError.application(
                    code: rateLimitedCode(), message: "Rate limit exceeded: retry after \(wait) ms")
            }
            try await next()
        }
    }

    func deliverObservations() {
        let now = monotonicMs()
        while let o = machine.pollObservation(nowMs: now) {
            for callback in observers { callback(o) }
        }
    }

    /// `body` through `chain`; a rate limit's refusal is reported as a `rate` refusal.
    func through(_ chain: [Middleware], _ call: MCPCall, _ body: @escaping @Sendable () async throws -> Void) async throws {
        @Sendable func step(_ i: Int) async throws {
            if i == chain.count { return try await body() }
            try await chain[i](call) { try await step(i + 1) }
        }
        do {
            try await step(0)
        } catch MCPHandlerError.application(let code, let message) where code == rateLimitedCode() {
            let refusal = ServerObservation.refused(limit: "rate", caller: call.caller, stream: 0, atMs: monotonicMs())
            for callback in observers { callback(refusal) }
            throw MCPHandlerError.application(code: code, message: message)
        }
    }
}

/// The buckets of `MCPServerHost.rateLimit`, behind a lock.
final class TokenBuckets: @unchecked Sendable {
    private let rate: Double
    private let burst: Double
    private var buckets: [UInt64: (tokens: Double, at: UInt64)] = [:]
    private let lock = NSLock()

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
    }

    /// Takes a token of `caller`: `nil`, or the milliseconds until one is back.
    func take(_ caller: UInt64) -> UInt64? {
        lock.lock()
        defer { lock.unlock() }
        let now = monotonicMs()
        let bucket = buckets[caller] ?? (tokens: burst, at: now)
        let (tokens, at) = (bucket.tokens, bucket.at)
        let refilled = min(burst, tokens + Double(now - min(at, now)) / 1000 * rate)
        if refilled >= 1 {
            buckets[caller] = (tokens: refilled - 1, at: now)
            return nil
        }
        buckets[caller] = (tokens: refilled, at: now)
        return UInt64(((1 - refilled) / rate * 1000).rounded(.up))
    }
}
