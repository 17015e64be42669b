// The two MCP transports for `MCPClient`: stdio to a spawned process, and Streamable HTTP over
// URLSession (JSON and SSE responses; on Linux through FoundationNetworking).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// stdio: spawns `command` and exchanges one JSON-RPC message per line on its stdin/stdout
/// (the MCP stdio transport). Its stderr is inherited.
public final class StdioTransport: MCPTransport, @unchecked Sendable {
    public let kind = ClientTransport.stdio
    private let process = Process()
    private let stdin = Pipe()
    private let stdout = Pipe()
    private let lock = NSLock()

    /// `command` (an executable path) with `arguments`, in `environment` when given.
    public init(command: String, arguments: [String] = [], environment: [String: String]? = nil) {
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = stdin
        process.standardOutput = stdout
    }

    public func start(
        receive: @escaping @Sendable (Data) -> Void, failed: @escaping @Sendable (Int64) -> Void,
        closed: @escaping @Sendable () -> Void
    ) throws {
        try process.run()
        let incoming = lines(of: stdout.fileHandleForReading)
        Task.detached {
            for await line in incoming { receive(line) }
            closed()
        }
    }

    public func send(_ bytes: Data, id: Int64?, headers: [HttpHeader]) {
        lock.lock()
        defer { lock.unlock() }
        try? stdin.fileHandleForWriting.write(contentsOf: bytes + Data("\n".utf8))
    }

    public func closeStream(id: Int64) {}

    public func close() {
        lock.lock()
        defer { lock.unlock() }
        try? stdin.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
    }

    /// The child's process id.
    public var processIdentifier: Int32 { process.processIdentifier }
}

/// Streamable HTTP: every message is a POST to `url`; the answer is a JSON body or an SSE
/// stream (`text/event-stream`), delivered message by message as it arrives.
public final class HTTPTransport: NSObject, MCPTransport, URLSessionDataDelegate, @unchecked Sendable {
    public let kind = ClientTransport.http
    private let url: URL
    private let headers: [String: String]
    private var session: URLSession!
    private let lock = NSLock()
    private var receive: (@Sendable (Data) -> Void)?
    private var failed: (@Sendable (Int64) -> Void)?
    private var streams: [Int: Stream] = [:]

    private final class Stream {
        let requestId: Int64?
        var sse = false
        var status = 0
        var buffer = Data()
        var delivered = false
        init(requestId: Int64?) { self.requestId = requestId }
    }

    /// The server's MCP endpoint; `headers` are added to every request (e.g. `Authorization`).
    public init(url: URL, headers: [String: String] = [:], configuration: URLSessionConfiguration = .default) {
        self.url = url
        self.headers = headers
        super.init()
        // Long-lived SSE responses (listens) must not time out between events.
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        configuration.timeoutIntervalForRequest = 3600
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    public func start(
        receive: @escaping @Sendable (Data) -> Void, failed: @escaping @Sendable (Int64) -> Void,
        closed: @escaping @Sendable () -> Void
    ) throws {
        lock.lock()
        defer { lock.unlock() }
        self.receive = receive
        self.failed = failed
    }

    public func send(_ bytes: Data, id: Int64?, headers: [HttpHeader]) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = bytes
        for header in headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        for (k, v) in self.headers { request.setValue(v, forHTTPHeaderField: k) }
        let task = session.dataTask(with: request)
        lock.lock()
        streams[task.taskIdentifier] = Stream(requestId: id)
        lock.unlock()
        task.resume()
    }

    public func closeStream(id: Int64) {
        session.getAllTasks { tasks in
            self.lock.lock()
            let ids = self.streams.filter { $0.value.requestId == id }.map(\.key)
            for key in ids { self.streams[key] = nil }
            self.lock.unlock()
            for task in tasks where ids.contains(task.taskIdentifier) { task.cancel() }
        }
    }

    public func close() {
        session.invalidateAndCancel()
    }

    // ---- URLSessionDataDelegate ----

    public func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let type = http?.value(forHTTPHeaderField: "Content-Type") ?? ""
        lock.lock()
        if let stream = streams[dataTask.taskIdentifier] {
            stream.status = http?.statusCode ?? 0
            stream.sse = type.lowercased().hasPrefix("text/event-stream")
        }
        lock.unlock()
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var messages: [Data] = []
        lock.lock()
        if let stream = streams[dataTask.taskIdentifier] {
            stream.buffer.append(data)
            if stream.sse { messages = Self.events(&stream.buffer) }
            if !messages.isEmpty { stream.delivered = true }
        }
        let receive = self.receive
        lock.unlock()
        for m in messages { receive?(m) }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let stream = streams.removeValue(forKey: task.taskIdentifier)
        let receive = self.receive, failed = self.failed
        lock.unlock()
        guard let stream else { return }
        var messages: [Data] = []
        if stream.sse {
            stream.buffer.append(Data("\n\n".utf8))
            messages = Self.events(&stream.buffer)
        } else if !stream.buffer.isEmpty, stream.buffer.first(where: { !$0.isWhitespace }) == UInt8(ascii: "{") {
            messages = [stream.buffer]
        }
        for m in messages { receive?(m) }
        if messages.isEmpty, !stream.delivered, let id = stream.requestId {
            failed?(id)
        }
    }

    /// Complete SSE events in `buffer` (removed from it): the joined `data:` lines of each.
    public static func events(_ buffer: inout Data) -> [Data] {
        var out: [Data] = []
        while true {
            guard let text = String(data: buffer, encoding: .utf8) else { return out }
            let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
            guard let end = normalized.range(of: "\n\n") else { return out }
            let block = normalized[normalized.startIndex..<end.lowerBound]
            let rest = normalized[end.upperBound...]
            buffer = Data(rest.utf8)
            let data = block.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { $0.hasPrefix("data:") }
                .map { line -> Substring in
                    let value = line.dropFirst(5)
                    return value.first == " " ? value.dropFirst() : value
                }
                .joined(separator: "\n")
            if !data.isEmpty { out.append(Data(data.utf8)) }
        }
    }
}

extension UInt8 {
    fileprivate var isWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
