import Foundation
import XCTest

import MCPContext

final class RouterTests: XCTestCase {
    func testRoutesByPrecedenceAndDecodes() throws {
        let router = Router()
        XCTAssertEqual(try router.insert(template: "repo://{owner}/{repo}"), 0)
        XCTAssertEqual(try router.insert(template: "repo://{owner}/{repo}/issues/{number}"), 1)
        XCTAssertEqual(try router.insert(template: "repo://acme/{repo}"), 2)
        XCTAssertEqual(try router.insert(template: "files://{/path*}"), 3)
        XCTAssertEqual(router.count(), 4)
        XCTAssertEqual(router.template(id: 1), "repo://{owner}/{repo}/issues/{number}")
        XCTAssertNil(router.template(id: 9))

        let issue = try XCTUnwrap(try router.route(uri: "repo://acme/web/issues/7"))
        XCTAssertEqual(issue.id, 1)
        XCTAssertEqual(issue.captures.map(\.name), ["owner", "repo", "number"])
        XCTAssertEqual(issue.captures.last?.values, ["7"])
        XCTAssertEqual(try router.route(uri: "repo://acme/web")?.id, 2, "literal beats variable")
        let other = try XCTUnwrap(try router.route(uri: "repo://caf%C3%A9/web"))
        XCTAssertEqual(other.captures.first?.raw, "caf%C3%A9")
        XCTAssertEqual(other.captures.first?.values, ["café"])
        let path = try XCTUnwrap(try router.route(uri: "files:///a/b%20c"))
        XCTAssertTrue(path.captures[0].exploded)
        XCTAssertEqual(path.captures[0].values, ["a", "b c"])
        XCTAssertNil(try router.route(uri: "nope://x"))
    }

    func testRefusalsAreTypedErrors() {
        let router = Router()
        XCTAssertNoThrow(try router.insert(template: "repo://{owner}/{repo}"))
        XCTAssertThrowsError(try router.insert(template: "repo://{a}/{b}")) { error in
            XCTAssertEqual(error as? RouterError, .indistinguishable(existing: 0))
        }
        XCTAssertThrowsError(try router.insert(template: "x://{a}{b}")) { error in
            guard case .unmatchable? = error as? RouterError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try router.insert(template: "x://{a")) { error in
            XCTAssertEqual(error as? RouterError, .parse(kind: .unclosedExpression, byteOffset: 4))
        }
        XCTAssertEqual(router.count(), 1, "a refused template changes nothing")
    }
}

final class CacheTests: XCTestCase {
    func testScopeFreshnessAndInvalidation() throws {
        let cache = Cache(maxEntries: 8, maxBytes: 4096)
        let key = CacheKey.read(uri: "file:///a")
        XCTAssertEqual(try cacheKey(method: "resources/read", keyParam: "file:///a"), key)
        try cache.insert(key: key, authContext: 1, ttlMs: 1_000, scope: .private, retry: false, value: Data("A".utf8), nowMs: 0)
        XCTAssertEqual(cache.get(key: key, authContext: 1, nowMs: 10), Data("A".utf8))
        XCTAssertNil(cache.get(key: key, authContext: 2, nowMs: 10), "private results stay in their context")
        XCTAssertEqual(cache.lookup(key: key, authContext: 1, nowMs: 1_000), .stale(value: Data("A".utf8)))
        XCTAssertEqual(cache.lookup(key: key, authContext: 2, nowMs: 0), .miss)
        XCTAssertEqual(cache.count(), 1)
        XCTAssertEqual(cache.bytes(), UInt64("file:///a".utf8.count + 1))

        let updated = try XCTUnwrap(invalidationForNotification(method: "notifications/resources/updated", uri: "file:///a"))
        XCTAssertEqual(cache.invalidate(event: updated), 1)
        XCTAssertNil(invalidationForNotification(method: "notifications/message", uri: nil))
        XCTAssertEqual(cache.count(), 0)

        let page = CacheKey.list(list: .resources, cursor: "")
        try cache.insert(key: page, authContext: nil, ttlMs: 500, scope: .public, retry: false, value: Data("P".utf8), nowMs: 0)
        XCTAssertEqual(cache.get(key: page, authContext: 42, nowMs: 1), Data("P".utf8), "public is shared")
        XCTAssertNil(cache.get(key: .list(list: .resources, cursor: nil), authContext: nil, nowMs: 1), "\"\" is a cursor")
        XCTAssertEqual(cache.invalidate(event: .cursorRejected(list: .resources)), 1)
    }

    func testRefusalsAreTypedErrors() {
        let cache = Cache(maxEntries: 2, maxBytes: 16)
        let key = CacheKey.discover
        XCTAssertThrowsError(try cache.insert(key: key, authContext: nil, ttlMs: 0, scope: .public, retry: false, value: Data(), nowMs: 0)) {
            XCTAssertEqual($0 as? CacheError, .immediatelyStale)
        }
        XCTAssertThrowsError(try cache.insert(key: key, authContext: nil, ttlMs: 10, scope: .public, retry: true, value: Data(), nowMs: 0)) {
            XCTAssertEqual($0 as? CacheError, .retry)
        }
        XCTAssertThrowsError(try cache.insert(key: key, authContext: nil, ttlMs: 10, scope: .public, retry: false, value: Data(count: 17), nowMs: 0)) {
            XCTAssertEqual($0 as? CacheError, .tooLarge)
        }
        XCTAssertThrowsError(try cacheKey(method: "prompts/get", keyParam: nil)) {
            XCTAssertEqual($0 as? CacheError, .notCacheable)
        }
        XCTAssertThrowsError(try cacheKey(method: "resources/read", keyParam: nil)) {
            XCTAssertEqual($0 as? CacheError, .missingUri)
        }
    }
}

final class ContextSelectionTests: XCTestCase {
    func testAudiencePriorityAndBudget() {
        func candidate(_ uri: String, _ size: UInt64, _ priority: Double?, _ audience: [Role]? = nil) -> ContextCandidate {
            ContextCandidate(uri: uri, size: size, tokens: nil, audience: audience, priority: priority, lastModified: nil)
        }
        let candidates = [
            candidate("file:///a", 600, 0.9),
            candidate("file:///b", 500, 0.8),
            candidate("file:///c", 300, 0.1),
            candidate("file:///d", 10, nil, [.user]),
        ]
        XCTAssertEqual(selectContext(candidates: candidates, budget: .bytes(limit: 1000), target: .assistant), [0, 2])
        XCTAssertEqual(selectContext(candidates: candidates, budget: .bytes(limit: 1000), target: .user), [0, 3, 2])
        // Tokens are estimated from bytes (4 per token) when the host has no count.
        XCTAssertEqual(selectContext(candidates: candidates, budget: .tokens(limit: 150), target: nil), [0])
        XCTAssertEqual(selectContext(candidates: [], budget: .bytes(limit: 1), target: nil), [])
    }
}

final class ConcurrencyTests: XCTestCase {
    /// The objects are `Sendable`: one router, cache and server machine shared by many threads
    /// (each takes its own lock in Rust).
    func testSharedAcrossThreads() throws {
        let router = Router()
        for i in 0..<16 {
            _ = try router.insert(template: "t\(i)://{a}/{b}")
        }
        let cache = Cache(maxEntries: 1024, maxBytes: 1 << 20)
        let server = try ServerMachine(config: serverConfig())
        let routed = Counter()
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let hit = try? router.route(uri: "t\(i % 16)://x/\(i)")
            let key = CacheKey.read(uri: "file:///\(i)")
            try? cache.insert(key: key, authContext: nil, ttlMs: 1_000, scope: .public, retry: false, value: Data([UInt8(i)]), nowMs: 0)
            _ = server.handleMessage(bytes: Data("{}".utf8), nowMs: 0, context: MessageContext(stream: UInt64(i), auth: 0, transport: .http))
            if hit?.id == UInt32(i % 16), hit?.captures.last?.values == ["\(i)"] { routed.increment() }
        }
        XCTAssertEqual(routed.value, 64)
        XCTAssertEqual(cache.count(), 64)
        var answered = Set<UInt64>()
        while case .transmit(let stream, _, _, _, _)? = server.pollOutput() {
            answered.insert(stream)
        }
        XCTAssertEqual(answered.count, 64, "every invalid message got its error response")
    }
}

/// A thread-safe count.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
