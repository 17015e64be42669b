// Telemetry and middleware of MCPServerHost (docs/operations.md): the core's observations
// handed to callbacks (`onObservation`), the request log (`MCPServerHost.jsonLog`), a
// per-caller token bucket (`MCPServerHost.rateLimit`) and the response cap
// (`limitResponses`). The records, names and outcomes are the core's. Middleware (`use`) runs
// at the core's gate: Gate.swift.
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

extension MCPServerHost {
    /// Calls `callback` with every observation of the core (each finished request, each
    /// refusal by a limit), in order, after the answers left; turns observations on.
    /// Times are the host's clock (`monotonicMs`).
    public func onObservation(_ callback: @escaping @Sendable (ServerObservation) -> Void) {
        machine.observe(on: true)
        observers.append(callback)
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
                throw MCPHandlerError.application(code: rateLimitedCode(), message: rateLimitedMessage(waitMs: wait))
            }
            try await next()
        }
    }

    /// The request log: an observation callback writing one JSON object per line (`write`
    /// gets it without the newline; default: stderr, as stdout is the stdio transport).
    /// Per request `{"ts_ms", "method", "request_id", "target", "caller", "era",
    /// "session_id", "outcome", "error_type", "duration_ms", "trace_id", "annotations"}`, per
    /// refusal `{"ts_ms", "refused", "caller"}` (the Rust host's `JsonLog` keys); `ts_ms` is
    /// the wall clock when the observation was delivered.
    ///
    ///     await host.onObservation(MCPServerHost.jsonLog())
    public static func jsonLog(
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) -> @Sendable (ServerObservation) -> Void {
        return { observation in
            let now = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
            let object: [String: Any]
            switch observation {
            case .request(let r):
                var annotations: [String: String] = [:]
                for a in r.annotations { annotations[a.key] = a.value }
                object = [
                    "ts_ms": now, "method": r.method, "request_id": r.requestId,
                    "target": r.target ?? NSNull(), "caller": r.caller, "era": r.era,
                    "session_id": r.sessionId ?? NSNull(), "outcome": r.outcome,
                    "error_type": r.errorType ?? NSNull(), "duration_ms": r.endMs - min(r.startMs, r.endMs),
                    "trace_id": r.parent?.traceId ?? NSNull(), "annotations": annotations,
                ]
            case .refused(let limit, let caller, _, _):
                object = ["ts_ms": now, "refused": limit, "caller": caller]
            }
            if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) {
                write(String(decoding: data, as: UTF8.self))
            }
        }
    }

    func deliverObservations() {
        let now = monotonicMs()
        while let o = machine.pollObservation(nowMs: now) {
            for callback in observers { callback(o) }
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
