import Console
import Foundation
import HTTP
import Playback
import SenderProtocol
import Synchronization

/// The senders listening to a receiver: reverse connections (`POST /reverse`, events as `POST /event`
/// property lists) and event streams (`GET /events`, JSON). Delivery only queues bytes on each
/// connection, so publishing never waits for a slow listener.
final class EventHub: Sendable {
    private enum Listener {
        case reverse(UpgradedConnection)
        case stream(SSEStream)
    }

    private let listeners = Mutex<[ObjectIdentifier: Listener]>([:])
    /// Observers in this process (the fleet's console): they hear every event with its session, and
    /// are not listeners a sender holds, so `count` leaves them out.
    private let observers = Mutex<[@Sendable ([PlaybackEvent], ConsoleSession?) -> Void]>([])

    var count: Int { listeners.withLock { $0.count } }

    func add(_ connection: UpgradedConnection) {
        listeners.withLock { $0[ObjectIdentifier(connection)] = .reverse(connection) }
    }

    func add(_ stream: SSEStream) {
        listeners.withLock { $0[ObjectIdentifier(stream)] = .stream(stream) }
    }

    func remove(_ object: AnyObject) {
        _ = listeners.withLock { $0.removeValue(forKey: ObjectIdentifier(object)) }
    }

    /// Adds an observer for as long as the receiver runs; it must only record, never wait.
    func observe(_ observer: @escaping @Sendable ([PlaybackEvent], ConsoleSession?) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    func publish(_ events: [PlaybackEvent], senderSessionID: String?, sessionID: String?, session: ConsoleSession? = nil) {
        for observer in observers.withLock({ $0 }) { observer(events, session) }
        let current = listeners.withLock { Array($0.values) }
        guard !current.isEmpty else { return }
        // Each event is encoded once per form, however many listen.
        var reverse: [Data]?
        var streamed: [(name: String, data: String)]?
        for listener in current {
            switch listener {
            case .reverse(let connection):
                if reverse == nil { reverse = events.map { SenderEvent.reverseRequest($0, sessionID: senderSessionID) } }
                reverse!.forEach(connection.write)
            case .stream(let stream):
                if streamed == nil { streamed = events.map { SenderEvent.serverSentEvent($0, sessionID: sessionID) } }
                for event in streamed! { stream.send(event: event.name, data: event.data) }
            }
        }
    }

    /// Sends one snapshot event to a listener that just joined.
    static func greet(_ connection: UpgradedConnection, with event: PlaybackEvent, senderSessionID: String?) {
        connection.write(SenderEvent.reverseRequest(event, sessionID: senderSessionID))
    }

    static func greet(_ stream: SSEStream, with event: PlaybackEvent, sessionID: String?) {
        let sse = SenderEvent.serverSentEvent(event, sessionID: sessionID)
        stream.send(event: sse.name, data: sse.data)
    }

    /// Ends every reverse connection and stream (the daemon is stopping).
    func closeAll() {
        let current = listeners.withLock { listeners in
            defer { listeners.removeAll() }
            return Array(listeners.values)
        }
        for listener in current {
            switch listener {
            case .reverse(let connection): connection.close()
            case .stream(let stream): stream.close()
            }
        }
    }
}
