import Foundation
import MCPContext

/// A client machine and a server machine wired back to back in memory (stdio semantics),
/// with a simulated clock: what `core/tests/two_peer.rs` does, through the Swift API.
final class SessionHarness {
    let client: ClientMachine
    let server: ServerMachine
    var nowMs: UInt64 = 1_000
    /// Every client event, in order.
    var events: [ClientEvent] = []
    /// Answers server events (the application side).
    var onServerEvent: (ServerEvent) throws -> Void = { _ in }
    var context = MessageContext(stream: 1, auth: 0, transport: .stdio)

    init(client: ClientMachine, server: ServerMachine) {
        self.client = client
        self.server = server
    }

    /// Moves bytes both ways until neither machine has output (the drain rule, both sides).
    func pump() throws {
        var progressed = true
        while progressed {
            progressed = false
            while let out = client.pollOutput() {
                progressed = true
                switch out {
                case .transmit(let bytes, _, _, _, _, _):
                    _ = server.handleMessage(bytes: bytes, nowMs: nowMs, context: context)
                case .closeStream:
                    break
                case .event(let event):
                    events.append(event)
                }
            }
            while let out = server.pollOutput() {
                progressed = true
                switch out {
                case .transmit(_, let bytes, _, _, _):
                    client.handleMessage(bytes: bytes, nowMs: nowMs)
                case .event(let event):
                    try onServerEvent(event)
                }
            }
        }
    }

    /// The events since the last call.
    func take() -> [ClientEvent] {
        defer { events.removeAll() }
        return events
    }
}

/// The `result` JSON as a dictionary.
func object(_ json: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(json.utf8))
    guard let dict = value as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
    return dict
}

/// `contents[0].text` of a read result.
func firstText(_ reply: Reply) throws -> String? {
    let contents = try object(reply.json)["contents"] as? [[String: Any]]
    return contents?.first?["text"] as? String
}
