import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MCPContext
import XCTest

/// MCPClient over HTTP with OAuth (`HTTPTransport(url:oauth:)`, the core's `Authorizer` driven
/// by `OAuthSession`) against a server behind the official TypeScript SDK's bearer middleware
/// (tests/auth-server/protected-ts.mjs, tokens from tests/auth-server/server.py; started by
/// scripts/swift-test.sh, which sets MCP_OAUTH_URL). The caller never handles a token.
final class OAuthTests: XCTestCase {
    private let redirect = "http://127.0.0.1:1/callback"

    private func serverURL() throws -> URL {
        guard let text = ProcessInfo.processInfo.environment["MCP_OAUTH_URL"], !text.isEmpty,
              let url = URL(string: text) else {
            throw XCTSkip("MCP_OAUTH_URL not set (no protected server)")
        }
        return url
    }

    func testClientReadsAProtectedResourceAfterA401() async throws {
        let url = try serverURL()
        let store = MemoryTokenStore()
        let oauth = try OAuthSession(serverURL: url, redirectURI: redirect, clientName: "swift-test", store: store) {
            try await follow($0)
        }
        let client = try MCPClient(transport: HTTPTransport(url: url, oauth: oauth))
        let read = try await client.readResource("secret://note", policy: .refresh)
        XCTAssertTrue(try firstText(read)?.hasPrefix("secret for client-") ?? false)
        let saved = await store.load(serverURL: url.absoluteString)
        XCTAssertEqual(saved?.resource, url.absoluteString)
        XCTAssertNotNil(saved?.refreshToken)
        // The token is reused: a second read authorizes nothing (the presenter would fail).
        let again = try await client.readResource("secret://note", policy: .refresh)
        XCTAssertEqual(try firstText(again), try firstText(read))
        await client.close()

        // A new session with the same store needs no authorization either.
        let reuse = try OAuthSession(serverURL: url, redirectURI: redirect, store: store) { _ in
            throw AuthorizationError(description: "no presenting expected")
        }
        let second = try MCPClient(transport: HTTPTransport(url: url, oauth: reuse))
        let reread = try await second.readResource("secret://note", policy: .refresh)
        XCTAssertEqual(try firstText(reread), try firstText(read))
        await second.close()
    }

    /// The same client against our own protected runner (examples/protected-server: the axum
    /// host's `JwtVerifier`, started by scripts/swift-test.sh, which sets MCP_OAUTH_OURS_URL).
    func testClientReadsFromOurProtectedAxumRunner() async throws {
        guard let text = ProcessInfo.processInfo.environment["MCP_OAUTH_OURS_URL"], !text.isEmpty,
              let url = URL(string: text) else {
            throw XCTSkip("MCP_OAUTH_OURS_URL not set (our protected runner not started)")
        }
        let oauth = try OAuthSession(serverURL: url, redirectURI: redirect, clientName: "swift-test") {
            try await follow($0)
        }
        let client = try MCPClient(transport: HTTPTransport(url: url, oauth: oauth))
        let read = try await client.readResource("secret://note", policy: .refresh)
        let note = try firstText(read) ?? ""
        XCTAssertTrue(note.hasPrefix("secret for "), note)
        XCTAssertTrue(note.contains("mcp:read"), note)
        await client.close()
    }

    func testAPrivateResultStaysWithItsGrant() async throws {
        // Our axum runner: mine://note is cached a minute, private. The first grant has
        // mcp:read; admin://note answers 403 step-up, a new authorization with mcp:write:
        // another grant, so mine://note is fetched again, never served from the first
        // grant's cache entry (docs/rules.md §21.7).
        guard let text = ProcessInfo.processInfo.environment["MCP_OAUTH_OURS_URL"], !text.isEmpty,
              let url = URL(string: text) else {
            throw XCTSkip("MCP_OAUTH_OURS_URL not set (our protected runner not started)")
        }
        let oauth = try OAuthSession(serverURL: url, redirectURI: redirect, clientName: "swift-grants") {
            try await follow($0)
        }
        let client = try MCPClient(transport: HTTPTransport(url: url, oauth: oauth))
        let first = try await client.readResource("mine://note")
        let again = try await client.readResource("mine://note")
        XCTAssertFalse(first.fromCache)
        XCTAssertTrue(again.fromCache)
        XCTAssertEqual(try firstText(again), try firstText(first))
        XCTAssertFalse((try firstText(first) ?? "").contains("mcp:write"))
        let admin = try await client.readResource("admin://note", policy: .refresh)
        XCTAssertEqual(try firstText(admin), "admin")
        let after = try await client.readResource("mine://note")
        XCTAssertFalse(after.fromCache, "the first grant's private result was served to the second")
        XCTAssertTrue((try firstText(after) ?? "").contains("mcp:write"))
        let cached = try await client.readResource("mine://note")
        XCTAssertTrue(cached.fromCache)
        await client.close()
    }

    func testAFailedPresenterFailsTheCall() async throws {
        let url = try serverURL()
        let oauth = try OAuthSession(serverURL: url, redirectURI: redirect) { _ in
            throw AuthorizationError(description: "the user cancelled")
        }
        let client = try MCPClient(transport: HTTPTransport(url: url, oauth: oauth))
        do {
            _ = try await client.readResource("secret://note", policy: .refresh)
            XCTFail("expected a failure")
        } catch {}
        await client.close()
    }
}

/// The test's user agent: the authorization endpoint approves at once; its redirect back.
private func follow(_ url: URL) async throws -> URL {
    let session = URLSession(configuration: .ephemeral, delegate: Stop(), delegateQueue: nil)
    return try await withCheckedThrowingContinuation { done in
        session.dataTask(with: url) { _, response, error in
            if let error { return done.resume(throwing: error) }
            let http = response as? HTTPURLResponse
            guard let location = http?.value(forHTTPHeaderField: "Location"), let back = URL(string: location) else {
                return done.resume(throwing: AuthorizationError(description: "no redirect (\(http?.statusCode ?? 0))"))
            }
            done.resume(returning: back)
        }.resume()
    }
}

private final class Stop: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
