import Foundation
import XCTest

import MCPContext

final class MachineTests: XCTestCase {
    private func makeServer() throws -> ServerMachine {
        var config = serverConfig()
        config.readCache = CacheHint(ttlMs: 60_000, scope: .public)
        config.serverInfo = Implementation(
            name: "swift-test", version: "1.0.0", title: nil, description: nil, websiteUrl: nil)
        let server = try ServerMachine(config: config)
        try server.addResource(
            resource: Resource(
                uri: "notes://acme/readme", name: "readme", title: "Read me", description: nil,
                mimeType: "text/plain", size: 5),
            contents: [.text(uri: "notes://acme/readme", mimeType: "text/plain", text: "hello")],
            cache: nil)
        let id = try server.addTemplate(
            template: ResourceTemplate(
                uriTemplate: "notes://{project}/{id}", name: "note", title: nil, description: nil,
                mimeType: "text/plain"),
            cache: nil, completions: ["project": ["acme", "apex", "zeta"]])
        XCTAssertEqual(id, 0)
        try server.addPrompt(
            prompt: Prompt(
                name: "review", title: nil, description: "Review a note",
                arguments: [PromptArgument(name: "id", title: nil, description: nil, required: true)]),
            completions: [:])
        return server
    }

    private func makeHarness() throws -> SessionHarness {
        let client = try ClientMachine(config: clientConfig(name: "swift-test", version: "1.0.0"))
        return SessionHarness(client: client, server: try makeServer())
    }

    func testConnectAndDiscover() throws {
        let h = try makeHarness()
        h.client.connect(nowMs: h.nowMs)
        try h.pump()
        guard case .connected(let session)? = h.take().first else {
            return XCTFail("no connected event")
        }
        XCTAssertEqual(session.era, .modern)
        XCTAssertEqual(session.version, protocolVersion())
        XCTAssertTrue(session.features.resources)
        XCTAssertTrue(session.features.prompts)
        XCTAssertTrue(session.features.completions)
        XCTAssertEqual(h.client.session(), session)
        let discover = try object(session.handshakeJson)
        XCTAssertEqual(discover["supportedVersions"] as? [String], ["2026-07-28"])
    }

    func testStaticReadThenCacheHit() throws {
        let h = try makeHarness()
        let call = h.client.readResource(uri: "notes://acme/readme", policy: .preferCache, nowMs: h.nowMs)
        try h.pump()
        let reads = h.take().compactMap { e -> Reply? in
            if case .resourceRead(let c, let reply) = e, c == call { return reply }
            return nil
        }
        XCTAssertEqual(reads.count, 1)
        XCTAssertEqual(try firstText(reads[0]), "hello")
        XCTAssertFalse(reads[0].fromCache)

        // A second read within the TTL is answered by the client's cache, without a transmit.
        h.nowMs += 10
        let again = h.client.readResource(uri: "notes://acme/readme", policy: .preferCache, nowMs: h.nowMs)
        guard case .event(.resourceRead(let c, let reply))? = h.client.pollOutput() else {
            return XCTFail("expected a cached read")
        }
        XCTAssertEqual(c, again)
        XCTAssertTrue(reply.fromCache)
        XCTAssertEqual(h.client.readCached(uri: "notes://acme/readme", nowMs: h.nowMs)?.fromCache, true)
        // Past the TTL the cache no longer answers.
        XCTAssertNil(h.client.readCached(uri: "notes://acme/readme", nowMs: h.nowMs + 60_000))
    }

    func testTemplateReadGoesToTheApplication() throws {
        let h = try makeHarness()
        var seen: [String: String] = [:]
        h.onServerEvent = { event in
            guard case .readResource(let handle, let uri, let target, _, _, let retry) = event else {
                return XCTFail("unexpected \(event)")
            }
            XCTAssertNil(retry)
            guard case .template(let id, let uriTemplate, let variables) = target else {
                return XCTFail("not a template read")
            }
            XCTAssertEqual(id, 0)
            XCTAssertEqual(uriTemplate, "notes://{project}/{id}")
            seen = variables
            try h.server.respondRead(
                handle: handle,
                contents: [.blob(uri: uri, mimeType: "application/octet-stream", data: Data([0, 1, 2, 255]))])
            // Answering twice is a caller error, reported as a Swift error.
            XCTAssertThrowsError(try h.server.respondRead(handle: handle, contents: [])) { error in
                XCTAssertEqual(error as? RespondError, .unknownHandle)
            }
        }
        let call = h.client.readResource(uri: "notes://acme%20co/42", policy: .refresh, nowMs: h.nowMs)
        try h.pump()
        XCTAssertEqual(seen, ["project": "acme co", "id": "42"])
        let reply = h.take().compactMap { e -> Reply? in
            if case .resourceRead(let c, let r) = e, c == call { return r }
            return nil
        }.first
        let contents = try XCTUnwrap(try object(XCTUnwrap(reply).json)["contents"] as? [[String: Any]])
        XCTAssertEqual(contents.first?["blob"] as? String, "AAEC/w==")
    }

    func testNotFoundIsATypedServerError() throws {
        let h = try makeHarness()
        h.onServerEvent = { event in
            if case .readResource(let handle, _, _, _, _, _) = event {
                try h.server.fail(handle: handle, failure: .notFound)
            }
        }
        let call = h.client.readResource(uri: "notes://acme/missing", policy: .refresh, nowMs: h.nowMs)
        try h.pump()
        let failure = h.take().compactMap { e -> CallError? in
            if case .failed(let c, let error) = e, c == call { return error }
            return nil
        }.first
        guard case .server(.resourceNotFound(let uri, _))? = failure else {
            return XCTFail("expected resourceNotFound, got \(String(describing: failure))")
        }
        XCTAssertEqual(uri, "notes://acme/missing")
        // Unregistered schemes never reach the application.
        let other = h.client.readResource(uri: "nothing://here", policy: .refresh, nowMs: h.nowMs)
        try h.pump()
        XCTAssertTrue(h.take().contains { e in
            if case .failed(let c, .server(.resourceNotFound)) = e { return c == other }
            return false
        })
    }

    func testListsPromptsAndCompletion() throws {
        let h = try makeHarness()
        let list = h.client.listResources(paging: .all, policy: .refresh, nowMs: h.nowMs)
        let templates = h.client.listResourceTemplates(paging: .page(cursor: nil), policy: .refresh, nowMs: h.nowMs)
        let completion = h.client.complete(
            reference: .resource(uriTemplate: "notes://{project}/{id}"), argument: "project", value: "a",
            context: nil, nowMs: h.nowMs)
        let missingArgument = h.client.getPrompt(name: "review", arguments: [:], nowMs: h.nowMs)
        try h.pump()
        var done = Set<UInt64>()
        for event in h.take() {
            switch event {
            case .resourcesListed(let c, let listing):
                XCTAssertEqual(c, list)
                XCTAssertNil(listing.nextCursor)
                let resources = try object(listing.pages[0].json)["resources"] as? [[String: Any]]
                XCTAssertEqual(resources?.first?["uri"] as? String, "notes://acme/readme")
                done.insert(c)
            case .templatesListed(let c, let listing):
                XCTAssertEqual(c, templates)
                let items = try object(listing.pages[0].json)["resourceTemplates"] as? [[String: Any]]
                XCTAssertEqual(items?.first?["uriTemplate"] as? String, "notes://{project}/{id}")
                done.insert(c)
            case .completed(let c, let reply):
                XCTAssertEqual(c, completion)
                let values = (try object(reply.json)["completion"] as? [String: Any])?["values"] as? [String]
                XCTAssertEqual(values, ["acme", "apex"])
                done.insert(c)
            case .failed(let c, let error):
                XCTAssertEqual(c, missingArgument)
                guard case .server(.invalidParams) = error else { return XCTFail("\(error)") }
                done.insert(c)
            case .connected:
                break
            default:
                XCTFail("unexpected \(event)")
            }
        }
        XCTAssertEqual(done, [list, templates, completion, missingArgument])
    }

    func testSubscriptionNotifiedAndEnded() throws {
        let h = try makeHarness()
        let filter = SubscriptionFilter(
            toolsListChanged: true, promptsListChanged: nil, resourcesListChanged: true,
            resourceSubscriptions: ["notes://acme/readme"])
        let listen = h.client.listen(filter: filter, nowMs: h.nowMs)
        try h.pump()
        let ack = h.take().compactMap { e -> (SubscriptionFilter, SubscriptionFilter)? in
            if case .acknowledged(let c, let honoured, let refused) = e, c == listen { return (honoured, refused) }
            return nil
        }.first
        let (honoured, refused) = try XCTUnwrap(ack)
        XCTAssertEqual(honoured.resourceSubscriptions, ["notes://acme/readme"])
        XCTAssertEqual(refused.toolsListChanged, true, "a server never honours tools")
        XCTAssertEqual(h.server.subscriptions(), 1)

        h.server.resourceUpdated(uri: "notes://acme/readme")
        h.server.resourcesListChanged()
        try h.pump()
        let notices = h.take().compactMap { e -> Notice? in
            if case .notified(let sub, let notice) = e, sub == listen { return notice }
            return nil
        }
        XCTAssertEqual(notices, [.resourceUpdated(uri: "notes://acme/readme"), .resourcesListChanged])

        h.server.shutdown()
        try h.pump()
        XCTAssertTrue(h.take().contains { e in
            if case .subscriptionEnded(let c, .graceful) = e { return c == listen }
            return false
        })
        XCTAssertEqual(h.server.subscriptions(), 0)
    }

    func testTimeoutsUseIntegerMilliseconds() throws {
        let h = try makeHarness()
        var held: UInt64?
        h.onServerEvent = { event in
            if case .readResource(let handle, _, _, _, _, _) = event { held = handle }
        }
        _ = h.client.readResource(uri: "notes://acme/7", policy: .refresh, nowMs: h.nowMs)
        try h.pump()
        let handle = try XCTUnwrap(held)
        XCTAssertEqual(h.server.pendingRequests(), 1)
        let deadline = try XCTUnwrap(h.server.pollTimeout())
        XCTAssertEqual(deadline, h.nowMs + 30_000)
        h.nowMs = deadline
        h.server.handleTimeout(nowMs: h.nowMs)
        var cancelled = false
        h.onServerEvent = { event in
            if case .cancelled(let c, .timedOut) = event, c == handle { cancelled = true }
        }
        try h.pump()
        XCTAssertTrue(cancelled)
        XCTAssertEqual(h.server.pendingRequests(), 0)
        XCTAssertTrue(h.take().contains { e in
            if case .failed(_, .server(.internal)) = e { return true }
            return false
        })
    }

    func testHttpStatusesAndInvalidInput() throws {
        let server = try makeServer()
        let http = MessageContext(stream: 9, auth: 0, transport: .http)
        XCTAssertEqual(server.handleMessage(bytes: Data("not json".utf8), nowMs: 0, context: http), .invalid)
        guard case .transmit(let stream, let bytes, _, _, let end)? = server.pollOutput() else {
            return XCTFail("expected a transmit")
        }
        XCTAssertEqual(stream, 9)
        XCTAssertTrue(end)
        XCTAssertEqual((try object(String(decoding: bytes, as: UTF8.self))["error"] as? [String: Any])?["code"] as? Int, -32700)
        let ping = #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}"#
        XCTAssertEqual(server.handleMessage(bytes: Data(ping.utf8), nowMs: 0, context: http), .request)
        guard case .transmit(_, _, let status, let kind, _)? = server.pollOutput() else {
            return XCTFail("expected a transmit")
        }
        XCTAssertEqual(status, 404)
        XCTAssertEqual(kind, .json)
        XCTAssertEqual(ErrorCode.methodNotFound.httpStatus(), status)
        XCTAssertNil(server.pollOutput())
    }

    func testConfigurationAndRegistrationErrors() throws {
        var config = serverConfig()
        config.pageSize = 0
        XCTAssertThrowsError(try ServerMachine(config: config)) { error in
            XCTAssertEqual(error as? ServerConfigError, .zeroCapacity)
        }
        config = serverConfig()
        config.stateKeys = [SealingKey(id: 1, secret: Data(repeating: 7, count: 4))]
        XCTAssertThrowsError(try ServerMachine(config: config)) { error in
            XCTAssertEqual(error as? ServerConfigError, .stateKeyTooShort)
        }
        let server = try makeServer()
        let readme = Resource(uri: "notes://acme/readme", name: "again", title: nil, description: nil, mimeType: nil, size: nil)
        XCTAssertThrowsError(try server.addResource(resource: readme, contents: nil, cache: nil)) { error in
            XCTAssertEqual(error as? RegisterError, .duplicate)
        }
        let bad = ResourceTemplate(uriTemplate: "notes://{oops", name: "bad", title: nil, description: nil, mimeType: nil)
        XCTAssertThrowsError(try server.addTemplate(template: bad, cache: nil, completions: [:])) { error in
            guard case .invalidTemplate(let kind, let offset, let description)? = error as? RegisterError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(kind, .unclosedExpression)
            XCTAssertEqual(offset, 8)
            XCTAssertFalse(description.isEmpty)
        }
        let invalidUri = Resource(uri: "no scheme", name: "x", title: nil, description: nil, mimeType: nil, size: nil)
        XCTAssertThrowsError(try server.addResource(resource: invalidUri, contents: nil, cache: nil)) { error in
            guard case .invalidUri? = error as? RegisterError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try server.fail(handle: 12345, failure: .internal)) { error in
            XCTAssertEqual(error as? RespondError, .unknownHandle)
            XCTAssertEqual("\(error)", "no request is waiting for this handle")
        }
        XCTAssertTrue(server.removeResource(uri: "notes://acme/readme"))
        XCTAssertFalse(server.removeResource(uri: "notes://acme/readme"))
        XCTAssertTrue(server.removeTemplate(uriTemplate: "notes://{project}/{id}"))
        XCTAssertTrue(server.removePrompt(name: "review"))
    }

    func testClientErrors() throws {
        var config = clientConfig(name: "t", version: "1")
        config.capabilitiesJson = "[1]"
        XCTAssertThrowsError(try ClientMachine(config: config)) { error in
            XCTAssertEqual(error as? ClientError, .invalidCapabilities)
        }
        config = clientConfig(name: "t", version: "1")
        config.versions = []
        XCTAssertThrowsError(try ClientMachine(config: config)) { error in
            XCTAssertEqual(error as? ClientError, .noVersions)
        }
        let client = try ClientMachine(config: clientConfig(name: "t", version: "1"))
        XCTAssertThrowsError(try client.cancel(call: 99, reason: nil, nowMs: 0)) { error in
            XCTAssertEqual(error as? ClientError, .unknownCall)
        }
        XCTAssertThrowsError(try client.respondInput(call: 99, responses: [:], nowMs: 0)) { error in
            XCTAssertEqual(error as? ClientError, .unknownCall)
        }
        // Garbage from the server is a peer error event, never a crash.
        client.handleMessage(bytes: Data([0xff, 0x00, 0x7b]), nowMs: 0)
        guard case .event(.peerError(let kind, let description))? = client.pollOutput() else {
            return XCTFail("expected a peer error")
        }
        XCTAssertEqual(kind, .malformed)
        XCTAssertFalse(description.isEmpty)
    }

    func testCloseFailsOutstandingCalls() throws {
        let h = try makeHarness()
        h.client.connect(nowMs: h.nowMs)
        try h.pump()
        _ = h.take()
        let call = h.client.readResource(uri: "notes://acme/1", policy: .refresh, nowMs: h.nowMs)
        guard case .transmit(_, let id, let method, let name, let version, _)? = h.client.pollOutput() else {
            return XCTFail("expected the read request")
        }
        XCTAssertNotNil(id)
        XCTAssertEqual(method, "resources/read")
        XCTAssertEqual(name, "notes://acme/1")
        XCTAssertEqual(version, "2026-07-28")
        XCTAssertEqual(h.client.outstanding(), 1)
        h.client.handleClose(nowMs: h.nowMs)
        guard case .event(.failed(let c, .closed))? = h.client.pollOutput() else {
            return XCTFail("expected the call to fail closed")
        }
        XCTAssertEqual(c, call)
    }

    func testHttpCancellationClosesTheStream() throws {
        var config = clientConfig(name: "t", version: "1")
        config.transport = .http
        let client = try ClientMachine(config: config)
        let call = client.readResource(uri: "notes://acme/1", policy: .refresh, nowMs: 0)
        guard case .transmit(_, let probeId?, "server/discover", _, _, _)? = client.pollOutput() else {
            return XCTFail("expected the discover probe")
        }
        // The host's HTTP layer got no JSON-RPC answer (e.g. 404, empty body): legacy fallback.
        client.handleRequestFailed(id: probeId, nowMs: 1)
        guard case .transmit(_, let initId?, "initialize", _, _, _)? = client.pollOutput() else {
            return XCTFail("expected the legacy initialize")
        }
        let initialized = #"{"jsonrpc":"2.0","id":\#(initId),"result":{"protocolVersion":"2025-11-25","capabilities":{"resources":{}},"serverInfo":{"name":"s","version":"1"}}}"#
        client.handleMessage(bytes: Data(initialized.utf8), nowMs: 2)
        var readId: Int64?
        var connected: Session?
        while let out = client.pollOutput() {
            switch out {
            case .transmit(_, let id, "resources/read", let name, _, _):
                XCTAssertEqual(name, "notes://acme/1")
                readId = id
            case .event(.connected(let session)):
                connected = session
            default:
                break
            }
        }
        XCTAssertEqual(connected?.era, .legacy)
        XCTAssertEqual(connected?.version, "2025-11-25")
        let id = try XCTUnwrap(readId)
        try client.cancel(call: call, reason: "user", nowMs: 3)
        XCTAssertEqual(client.pollOutput(), .closeStream(id: id), "HTTP cancels by closing the stream")
        XCTAssertThrowsError(try client.cancel(call: call, reason: nil, nowMs: 4)) { error in
            XCTAssertEqual(error as? ClientError, .unknownCall)
        }
    }
}
