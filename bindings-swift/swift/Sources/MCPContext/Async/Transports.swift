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
/// stream (`text/event-stream`, parsed by the core's `SseDecoder`), delivered message by
/// message as it arrives. Each response head goes to the machine first
/// (`observeResponses`): a 2025-11-25 session is the machine's, its id comes back in the
/// headers of every later message, and `endSession` sends the `DELETE` that ends it.
public final class HTTPTransport: NSObject, MCPTransport, URLSessionDataDelegate, @unchecked Sendable {
    public let kind = ClientTransport.http
    private let url: URL
    private let headers: [String: String]
    private var session: URLSession!
    private let lock = NSLock()
    private var receive: (@Sendable (Data) -> Void)?
    private var failed: (@Sendable (Int64) -> Void)?
    private var responded: (@Sendable (Int64?, UInt16, String?) -> Void)?
    private var granted: (@Sendable (Int64?, UInt64?) -> Void)?
    private var streams: [Int: Stream] = [:]
    private let oauth: OAuthSession?

    private final class Stream {
        let requestId: Int64?
        var sse: SseDecoder?
        var status = 0
        var buffer = Data()
        var delivered = false
        var broken = false
        // With OAuth: the request (to send again after a challenge), its attempt, the
        // `Authorization` it carried, and the challenge it met (status, `WWW-Authenticate`).
        var request: URLRequest?
        var attempt = 0
        var sentAuth: String?
        var grant: UInt64?
        var challenge: (Int, String?)?
        init(requestId: Int64?) { self.requestId = requestId }
    }

    /// The server's MCP endpoint; `headers` are added to every request (e.g. `Authorization`).
    /// With `oauth`, a 401 (or 403 `insufficient_scope`) runs its flow and the message is sent
    /// again with the new token (OAuth.swift).
    public init(
        url: URL, headers: [String: String] = [:], configuration: URLSessionConfiguration = .default,
        oauth: OAuthSession? = nil
    ) {
        self.url = url
        self.headers = headers
        self.oauth = oauth
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
        guard let oauth else { return post(request, id: id, attempt: 0, auth: nil, grant: nil) }
        let (url, ready) = (self.url, request)
        Task {
            let (auth, grant) = await oauth.credentials(for: url)
            self.post(ready, id: id, attempt: 0, auth: auth, grant: grant)
        }
    }

    private func post(_ request: URLRequest, id: Int64?, attempt: Int, auth: String?, grant: UInt64?) {
        var request = request
        if let auth { request.setValue(auth, forHTTPHeaderField: "Authorization") }
        let task = session.dataTask(with: request)
        let stream = Stream(requestId: id)
        if oauth != nil {
            stream.request = request
            stream.attempt = attempt
            stream.sentAuth = auth
            stream.grant = auth == nil ? nil : grant
        }
        lock.lock()
        streams[task.taskIdentifier] = stream
        lock.unlock()
        task.resume()
    }

    public func observeResponses(_ responded: @escaping @Sendable (Int64?, UInt16, String?) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        self.responded = responded
    }

    public func observeGrants(_ granted: @escaping @Sendable (Int64?, UInt64?) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        self.granted = granted
    }

    public func endSession(headers: [HttpHeader]) {
        var request = URLRequest(url: url)
        request.httpMethod = "DELETE"
        for header in headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        for (k, v) in self.headers { request.setValue(v, forHTTPHeaderField: k) }
        // Best effort, answered or not (a 405 only means the server keeps sessions until
        // they expire); sent before `close` invalidates the session.
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { _, _, _ in done.signal() }.resume()
        _ = done.wait(timeout: .now() + 2)
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
        let sessionId = http?.value(forHTTPHeaderField: "Mcp-Session-Id")
        let status = http?.statusCode ?? 0
        lock.lock()
        let stream = streams[dataTask.taskIdentifier]
        if let oauth, let stream {
            if status == 401 || status == 403, stream.attempt < 3 {
                // Not the machine's: the flow runs when the task ends, then the message goes again.
                stream.challenge = (status, http?.value(forHTTPHeaderField: "WWW-Authenticate"))
                lock.unlock()
                return completionHandler(.cancel)
            }
            if (200..<300).contains(status) { Task { await oauth.succeeded() } }
        }
        if let stream {
            stream.status = status
            if type.lowercased().hasPrefix("text/event-stream") {
                stream.sse = SseDecoder(maxEvent: sseDefaultMaxEvent())
            }
        }
        let responded = self.responded
        let granted = oauth == nil ? nil : self.granted
        lock.unlock()
        if let stream {
            // With OAuth: the grant whose token got this answer first (docs/rules.md §21.7).
            granted?(stream.requestId, stream.grant)
            responded?(stream.requestId, UInt16(clamping: status), sessionId)
        }
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var messages: [Data] = []
        var broken = false
        lock.lock()
        if let stream = streams[dataTask.taskIdentifier] {
            if let sse = stream.sse {
                do {
                    messages = try sse.feed(chunk: data).map(\.data)
                } catch {
                    // An event over the bound: the stream is given up.
                    stream.broken = true
                    broken = true
                }
            } else {
                stream.buffer.append(data)
            }
            if !messages.isEmpty { stream.delivered = true }
        }
        let receive = self.receive
        lock.unlock()
        for m in messages { receive?(m) }
        if broken { dataTask.cancel() }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let stream = streams.removeValue(forKey: task.taskIdentifier)
        let receive = self.receive, failed = self.failed
        lock.unlock()
        guard let stream else { return }
        if let (status, www) = stream.challenge, let oauth, let request = stream.request {
            let (url, sent, id, attempt) = (self.url, stream.sentAuth, stream.requestId, stream.attempt)
            Task {
                do {
                    try await oauth.challenge(url: url, status: status, wwwAuthenticate: www, sent: sent)
                    let (auth, grant) = await oauth.credentials(for: url)
                    self.post(request, id: id, attempt: attempt + 1, auth: auth, grant: grant)
                } catch {
                    if let id { failed?(id) }
                }
            }
            return
        }
        var messages: [Data] = []
        if stream.sse == nil, !stream.buffer.isEmpty, stream.buffer.first(where: { !$0.isWhitespace }) == UInt8(ascii: "{") {
            messages = [stream.buffer]
        }
        for m in messages { receive?(m) }
        // No answer, a broken stream, or an error status whose body did not answer the
        // request (an error without id): failed (a no-op once the body answered it).
        let ok = (200..<300).contains(stream.status)
        let answered = !messages.isEmpty || stream.delivered
        if let id = stream.requestId, stream.broken || !answered || !ok {
            failed?(id)
        }
    }
}

extension UInt8 {
    fileprivate var isWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
