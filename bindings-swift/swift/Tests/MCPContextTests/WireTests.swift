import Foundation
import XCTest

import MCPContext

/// Every `Wire` type round-trips the official examples of its schema type
/// (tests/vectors/mcp/2026-07-28/examples/<Type>/*.json): decode, encode, same JSON.
final class WireTests: XCTestCase {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tests/vectors/mcp/2026-07-28/examples")

    /// Round-trips every example of `schemaType` through `T`; returns how many.
    func roundTrip<T: Codable>(_ schemaType: String, _ type: T.Type, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let dir = Self.examples.appendingPathComponent(schemaType)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertFalse(files.isEmpty, "no examples of \(schemaType)", file: file, line: line)
        for name in files {
            let data = try Data(contentsOf: dir.appendingPathComponent(name))
            let value = try JSONDecoder().decode(T.self, from: data)
            let encoded = try JSONEncoder().encode(value)
            let original = try JSONSerialization.jsonObject(with: data) as? NSDictionary
            let again = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
            XCTAssertNotNil(original, name, file: file, line: line)
            XCTAssertEqual(original, again, "\(schemaType)/\(name): \(String(decoding: encoded, as: UTF8.self))", file: file, line: line)
        }
        return files.count
    }

    func testOfficialExamplesRoundTrip() throws {
        var n = 0
        n += try roundTrip("Resource", Wire.Resource.self)
        n += try roundTrip("TextResourceContents", Wire.ResourceContents.self)
        n += try roundTrip("BlobResourceContents", Wire.ResourceContents.self)
        n += try roundTrip("ReadResourceResult", Wire.ReadResourceResult.self)
        n += try roundTrip("ListResourcesResult", Wire.ListResourcesResult.self)
        n += try roundTrip("ListResourceTemplatesResult", Wire.ListResourceTemplatesResult.self)
        n += try roundTrip("TextContent", Wire.ContentBlock.self)
        n += try roundTrip("ImageContent", Wire.ContentBlock.self)
        n += try roundTrip("AudioContent", Wire.ContentBlock.self)
        n += try roundTrip("EmbeddedResource", Wire.ContentBlock.self)
        n += try roundTrip("ResourceLink", Wire.ContentBlock.self)
        n += try roundTrip("GetPromptResult", Wire.GetPromptResult.self)
        n += try roundTrip("ListPromptsResult", Wire.ListPromptsResult.self)
        n += try roundTrip("CompleteResult", Wire.CompleteResult.self)
        n += try roundTrip("Tool", Wire.Tool.self)
        n += try roundTrip("CallToolResult", Wire.CallToolResult.self)
        n += try roundTrip("ListToolsResult", Wire.ListToolsResult.self)
        n += try roundTrip("DiscoverResult", Wire.DiscoverResult.self)
        n += try roundTrip("InputRequiredResult", Wire.InputRequiredResult.self)
        XCTAssertEqual(n, 29, "examples round-tripped")
    }

    func testContentBlockConstructors() throws {
        let image = Wire.ContentBlock.image(Data([1, 2, 3]), mimeType: "image/png")
        XCTAssertEqual(try wireJSON(image), #"{"data":"AQID","mimeType":"image/png","type":"image"}"#)
        let link = Wire.ContentBlock.resourceLink(uri: "file:///a", name: "a")
        XCTAssertEqual(try wireJSON(link), #"{"name":"a","type":"resource_link","uri":"file:///a"}"#)
    }
}
