import Foundation
import XCTest

import MCPContext

/// The JSON-text inputs (validated by the core) and the Codable conveniences, through a
/// full session: prompts, input_required with a sealed state, wire-shaped registration.
final class JsonInputTests: XCTestCase {
    private func harness(capabilities: String = "{}") throws -> SessionHarness {
        var config = serverConfig()
        config.stateKeys = [SealingKey(id: 1, secret: Data(repeating: 42, count: 32))]
        let server = try ServerMachine(config: config)
        try server.addResource(
            encoding: Wire.Resource(
                uri: "notes://acme/readme", name: "readme",
                annotations: Wire.Annotations(audience: ["user"], priority: 0.7, lastModified: "2026-07-28T10:00:00Z")),
            contents: [Wire.ResourceContents(uri: "notes://acme/readme", mimeType: "text/plain", text: "hello")])
        _ = try server.addTemplateJson(
            templateJson: #"{"uriTemplate":"notes://{project}/{id}","name":"note"}"#,
            cacheJson: #"{"ttlMs":1000,"cacheScope":"private"}"#, completions: [:])
        XCTAssertEqual(try server.addTemplate(encoding: Wire.ResourceTemplate(uriTemplate: "files://{+path}", name: "file")), 1)
        try server.addPromptJson(
            promptJson: #"{"name":"review","arguments":[{"name":"id","required":true}]}"#, completions: [:])
        var client = clientConfig(name: "swift-test", version: "1.0.0")
        client.capabilitiesJson = capabilities
        return SessionHarness(client: try ClientMachine(config: client), server: server)
    }

    func testWireShapedRegistrationKeepsAnnotations() throws {
        let h = try harness()
        let call = h.client.listResources(paging: .all, policy: .refresh, nowMs: h.nowMs)
        try h.pump()
        let listing = try XCTUnwrap(h.take().compactMap { e -> Listing? in
            if case .resourcesListed(let c, let l) = e, c == call { return l }
            return nil
        }.first)
        let page = try listing.pages[0].decode(Wire.ListResourcesResult.self)
        XCTAssertEqual(page.resources.first?.annotations?.priority, 0.7)
        XCTAssertEqual(page.resources.first?.annotations?.audience, ["user"])

        XCTAssertThrowsError(try h.server.addResourceJson(resourceJson: #"{"uri":"notes://x/1"}"#, contentsJson: nil, cacheJson: nil)) { error in
            guard case .invalidJson(let description)? = error as? RegisterError else { return XCTFail("\(error)") }
            XCTAssertTrue(description.contains("name"), description)
        }
        XCTAssertThrowsError(try h.server.addTemplateJson(templateJson: "{", cacheJson: nil, completions: [:])) { error in
            guard case .invalidJson? = error as? RegisterError else { return XCTFail("\(error)") }
        }
    }

    /// An answer of the wrong kind is refused and the machine fails the request with -32603
    /// itself (docs/rules.md §20.4): an answer after that is late.
    func testAWrongKindAnswerFailsTheRequest() throws {
        let h = try harness()
        h.onServerEvent = { event in
            guard case .getPrompt(let handle, _, _, _, _, _) = event else { return XCTFail("\(event)") }
            XCTAssertThrowsError(try h.server.respondRead(handle: handle, contents: [])) { error in
                XCTAssertEqual(error as? RespondError, .wrongKind)
            }
            XCTAssertThrowsError(try h.server.respondPrompt(handle: handle, resultJson: #"{"messages":[]}"#)) { error in
                XCTAssertEqual(error as? RespondError, .unknownHandle)
            }
        }
        let call = h.client.getPrompt(name: "review", arguments: ["id": "7"], nowMs: h.nowMs)
        try h.pump()
        XCTAssertTrue(h.take().contains { e in
            if case .failed(let c, .server(.internal)) = e { return c == call }
            return false
        })
    }

    func testPromptAnsweredWithCodable() throws {
        let h = try harness()
        h.onServerEvent = { event in
            guard case .getPrompt(let handle, let name, let arguments, _, _, _) = event else { return XCTFail("\(event)") }
            XCTAssertEqual(name, "review")
            XCTAssertThrowsError(try h.server.respondPrompt(handle: handle, resultJson: #"{"messages":[{"role":"robot"}]}"#)) { error in
                guard case .invalidJson? = error as? RespondError else { return XCTFail("\(error)") }
            }
            let id = arguments["id"] ?? "?"
            try h.server.respondPrompt(handle: handle, result: Wire.GetPromptResult(
                description: "Review of note \(id)",
                messages: [
                    Wire.PromptMessage(role: "user", content: .text("Please review note \(id).")),
                    Wire.PromptMessage(role: "user", content: .resource(Wire.ResourceContents(uri: "notes://acme/\(id)", text: "body"))),
                ]))
        }
        let call = h.client.getPrompt(name: "review", arguments: ["id": "7"], nowMs: h.nowMs)
        try h.pump()
        let reply = try XCTUnwrap(h.take().compactMap { e -> Reply? in
            if case .promptFetched(let c, let r) = e, c == call { return r }
            return nil
        }.first)
        let result = try reply.decode(Wire.GetPromptResult.self)
        XCTAssertEqual(result.description, "Review of note 7")
        XCTAssertEqual(result.messages.map(\.content.type), ["text", "resource"])
        XCTAssertEqual(result.messages[1].content.resource?.text, "body")
    }

    func testInputRequiredRoundTripWithSealedState() throws {
        let h = try harness(capabilities: #"{"elicitation":{}}"#)
        var rounds = 0
        h.onServerEvent = { event in
            guard case .readResource(let handle, let uri, _, _, let capabilities, let retry) = event else {
                return XCTFail("\(event)")
            }
            rounds += 1
            guard let retry else {
                XCTAssertTrue(capabilities.elicitationForm)
                try h.server.respondInputRequired(
                    handle: handle,
                    inputRequestsJson: #"{"confirm":{"method":"elicitation/create","params":{"mode":"form","message":"Open it?","requestedSchema":{"type":"object","properties":{}}}}}"#,
                    state: Data("step-1".utf8))
                return
            }
            XCTAssertEqual(retry.state, Data("step-1".utf8))
            let response = try XCTUnwrap(retry.inputResponses["confirm"])
            XCTAssertEqual(try object(response)["action"] as? String, "accept")
            try h.server.respondRead(handle: handle, encoding: [Wire.ResourceContents(uri: uri, data: Data([1, 2, 3]))])
        }
        let call = h.client.readResource(uri: "notes://acme/9", policy: .refresh, nowMs: h.nowMs)
        try h.pump()
        let requests = try XCTUnwrap(h.take().compactMap { e -> [String: InputRequest]? in
            if case .inputRequired(let c, let round, let requests) = e, c == call {
                XCTAssertEqual(round, 1)
                return requests
            }
            return nil
        }.first)
        XCTAssertEqual(requests["confirm"]?.method, "elicitation/create")
        XCTAssertThrowsError(try h.client.respondInput(call: call, responses: ["other": "{}"], nowMs: h.nowMs)) { error in
            XCTAssertEqual(error as? ClientError, .unexpectedInputResponse)
        }
        try h.client.respondInput(call: call, responses: ["confirm": #"{"action":"accept","content":{}}"#], nowMs: h.nowMs)
        try h.pump()
        let reply = try XCTUnwrap(h.take().compactMap { e -> Reply? in
            if case .resourceRead(let c, let r) = e, c == call { return r }
            return nil
        }.first)
        XCTAssertEqual(try reply.decode(Wire.ReadResourceResult.self).contents.first?.data, Data([1, 2, 3]))
        XCTAssertEqual(rounds, 2)
        XCTAssertNil(h.client.readCached(uri: "notes://acme/9", nowMs: h.nowMs), "a retried result is never cached")
    }

    func testInputRequiredNeedsTheDeclaredCapability() throws {
        let h = try harness()  // no elicitation declared
        h.onServerEvent = { event in
            guard case .readResource(let handle, _, _, _, _, _) = event else { return }
            XCTAssertThrowsError(try h.server.respondInputRequired(
                handle: handle,
                inputRequestsJson: #"{"confirm":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}}"#,
                state: nil)) { error in
                XCTAssertEqual(error as? RespondError, .clientLacksCapability)
            }
        }
        let call = h.client.readResource(uri: "notes://acme/9", policy: .refresh, nowMs: h.nowMs)
        try h.pump()
        XCTAssertTrue(h.take().contains { e in
            if case .failed(let c, .server(.missingRequiredClientCapability(let required))) = e, c == call {
                return required.contains("elicitation")
            }
            return false
        })
    }

    func testFailureMessagesReachTheClient() throws {
        let h = try harness()
        h.onServerEvent = { event in
            switch event {
            case .readResource(let handle, _, _, _, _, _):
                try h.server.fail(handle: handle, failure: .application(code: 4001, message: "quota exceeded"))
            case .getPrompt(let handle, _, _, _, _, _):
                try h.server.fail(handle: handle, failure: .invalidParams(message: "Note 8 is archived"))
            default:
                XCTFail("\(event)")
            }
        }
        let read = h.client.readResource(uri: "notes://acme/8", policy: .refresh, nowMs: h.nowMs)
        let prompt = h.client.getPrompt(name: "review", arguments: ["id": "8"], nowMs: h.nowMs)
        try h.pump()
        var seen = 0
        for event in h.take() {
            switch event {
            case .failed(let c, .server(.other(let code, let message, _))) where c == read:
                XCTAssertEqual(code, 4001)
                XCTAssertEqual(message, "quota exceeded")
                seen += 1
            case .failed(let c, .server(.invalidParams(let message))) where c == prompt:
                XCTAssertEqual(message, "Note 8 is archived")
                seen += 1
            case .connected:
                break
            default:
                XCTFail("\(event)")
            }
        }
        XCTAssertEqual(seen, 2)
    }
}
