import XCTest

import MCPContext

/// The shared table test (issue 13 item 6): every Swift case is spelled as lowerCamelCase of
/// the core's identifier (`coreIdentifiers(table:)`), in the core's order. A variant added to
/// the core makes the core's table longer and this test fail until the binding knows it.
final class IdentifierTests: XCTestCase {
    /// `stream_closed` → `streamClosed`.
    static func lowerCamel(_ ident: String) -> String {
        let words = ident.split(separator: "_")
        guard let first = words.first else { return "" }
        return String(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A case's name: `streamClosed`, or `template` of `template(id: 0, …)`.
    static func caseName<T>(_ value: T) -> String {
        // `reflecting`: error enums describe themselves with the core's wording.
        let text = String(reflecting: value).prefix { $0 != "(" }
        return String(text.split(separator: ".").last ?? text)
    }

    func assertSame<T>(_ table: String, _ cases: [T], file: StaticString = #filePath, line: UInt = #line) {
        let core = coreIdentifiers(table: table).map(Self.lowerCamel)
        XCTAssertFalse(core.isEmpty, "no core table \(table)", file: file, line: line)
        let hasOther = core.contains("other")
        let swift = cases.map(Self.caseName).filter { hasOther || $0 != "other" }
        XCTAssertEqual(swift, core, table, file: file, line: line)
    }

    func assertCovered(_ table: String, _ names: [String], file: StaticString = #filePath, line: UInt = #line) {
        let swift = Set(names)
        for id in coreIdentifiers(table: table).map(Self.lowerCamel) {
            XCTAssertTrue(swift.contains(id), "\(table): no case .\(id)", file: file, line: line)
        }
    }

    func testTablesExist() {
        let tables = coreIdentifierTables()
        XCTAssertTrue(tables.contains("server::Event"))
        XCTAssertTrue(tables.contains("client::Event"))
        XCTAssertEqual(coreIdentifiers(table: "no::Such"), [])
        XCTAssertEqual(Self.lowerCamel("stream_closed"), "streamClosed")
    }

    func testFlatEnums() {
        assertSame("server::CancelReason", [CancelReason.client, .streamClosed, .timedOut, .other])
        assertSame("server::Received", [Received.request, .notification, .response, .invalid])
        assertSame("server::BodyKind", [BodyKind.json, .sse])
        assertSame("server::Transport", [ServerTransport.stdio, .http])
        assertSame("client::Transport", [ClientTransport.stdio, .http])
        // Error enums describe themselves with the core's wording, not their case names: each
        // Swift case is listed with the name it is spelled with.
        let config: [ServerConfigError: String] = [
            .noSupportedVersion: "noSupportedVersion", .zeroCapacity: "zeroCapacity", .stateKeyTooShort: "stateKeyTooShort",
            .invalidProtection: "invalidProtection",
        ]
        XCTAssertEqual(Set(config.values), Set(coreIdentifiers(table: "server::ConfigError").map(Self.lowerCamel)))
        assertSame("client::CachePolicy", [CachePolicy.preferCache, .refresh])
        assertSame("client::Era", [Era.modern, .legacy])
        assertSame("cache::ListKind", [ListKind.resources, .resourceTemplates, .prompts, .tools])
        assertSame("context::Role", [Role.user, .assistant])
        assertSame("client::PeerError", [
            PeerErrorKind.malformed, .invalidNotification, .unexpectedRequest, .unknownSubscription,
            .notificationBeforeAck, .unrequestedNotification, .subscriptionIdMismatch, .ackExceedsRequest,
            .invalidCancellation, .errorWithoutId, .other,
        ])
        assertSame("template::ParseErrorKind", [
            TemplateParseErrorKind.unclosedExpression, .unexpectedBrace, .emptyExpression, .reservedOperator,
            .invalidVarName, .emptyVarName, .invalidPrefix, .invalidModifier, .invalidLiteral,
            .invalidPercentEncoding, .capacityExceeded, .tooLong, .other,
        ])
        let client: [ClientError: String] = [
            .unknownCall: "unknownCall", .notAwaitingInput: "notAwaitingInput", .missingInputResponse: "missingInputResponse",
            .unexpectedInputResponse: "unexpectedInputResponse", .inputResponseNotObject: "inputResponseNotObject",
            .encode: "encode", .ownedMethod: "ownedMethod", .invalidMethodName: "invalidMethodName", .paramsNotObject: "paramsNotObject",
            .rejectedTool: "rejectedTool", .noVersions: "noVersions", .emptyVersion: "emptyVersion",
            .invalidCapabilities: "invalidCapabilities", .zeroLimit: "zeroLimit",
        ]
        assertCovered("client::ClientError", Array(client.values))
        assertCovered("client::ConfigError", Array(client.values))
        let cache: [CacheError: String] = [
            .notCacheable: "notCacheable", .missingUri: "missingUri", .retry: "retry",
            .immediatelyStale: "immediatelyStale", .tooLarge: "tooLarge",
        ]
        assertCovered("cache::KeyError", Array(cache.values))
        assertCovered("cache::Refused", Array(cache.values))
        let respond: [RespondError: String] = [
            .unknownHandle: "unknownHandle", .wrongKind: "wrongKind", .invalidInputRequests: "invalidInputRequests",
            .noStateKey: "noStateKey", .clientLacksCapability: "clientLacksCapability", .invalidResult: "invalidResult", .invalidProgress: "invalidProgress",
        ]
        assertCovered("server::RespondError", Array(respond.values))
    }

    func testEnumsWithPayloads() {
        assertSame("server::ReadTarget", [
            ReadTarget.resource, .template(id: 0, uriTemplate: "", variables: [:]), .unlisted,
        ])
        assertSame("server::CompletionTarget", [
            CompletionTarget.prompt(name: ""), .template(id: 0, uriTemplate: ""),
        ])
        assertSame("client::CompletionRef", [CompletionRef.prompt(name: ""), .resource(uriTemplate: "")])
        assertSame("client::ListMode", [ListPaging.page(cursor: nil), .all])
        assertSame("client::Notice", [
            Notice.resourceUpdated(uri: ""), .resourcesListChanged, .promptsListChanged, .toolsListChanged,
        ])
        assertSame("client::ConnectError", [
            ConnectError.noCommonVersion, .legacyDisabled, .rejected(code: 0), .timeout,
            .invalidResult(description: ""), .closed, .other(description: ""),
        ])
        assertSame("client::ServerError", [
            ServerError.resourceNotFound(uri: nil, message: ""),
            .unsupportedProtocolVersion(supported: [], requested: ""),
            .missingRequiredClientCapability(requiredJson: ""),
            .methodNotFound(message: ""), .invalidParams(message: ""), .internal(message: ""),
            .other(code: 0, message: "", dataJson: nil),
        ])
    }
}
