// Codable conveniences over the generated API: replies decode into wire-shaped structs, and
// the JSON-text inputs accept `Encodable` values. Conversion only: the Rust core validates
// every JSON text it is given against the spec's schema (throwing `.invalidJson`).
import Foundation

extension Reply {
    /// Decodes the result JSON, e.g. `try reply.decode(Wire.ReadResourceResult.self)`.
    public func decode<T: Decodable>(_ type: T.Type = T.self, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(T.self, from: Data(json.utf8))
    }
}

/// JSON text of an `Encodable` value (what the `…Json` methods take).
public func wireJSON<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

extension ServerMachine {
    /// Answers a `getPrompt` event with an `Encodable` `GetPromptResult` (e.g. `Wire.GetPromptResult`).
    public func respondPrompt<T: Encodable>(handle: UInt64, result: T) throws {
        try respondPrompt(handle: handle, resultJson: wireJSON(result))
    }

    /// Answers a read with `Encodable` contents (e.g. `[Wire.ResourceContents]`).
    public func respondRead<T: Encodable>(handle: UInt64, encoding contents: T) throws {
        try respondReadJson(handle: handle, contentsJson: wireJSON(contents))
    }

    /// Registers an `Encodable` resource (e.g. `Wire.Resource` with annotations).
    public func addResource<T: Encodable>(encoding resource: T, contents: [Wire.ResourceContents]? = nil) throws {
        try addResourceJson(resourceJson: wireJSON(resource), contentsJson: contents.map(wireJSON), cacheJson: nil)
    }

    /// Registers an `Encodable` template (e.g. `Wire.ResourceTemplate`); returns its id.
    public func addTemplate<T: Encodable>(encoding template: T, completions: [String: [String]] = [:]) throws -> UInt32 {
        try addTemplateJson(templateJson: wireJSON(template), cacheJson: nil, completions: completions)
    }
}
