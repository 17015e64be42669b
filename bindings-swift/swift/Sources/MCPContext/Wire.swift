// Wire shapes of MCP 2026-07-28 (camelCase, as the spec's schema) for every item and result the
// Swift API takes or returns: `Reply.decode(Wire.ReadResourceResult.self)`, the `Encodable`
// inputs, MCPServerHost's prompts and tools. Optional members are omitted when nil; members
// the schema leaves open (`_meta`, JSON Schemas, `structuredContent`, `params`) are `Wire.JSON`.
// Tests round-trip every official example of these types (tests/vectors/mcp/2026-07-28).
import Foundation

public enum Wire {
    /// Any JSON value.
    public enum JSON: Codable, Equatable, Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSON])
        case object([String: JSON])

        public init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let n = try? c.decode(Double.self) { self = .number(n) }
            else if let s = try? c.decode(String.self) { self = .string(s) }
            else if let a = try? c.decode([JSON].self) { self = .array(a) }
            else { self = .object(try c.decode([String: JSON].self)) }
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .null: try c.encodeNil()
            case .bool(let b): try c.encode(b)
            case .number(let n):
                // Integers stay integers (`3`, not `3.0`).
                if n.rounded() == n, abs(n) < 9.0e15 { try c.encode(Int64(n)) } else { try c.encode(n) }
            case .string(let s): try c.encode(s)
            case .array(let a): try c.encode(a)
            case .object(let o): try c.encode(o)
            }
        }

        /// Parses JSON text.
        public init(text: String) throws {
            self = try JSONDecoder().decode(JSON.self, from: Data(text.utf8))
        }

        /// The member `key` of an object.
        public subscript(key: String) -> JSON? {
            if case .object(let o) = self { return o[key] }
            return nil
        }

        /// The string, if this is one.
        public var stringValue: String? {
            if case .string(let s) = self { return s }
            return nil
        }
    }

    /// `Annotations`.
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

    /// `Icon`.
    public struct Icon: Codable, Equatable, Sendable {
        public var src: String
        public var mimeType: String?
        public var sizes: [String]?
        public var theme: String?
        public init(src: String, mimeType: String? = nil, sizes: [String]? = nil, theme: String? = nil) {
            self.src = src
            self.mimeType = mimeType
            self.sizes = sizes
            self.theme = theme
        }
    }

    /// `Resource`.
    public struct Resource: Codable, Equatable, Sendable {
        public var uri: String
        public var name: String
        public var title: String?
        public var description: String?
        public var mimeType: String?
        public var size: UInt64?
        public var annotations: Annotations?
        public var icons: [Icon]?
        public var _meta: JSON?
        public init(uri: String, name: String, title: String? = nil, description: String? = nil,
                    mimeType: String? = nil, size: UInt64? = nil, annotations: Annotations? = nil,
                    icons: [Icon]? = nil, _meta: JSON? = nil) {
            self.uri = uri
            self.name = name
            self.title = title
            self.description = description
            self.mimeType = mimeType
            self.size = size
            self.annotations = annotations
            self.icons = icons
            self._meta = _meta
        }
    }

    /// `ResourceTemplate`.
    public struct ResourceTemplate: Codable, Equatable, Sendable {
        public var uriTemplate: String
        public var name: String
        public var title: String?
        public var description: String?
        public var mimeType: String?
        public var annotations: Annotations?
        public var icons: [Icon]?
        public var _meta: JSON?
        public init(uriTemplate: String, name: String, title: String? = nil, description: String? = nil,
                    mimeType: String? = nil, annotations: Annotations? = nil, icons: [Icon]? = nil, _meta: JSON? = nil) {
            self.uriTemplate = uriTemplate
            self.name = name
            self.title = title
            self.description = description
            self.mimeType = mimeType
            self.annotations = annotations
            self.icons = icons
            self._meta = _meta
        }
    }

    /// `TextResourceContents` or `BlobResourceContents`.
    public struct ResourceContents: Codable, Equatable, Sendable {
        public var uri: String
        public var mimeType: String?
        public var text: String?
        /// Base64, as on the wire; `data` decodes it.
        public var blob: String?
        public var _meta: JSON?
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
        public var resultType: String?
        public var contents: [ResourceContents]
        public var ttlMs: Int64?
        public var cacheScope: String?
        public var _meta: JSON?
        public init(contents: [ResourceContents]) { self.contents = contents }
    }

    /// A `resources/list` page.
    public struct ListResourcesResult: Codable, Equatable, Sendable {
        public var resultType: String?
        public var resources: [Resource]
        public var nextCursor: String?
        public var ttlMs: Int64?
        public var cacheScope: String?
        public var _meta: JSON?
    }

    /// A `resources/templates/list` page.
    public struct ListResourceTemplatesResult: Codable, Equatable, Sendable {
        public var resultType: String?
        public var resourceTemplates: [ResourceTemplate]
        public var nextCursor: String?
        public var ttlMs: Int64?
        public var cacheScope: String?
        public var _meta: JSON?
    }

    /// A content block: `text`, `image`, `audio`, `resource` (embedded) or `resource_link`.
    public struct ContentBlock: Codable, Equatable, Sendable {
        public var type: String
        /// `text`
        public var text: String?
        /// `image` / `audio`: base64 data.
        public var data: String?
        /// `image` / `audio` / `resource_link`.
        public var mimeType: String?
        /// `resource`: the embedded contents.
        public var resource: ResourceContents?
        /// `resource_link`
        public var uri: String?
        public var name: String?
        public var title: String?
        public var description: String?
        public var size: UInt64?
        public var icons: [Icon]?
        public var annotations: Annotations?
        public var _meta: JSON?
        public init(type: String, text: String? = nil, resource: ResourceContents? = nil) {
            self.type = type
            self.text = text
            self.resource = resource
        }
        /// `{"type":"text","text":…}`
        public static func text(_ text: String) -> ContentBlock {
            ContentBlock(type: "text", text: text)
        }
        /// `{"type":"resource","resource":…}`
        public static func resource(_ contents: ResourceContents) -> ContentBlock {
            ContentBlock(type: "resource", resource: contents)
        }
        /// `{"type":"image","data":…,"mimeType":…}`
        public static func image(_ data: Data, mimeType: String) -> ContentBlock {
            var b = ContentBlock(type: "image")
            b.data = data.base64EncodedString()
            b.mimeType = mimeType
            return b
        }
        /// `{"type":"audio","data":…,"mimeType":…}`
        public static func audio(_ data: Data, mimeType: String) -> ContentBlock {
            var b = ContentBlock(type: "audio")
            b.data = data.base64EncodedString()
            b.mimeType = mimeType
            return b
        }
        /// `{"type":"resource_link","uri":…,"name":…}`
        public static func resourceLink(uri: String, name: String, mimeType: String? = nil, description: String? = nil) -> ContentBlock {
            var b = ContentBlock(type: "resource_link")
            b.uri = uri
            b.name = name
            b.mimeType = mimeType
            b.description = description
            return b
        }
    }

    /// `PromptMessage`.
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
        public var resultType: String?
        public var description: String?
        public var messages: [PromptMessage]
        public var _meta: JSON?
        public init(description: String? = nil, messages: [PromptMessage]) {
            self.description = description
            self.messages = messages
        }
    }

    /// `PromptArgument`.
    public struct PromptArgument: Codable, Equatable, Sendable {
        public var name: String
        public var title: String?
        public var description: String?
        public var required: Bool?
    }

    /// `Prompt`.
    public struct Prompt: Codable, Equatable, Sendable {
        public var name: String
        public var title: String?
        public var description: String?
        public var arguments: [PromptArgument]?
        public var icons: [Icon]?
        public var _meta: JSON?
    }

    /// A `prompts/list` page.
    public struct ListPromptsResult: Codable, Equatable, Sendable {
        public var resultType: String?
        public var prompts: [Prompt]
        public var nextCursor: String?
        public var ttlMs: Int64?
        public var cacheScope: String?
        public var _meta: JSON?
    }

    /// A `completion/complete` result.
    public struct CompleteResult: Codable, Equatable, Sendable {
        public struct Completion: Codable, Equatable, Sendable {
            public var values: [String]
            public var total: Int?
            public var hasMore: Bool?
        }
        public var resultType: String?
        public var completion: Completion
        public var _meta: JSON?
    }

    /// `Tool`.
    public struct Tool: Codable, Equatable, Sendable {
        public var name: String
        public var title: String?
        public var description: String?
        public var inputSchema: JSON
        public var outputSchema: JSON?
        public var annotations: JSON?
        public var icons: [Icon]?
        public var _meta: JSON?
        public init(name: String, title: String? = nil, description: String? = nil,
                    inputSchema: JSON = .object(["type": .string("object")]), outputSchema: JSON? = nil) {
            self.name = name
            self.title = title
            self.description = description
            self.inputSchema = inputSchema
            self.outputSchema = outputSchema
        }
    }

    /// A `tools/list` page.
    public struct ListToolsResult: Codable, Equatable, Sendable {
        public var resultType: String?
        public var tools: [Tool]
        public var nextCursor: String?
        public var ttlMs: Int64?
        public var cacheScope: String?
        public var _meta: JSON?
        public init(tools: [Tool]) { self.tools = tools }
    }

    /// A `tools/call` result.
    public struct CallToolResult: Codable, Equatable, Sendable {
        public var resultType: String?
        public var content: [ContentBlock]
        public var structuredContent: JSON?
        public var isError: Bool?
        public var _meta: JSON?
        public init(content: [ContentBlock], structuredContent: JSON? = nil, isError: Bool? = nil) {
            self.content = content
            self.structuredContent = structuredContent
            self.isError = isError
        }
    }

    /// A `server/discover` result.
    public struct DiscoverResult: Codable, Equatable, Sendable {
        public var resultType: String?
        public var supportedVersions: [String]
        public var capabilities: JSON
        public var instructions: String?
        public var ttlMs: Int64?
        public var cacheScope: String?
        public var _meta: JSON?
    }

    /// An `input_required` result.
    public struct InputRequiredResult: Codable, Equatable, Sendable {
        public var resultType: String
        public var inputRequests: [String: JSON]?
        public var requestState: String?
        public var _meta: JSON?
    }
}

extension Wire.JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: Wire.JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, Wire.JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}
