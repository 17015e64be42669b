// OAuth for `HTTPTransport`: the core's `Authorizer` (every rule of the flow, docs/rules.md
// §21) driven with URLSession (redirects not followed), an app-supplied presenter for the
// authorization URL (e.g. `ASWebAuthenticationSession`), and a token store.
//
//     let oauth = try OAuthSession(serverURL: url, redirectURI: "com.example.app:/oauth") { authURL in
//         try await presentWebAuthentication(authURL)   // resolves to the redirect URL
//     }
//     let client = try MCPClient(transport: HTTPTransport(url: url, oauth: oauth))
//
// Time is wall-clock milliseconds, so stored `expiresAtMs` stay meaningful across launches.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where tokens live between launches, keyed by the MCP server's URL (e.g. the Keychain).
public protocol TokenStore: Sendable {
    /// The tokens kept for `serverURL`.
    func load(serverURL: String) async -> AuthTokens?
    /// Keeps `tokens` for `serverURL`, replacing earlier ones.
    func save(serverURL: String, tokens: AuthTokens) async
}

/// The default `TokenStore`: a dictionary, gone with the process.
public actor MemoryTokenStore: TokenStore {
    private var tokens: [String: AuthTokens] = [:]
    public init() {}
    public func load(serverURL: String) async -> AuthTokens? { tokens[serverURL] }
    public func save(serverURL: String, tokens: AuthTokens) async { self.tokens[serverURL] = tokens }
}

/// The authorization flow stopped; the request it was for fails.
public struct AuthorizationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(description: String) { self.description = description }
}

/// One server's authorization: the `Authorizer`, one flow at a time.
public actor OAuthSession {
    /// Presents the authorization URL to the user and resolves to the URL the authorization
    /// server redirected back to (with `code`, `state`, `iss`).
    public typealias Presenter = @Sendable (URL) async throws -> URL

    private let authorizer: Authorizer
    private let serverURL: String
    private let redirectURI: String
    private let store: TokenStore
    private let presenter: Presenter
    private let http: URLSession
    private var loaded = false
    private var running = false

    /// A session for `serverURL`; `configure` adjusts the flow's configuration (pre-registered
    /// clients, a Client ID Metadata Document, `offlineAccess`, …).
    public init(
        serverURL: URL, redirectURI: String, clientName: String = "mcp-context",
        store: TokenStore = MemoryTokenStore(), configure: (inout AuthConfig) -> Void = { _ in },
        presenter: @escaping Presenter
    ) throws {
        var config = authConfig(serverUrl: serverURL.absoluteString, redirectUri: redirectURI, clientName: clientName)
        configure(&config)
        authorizer = try Authorizer(config: config)
        self.serverURL = serverURL.absoluteString
        self.redirectURI = redirectURI
        self.store = store
        self.presenter = presenter
        http = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
    }

    private static func now() -> UInt64 { UInt64(max(0, Date().timeIntervalSince1970 * 1000)) }

    private func ready() async {
        if loaded { return }
        loaded = true
        if let tokens = await store.load(serverURL: serverURL) { _ = authorizer.restore(tokens: tokens) }
    }

    /// Waits while another request's flow runs.
    private func gate() async {
        while running { try? await Task.sleep(nanoseconds: 10_000_000) }
    }

    /// The `Authorization` value for a request to `url`, refreshing a token about to expire
    /// (a failed refresh drops it: the next 401 authorizes again).
    public func authorizationHeader(for url: URL) async -> String? {
        await credentials(for: url).header
    }

    /// `authorizationHeader(for:)` and the authorization context (the grant) it belongs to,
    /// read together: the client's cache keeps a private result for the grant whose token
    /// obtained it (docs/rules.md §21.7).
    public func credentials(for url: URL) async -> (header: String?, grant: UInt64?) {
        await gate()
        await ready()
        if authorizer.refreshDue(nowMs: Self.now()) {
            running = true
            authorizer.startRefresh(nowMs: Self.now())
            try? await drive()
            running = false
        }
        return (authorizer.authorizationHeader(url: url.absoluteString, nowMs: Self.now()), authorizer.authContext())
    }

    /// A request carrying `sent` was answered `status` with `wwwAuthenticate`: runs the flow
    /// (unless another request renewed the token meanwhile); returns when the request may be
    /// sent again.
    public func challenge(url: URL, status: Int, wwwAuthenticate: String?, sent: String?) async throws {
        await gate()
        await ready()
        let current = authorizer.authorizationHeader(url: url.absoluteString, nowMs: Self.now())
        if status == 401, let current, current != sent { return }
        running = true
        defer { running = false }
        var rng = SystemRandomNumberGenerator()
        let entropy = Data((0..<48).map { _ in UInt8.random(in: .min ... .max, using: &rng) })
        authorizer.handleChallenge(
            status: UInt16(clamping: status), wwwAuthenticate: wwwAuthenticate, entropy: entropy, nowMs: Self.now())
        try await drive()
    }

    /// A request went through.
    public func succeeded() { authorizer.handleSuccess() }

    private func drive() async throws {
        while let action = authorizer.pollAction() {
            switch action {
            case let .fetch(id, method, url, headers, body):
                do {
                    let (status, data) = try await fetch(method: method, url: url, headers: headers, body: body)
                    authorizer.handleFetched(id: id, status: status, body: data, nowMs: Self.now())
                } catch {
                    authorizer.handleFetchFailed(id: id, nowMs: Self.now())
                }
            case let .authorize(url):
                guard let target = URL(string: url) else { throw AuthorizationError(description: "bad URL \(url)") }
                do {
                    let redirect = try await presenter(target)
                    authorizer.handleRedirect(url: redirect.absoluteString, nowMs: Self.now())
                } catch {
                    // Ends the flow (an error response), so the next challenge starts afresh.
                    authorizer.handleRedirect(url: "\(redirectURI)?error=access_denied", nowMs: Self.now())
                    while authorizer.pollAction() != nil {}
                    throw AuthorizationError(description: "the presenter failed: \(error)")
                }
            case let .store(tokens):
                await store.save(serverURL: serverURL, tokens: tokens)
            case .retry:
                return
            case let .failed(error):
                throw AuthorizationError(description: error)
            }
        }
    }

    private func fetch(method: String, url: String, headers: [AuthHeader], body: Data) async throws -> (UInt16, Data) {
        guard let target = URL(string: url) else { throw AuthorizationError(description: "bad URL \(url)") }
        var request = URLRequest(url: target)
        request.httpMethod = method
        for h in headers { request.setValue(h.value, forHTTPHeaderField: h.name) }
        if method == "POST" { request.httpBody = body }
        let http = self.http
        return try await withCheckedThrowingContinuation { done in
            http.dataTask(with: request) { data, response, error in
                if let error { return done.resume(throwing: error) }
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                done.resume(returning: (UInt16(clamping: status), data ?? Data()))
            }.resume()
        }
    }
}

/// The flow sees redirects itself: URLSession must not follow them.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
