import Foundation
import XCTest

import MCPContext

final class TemplateTests: XCTestCase {
    func testQuickstart() throws {
        let t = try URITemplate(source: "repo://{owner}/{repo}/issues/{number}")
        XCTAssertEqual(
            try t.expand(vars: ["owner": "acme", "repo": "web app", "number": "812"]),
            "repo://acme/web%20app/issues/812")
        XCTAssertEqual(t.source(), "repo://{owner}/{repo}/issues/{number}")
        XCTAssertEqual(t.description, t.source())
    }

    /// The README's Swift example, verbatim.
    func testReadmeExample() throws {
        let t = try URITemplate(source: "repo://{owner}/{repo}/issues{?labels}")
        let uri = try t.expand(vars: ["owner": "acme", "repo": "web app", "labels": ["bug", "p1"]])
        XCTAssertEqual(uri, "repo://acme/web%20app/issues?labels=bug,p1")
        do {
            _ = try URITemplate(source: "files://{path")
            XCTFail("parsed an unclosed expression")
        } catch let TemplateError.parse(kind, byteOffset) {
            XCTAssertEqual(kind, .unclosedExpression)
            XCTAssertEqual(byteOffset, 8)
        }
        XCTAssertEqual(ErrorCode.methodNotFound.httpStatus(), 404)
    }

    func testListsAndDictionaryLiteralsKeepTheirOrder() throws {
        let t = try URITemplate(source: "/search{?q,tags,keys*}")
        let vars: [String: TemplateValue] = [
            "q": "café", "tags": ["a", "b"], "keys": ["semi": ";", "dot": "."],
        ]
        XCTAssertEqual(try t.expand(vars: vars), "/search?q=caf%C3%A9&tags=a,b&semi=%3B&dot=.")
        // A missing name, an empty list and an empty dictionary are undefined (RFC 6570 §2.3).
        XCTAssertEqual(try t.expand(vars: ["tags": [], "keys": [:]]), "/search")
    }

    func testSwiftDictionaryIsSortedByKey() throws {
        let t = try URITemplate(source: "{?m*}")
        let m = TemplateValue(["z": "1", "a": "2", "k": "3"])
        XCTAssertEqual(m, .dict([
            TemplatePair(key: "a", value: "2"), TemplatePair(key: "k", value: "3"),
            TemplatePair(key: "z", value: "1"),
        ]))
        XCTAssertEqual(try t.expand(vars: ["m": m]), "?a=2&k=3&z=1")
    }

    func testParseErrorCarriesKindAndByteOffset() {
        let cases: [(String, TemplateParseErrorKind, UInt64)] = [
            ("a{b", .unclosedExpression, 1),
            ("x}", .unexpectedBrace, 1),
            ("ab{}", .emptyExpression, 3),
            ("{=a}", .reservedOperator, 1),
            ("{var:0}", .invalidPrefix, 5),
            ("a b", .invalidLiteral, 1),
            ("%zz", .invalidPercentEncoding, 0),
        ]
        for (source, kind, offset) in cases {
            XCTAssertThrowsError(try URITemplate(source: source), source) { error in
                XCTAssertEqual(error as? TemplateError, .parse(kind: kind, byteOffset: offset), source)
            }
        }
        do {
            _ = try URITemplate(source: "a{b")
            XCTFail("parsed an unclosed expression")
        } catch let error as TemplateError {
            // The wording is the core's Display, through the FFI.
            XCTAssertEqual(error.description, "invalid URI template: unclosed expression at byte 1")
            XCTAssertEqual(error.localizedDescription, error.description)
        } catch {
            XCTFail("unexpected error \(error)")
        }
    }

    func testPrefixOnACompositeValueThrows() throws {
        let t = try URITemplate(source: "ab{x:2}")
        XCTAssertThrowsError(try t.expand(vars: ["x": ["y"]])) { error in
            XCTAssertEqual(error as? TemplateError, .prefixOnComposite(byteOffset: 3))
        }
        XCTAssertEqual(try t.expand(vars: ["x": "yes"]), "abye")
    }

    func testVariables() throws {
        let t = try URITemplate(source: "notes://{project}/{id:4}{?tags*}")
        XCTAssertEqual(t.variables(), [
            TemplateVariable(name: "project", modifier: nil, byteOffset: 9),
            TemplateVariable(name: "id", modifier: .prefix(maxLength: 4), byteOffset: 19),
            TemplateVariable(name: "tags", modifier: .explode, byteOffset: 26),
        ])
    }

    func testTemplatesAreValuesAndSendable() throws {
        let a = try URITemplate(source: "{x}")
        let b = try URITemplate(source: "{x}")
        XCTAssertEqual(a, b)
        XCTAssertEqual(Set([a, b, try URITemplate(source: "{y}")]).count, 2)
        func requireSendable<T: Sendable>(_: T) {}
        requireSendable(a)
    }

    /// The official RFC 6570 suite (tests/vectors/rfc6570), through Swift and the FFI.
    /// Foundation's JSON objects have no order, so dictionaries are sorted by key; the suite
    /// lists every order where it allows several.
    func testRFC6570Suite() throws {
        let dir = ProcessInfo.processInfo.environment["RFC6570_VECTORS"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("tests/vectors/rfc6570")
        var passed = 0
        var total = 0
        for file in ["spec-examples.json", "spec-examples-by-section.json", "extended-tests.json",
                     "negative-tests.json"] {
            let data = try Data(contentsOf: dir.appendingPathComponent(file))
            let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            for (group, body) in doc {
                let body = try XCTUnwrap(body as? [String: Any])
                let vars = try XCTUnwrap(body["variables"] as? [String: Any]).compactMapValues(value)
                for case let testcase as [Any] in try XCTUnwrap(body["testcases"] as? [Any]) {
                    total += 1
                    let template = try XCTUnwrap(testcase.first as? String)
                    let got = try? URITemplate(source: template).expand(vars: vars)
                    let ok: Bool
                    if let expected = testcase.last as? String {
                        ok = got == expected
                    } else if let alternatives = testcase.last as? [String] {
                        ok = got.map(alternatives.contains) ?? false
                    } else {
                        ok = got == nil  // `false`: must fail to parse or to expand
                    }
                    if ok { passed += 1 } else { XCTFail("[\(file) / \(group)] \(template): got \(got ?? "an error")") }
                }
            }
        }
        XCTAssertEqual(total, 270)
        XCTAssertEqual(passed, total)
    }
}

/// A JSON variable as a template value; numbers expand as their JSON spelling, null is undefined.
private func value(_ json: Any) -> TemplateValue? {
    switch json {
    case let s as String: return .string(s)
    case let list as [Any]: return .list(list.map(scalar))
    case let dict as [String: Any]: return TemplateValue(dict.mapValues(scalar))
    case is NSNull: return nil
    default: return .string(scalar(json))
    }
}

private func scalar(_ json: Any) -> String {
    switch json {
    case let s as String: return s
    case let i as Int: return String(i)
    case let d as Double: return String(d)
    default: return "\(json)"
    }
}
