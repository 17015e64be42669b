// Codable conveniences over the generated API: replies decode into wire-shaped structs, and
// the JSON-text inputs accept `Encodable` values. Conversion only: the Rust core validates
// every JSON text it is given against the spec's schema (throwing `.InvalidJson`).
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

/// Wire shapes (camelCase, as the spec's schema) of the results and items a host handles
/// most, for `Reply.decode` and the `Encodable` inputs. Optional members are omitted when nil.
public enum Wire {
    /// `Annotations` (DIGEST §14.3).
    public struct Annotations: Codable, Equatable, Sendable {
        public var audience: [String]?
        public var priority: Double?
        public var lastModified: String?
        public init(audience: [String]? = nil, priority: Double? = nil, lastModified: String? = nil) {
            self.audience = audience
            self.priority = priority
            self.lastModified = lastModified
        }
    }

    /// `Resource` (DIGEST §5).
    public struct Resource: Codable, Equatable, Sendable {
        public var uri: String
        public var name: String
        public var title: String?
        public var description: String?
        public var mimeType: String?
        public var size: UInt64?
        public var annotations: Annotations?
        public init(uri: String, name: String, title: String? = nil, description: String? = nil,
                    mimeType: String? = nil, size: UInt64? = nil, annotations: Annotations? = nil) {
            self.uri = uri
            self.name = name
            self.title = title
            self.description = description
            self.mimeType = mimeType
            self.size = size
            self.annotations = annotations
        }
    }

    /// `ResourceTemplate` (DIGEST §6).
    public struct ResourceTemplate: Codable, Equatable, Sendable {
        public var uriTemplate: String
        public var name: String
        public var title: String?
        public var description: String?
        public var mimeType: String?
        public init(uriTemplate: String, name: String, title: String? = nil, description: String? = nil,
                    mimeType: String? = nil) {
            self.uriTemplate = uriTemplate
            self.name = name
            self.title = title
            self.description = description
            self.mimeType = mimeType
        }
    }

    /// `TextResourceContents` or `BlobResourceContents` (DIGEST §7).
    public struct ResourceContents: Codable, Equatable, Sendable {
        public var uri: String
        public var mimeType: String?
        public var text: String?
        /// Base64, as on the wire; `data` decodes it.
        public var blob: String?
        public init(uri: String, mimeType: String? = nil, text: String) {
            self.uri = uri
            self.mimeType = mimeType
            self.text = text
        }
        public init(uri: String, mimeType: String? = nil, data: Data) {
            self.uri = uri
            self.mimeType = mimeType
            self.blob = data.base64EncodedString()
        }
        /// The bytes of blob contents.
        public var data: Data? { blob.flatMap { Data(base64Encoded: $0) } }
    }

    /// A `resources/read` result.
    public struct ReadResourceResult: Codable, Equatable, Sendable {
        public var contents: [ResourceContents]
        public var ttlMs: Int64?
        public var cacheScope: String?
    }

    /// A `resources/list` page.
    public struct ListResourcesResult: Codable, Equatable, Sendable {
        public var resources: [Resource]
        public var nextCursor: String?
    }

    /// A `resources/templates/list` page.
    public struct ListResourceTemplatesResult: Codable, Equatable, Sendable {
        public var resourceTemplates: [ResourceTemplate]
        public var nextCursor: String?
    }

    /// A content block of a prompt message: text, or an embedded resource.
    public struct ContentBlock: Codable, Equatable, Sendable {
        public var type: String
        public var text: String?
        public var resource: ResourceContents?
        public init(type: String, text: String? = nil, resource: ResourceContents? = nil) {
            self.type = type
            self.text = text
            self.resource = resource
        }
        /// `{"type":"text","text":…}`
        public static func text(_ text: String) -> ContentBlock {
            ContentBlock(type: "text", text: text, resource: nil)
        }
        /// `{"type":"resource","resource":…}`
        public static func resource(_ contents: ResourceContents) -> ContentBlock {
            ContentBlock(type: "resource", text: nil, resource: contents)
        }
    }

    /// `PromptMessage` (DIGEST §9).
    public struct PromptMessage: Codable, Equatable, Sendable {
        public var role: String
        public var content: ContentBlock
        public init(role: String, content: ContentBlock) {
            self.role = role
            self.content = content
        }
    }

    /// A `prompts/get` result.
    public struct GetPromptResult: Codable, Equatable, Sendable {
        public var description: String?
        public var messages: [PromptMessage]
        public init(description: String? = nil, messages: [PromptMessage]) {
            self.description = description
            self.messages = messages
        }
    }

    /// A `completion/complete` result.
    public struct CompleteResult: Codable, Equatable, Sendable {
        public struct Completion: Codable, Equatable, Sendable {
            public var values: [String]
            public var total: Int?
            public var hasMore: Bool?
        }
        public var completion: Completion
    }
}
