import Foundation
import XCTest

import MCPContext

/// Shows `notes://acme/secret` and the `audit` prompt to caller context 7 only; records what
/// the core asked.
final class OnlyForSeven: VisibilityFilter, @unchecked Sendable {
    private let lock = NSLock()
    private var asked: [ListedItem] = []

    func isVisible(auth: UInt64, item: ListedItem) -> Bool {
        lock.lock()
        asked.append(item)
        lock.unlock()
        switch item {
        case .resource(let uri, _): return uri != "notes://acme/secret" || auth == 7
        case .prompt(let name): return name != "audit" || auth == 7
        case .template, .tool: return true
        }
    }

    var questions: [ListedItem] {
        lock.lock()
        defer { lock.unlock() }
        return asked
    }
}

final class VisibilityTests: XCTestCase {
    func testListsAndReadsDependOnTheCallerContext() throws {
        let server = try ServerMachine(config: serverConfig())
        for uri in ["notes://acme/public", "notes://acme/secret"] {
            try server.addResource(
                resource: Resource(uri: uri, name: uri, title: nil, description: nil, mimeType: nil, size: nil),
                contents: [.text(uri: uri, mimeType: nil, text: "body of \(uri)")], cache: nil)
        }
        try server.addPrompt(prompt: Prompt(name: "audit", title: nil, description: nil, arguments: []), completions: [:])
        let filter = OnlyForSeven()
        server.setVisibility(filter: filter)
        let h = SessionHarness(client: try ClientMachine(config: clientConfig(name: "t", version: "1")), server: server)

        func uris() throws -> [String] {
            let call = h.client.listResources(paging: .all, policy: .refresh, nowMs: h.nowMs)
            try h.pump()
            let listing = try XCTUnwrap(h.take().compactMap { e -> Listing? in
                if case .resourcesListed(let c, let l) = e, c == call { return l }
                return nil
            }.first)
            let page = try listing.pages[0].decode(Wire.ListResourcesResult.self)
            XCTAssertEqual(try object(listing.pages[0].json)["cacheScope"] as? String, "private")
            return page.resources.map(\.uri)
        }

        XCTAssertEqual(try uris(), ["notes://acme/public"])
        let hidden = h.client.readResource(uri: "notes://acme/secret", policy: .refresh, nowMs: h.nowMs)
        try h.pump()
        XCTAssertTrue(h.take().contains { e in
            if case .failed(let c, .server(.resourceNotFound)) = e { return c == hidden }
            return false
        }, "a hidden resource is not found for that caller")

        h.context.auth = 7
        h.client.setAuthContext(authContext: 7)
        XCTAssertEqual(try uris(), ["notes://acme/public", "notes://acme/secret"])
        XCTAssertTrue(filter.questions.contains(.prompt(name: "audit")) || filter.questions.contains(.resource(uri: "notes://acme/secret", name: "notes://acme/secret")))
    }
}
