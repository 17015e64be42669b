// Hand-written Swift idioms over the generated MCPContext.swift. Conversions only: every
// behaviour lives in Rust. Keep this file small; anything uniffi can express belongs in Rust.

/// Swift spells acronyms in capitals (`URL`, `URLComponents`); uniffi names the class
/// `UriTemplate`.
public typealias URITemplate = UriTemplate

extension TemplateValue: ExpressibleByStringLiteral {
    /// `"acme"` is `.string("acme")`.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension TemplateValue: ExpressibleByArrayLiteral {
    /// `["a", "b"]` is `.list(["a", "b"])`.
    public init(arrayLiteral elements: String...) {
        self = .list(elements)
    }
}

extension TemplateValue: ExpressibleByDictionaryLiteral {
    /// `["semi": ";", "dot": "."]` is a `.dict` in the literal's order, which RFC 6570
    /// expansion keeps.
    public init(dictionaryLiteral elements: (String, String)...) {
        self = .dict(elements.map { TemplatePair(key: $0.0, value: $0.1) })
    }
}

extension TemplateValue {
    /// A `.dict` from a Swift `Dictionary`, which has no order: entries are sorted by key so
    /// the expansion is deterministic. Use a dictionary literal or `.dict([TemplatePair])`
    /// to choose the order.
    public init(_ dictionary: [String: String]) {
        self = .dict(dictionary.sorted { $0.key < $1.key }.map { TemplatePair(key: $0.key, value: $0.value) })
    }
}

/// `description` (the generated Rust `Display`) names the kind and the byte offset; this also
/// makes it the error's `localizedDescription`.
extension TemplateError: CustomStringConvertible {}

/// The codes MCP 2026-07-28 names (docs/rules.md §1.4). uniffi has no constants, so they are written
/// here; the tests check them against `knownErrorCodes()` from Rust.
extension ErrorCode {
    /// -32700: the bytes are not JSON.
    public static let parseError = ErrorCode(code: -32700)
    /// -32600: JSON, but not a valid JSON-RPC request.
    public static let invalidRequest = ErrorCode(code: -32600)
    /// -32601: unknown or ungated method. HTTP 404.
    public static let methodNotFound = ErrorCode(code: -32601)
    /// -32602: invalid params, including resource not found (with `data.uri`).
    public static let invalidParams = ErrorCode(code: -32602)
    /// -32603: internal error.
    public static let internalError = ErrorCode(code: -32603)
    /// -32020: Streamable HTTP headers missing, malformed or not matching the body. HTTP 400.
    public static let headerMismatch = ErrorCode(code: -32020)
    /// -32021: a client capability the request needs was not declared. HTTP 400.
    public static let missingRequiredClientCapability = ErrorCode(code: -32021)
    /// -32022: the requested protocol version is not supported. HTTP 400.
    public static let unsupportedProtocolVersion = ErrorCode(code: -32022)
    /// -32002: legacy "resource not found"; accept it, never send it.
    public static let legacyResourceNotFound = ErrorCode(code: -32002)

    /// Every constant above, in the order of `knownErrorCodes()`.
    public static let allNamed: [ErrorCode] = [
        .parseError, .invalidRequest, .methodNotFound, .invalidParams, .internalError,
        .headerMismatch, .missingRequiredClientCapability, .unsupportedProtocolVersion,
        .legacyResourceNotFound,
    ]
}

// Every thrown error renders with the core's wording (the generated Rust `Display`).
extension RouterError: CustomStringConvertible {}
extension CacheError: CustomStringConvertible {}
extension ClientError: CustomStringConvertible {}
extension ServerConfigError: CustomStringConvertible {}
extension RegisterError: CustomStringConvertible {}
extension RespondError: CustomStringConvertible {}

/// A failed call (delivered in `ClientEvent.failed`) can be thrown as it is.
extension CallError: Error {}
