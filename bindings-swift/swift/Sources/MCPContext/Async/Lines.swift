// Newline-delimited JSON-RPC (MCP stdio transport) as Swift concurrency: a file handle's lines
// as an `AsyncStream`, and the monotonic clock the machines run on.
import Foundation

/// Milliseconds on a monotonic clock: the machines' only notion of time.
public func monotonicMs() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds / 1_000_000
}

/// The lines of `handle` (without their newlines; empty lines skipped), read on a dedicated
/// thread so no cooperative-pool thread blocks in `read(2)`. The stream ends at end of file.
public func lines(of handle: FileHandle) -> AsyncStream<Data> {
    AsyncStream { continuation in
        let thread = Thread {
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Data(buffer[buffer.startIndex..<newline])
                    buffer.removeSubrange(buffer.startIndex...newline)
                    if !line.isEmpty { continuation.yield(line) }
                }
            }
            if !buffer.isEmpty { continuation.yield(buffer) }
            continuation.finish()
        }
        thread.start()
    }
}

/// The lines a server reads from `handle`, through the core's stdio line policy
/// (`StdioLines`): each line of at most `maxLine` bytes (`ServerMachine.maxLine()`) as
/// `.message`, a longer one once as `.tooLong` with its first bytes, the rest of it skipped
/// as it arrives (never buffered); blank lines skipped. Read on a dedicated thread; the
/// stream ends at end of file.
public func stdioLines(of handle: FileHandle, maxLine: UInt64) -> AsyncStream<StdioLine> {
    AsyncStream { continuation in
        let splitter = StdioLines(maxLine: maxLine)
        let thread = Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                for line in splitter.feed(chunk: chunk) { continuation.yield(line) }
            }
            for line in splitter.finish() { continuation.yield(line) }
            continuation.finish()
        }
        thread.start()
    }
}

/// An `OutputReady` that yields to an `AsyncStream`: the machine's output-ready signal as a
/// wake-up for a run loop (it never calls back into the machine).
final class StreamWaker<Element: Sendable>: OutputReady, @unchecked Sendable {
    private let continuation: AsyncStream<Element>.Continuation
    private let element: Element

    init(_ continuation: AsyncStream<Element>.Continuation, yielding element: Element) {
        self.continuation = continuation
        self.element = element
    }

    func outputReady() {
        continuation.yield(element)
    }
}

/// An `OutputReady` that runs a closure (which must not call into the machine synchronously).
final class ClosureWaker: OutputReady, @unchecked Sendable {
    private let action: @Sendable () -> Void
    init(_ action: @escaping @Sendable () -> Void) { self.action = action }
    func outputReady() { action() }
}
