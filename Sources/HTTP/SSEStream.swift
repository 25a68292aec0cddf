import CMicroHTTPD
import Foundation
import ServerSentEvents
import Synchronization

/// A `text/event-stream` response whose events are pushed from Swift after it was returned.
///
/// Create one in a handler, keep it wherever events originate, and return
/// `HTTPResponse.eventStream(stream)`. Events sent before the client is connected are buffered and
/// go out first. The server writes a comment line every heartbeat interval: it keeps proxies from
/// closing a quiet stream and is how a client that left is noticed, since libmicrohttpd sees no
/// disconnect while the connection waits for events.
public final class SSEStream: @unchecked Sendable {
    public enum CloseReason: Sendable, Equatable {
        /// `close()` was called and everything sent before it was delivered.
        case finished
        /// The client disconnected, or a write to it failed.
        case clientGone
        case serverStopped
        /// The client read too slowly: its queue passed the stream's limit, and it was dropped.
        case fellBehind
    }

    private enum Phase {
        /// Not yet handed to a connection.
        case detached
        /// The connection is waiting for bytes when `suspended`.
        case attached(connection: ConnectionHandle, suspended: Bool)
        /// The server stopped: libmicrohttpd may not be called any more.
        case released
    }

    private struct State {
        /// Frames not yet written, oldest first; a frame is shared with every other stream it was sent to.
        var pending: [Data] = []
        /// The first frame of `pending` not yet written (those before it are, and are dropped in batches).
        var pendingHead = 0
        /// How much of the first unwritten frame was written.
        var pendingStart = 0
        /// Bytes of `pending` not yet written.
        var queued = 0
        var phase = Phase.detached
        /// Set once no more events are accepted; the stream ends when `pending` is drained.
        var ending: CloseReason?
        var closed = false
    }

    private let state = Mutex(State())
    private let onClose: @Sendable (SSEStream, CloseReason) -> Void
    /// The most bytes that may wait for the client: past it the client is dropped, never waited for.
    public let limit: Int

    /// Four mebibytes: a reader that keeps up never has more than a few events queued.
    public static let defaultLimit = 4 << 20

    /// - Parameters:
    ///   - limit: the most bytes that may wait for this client; an event that would pass it drops the client.
    ///   - onClose: called once, off the server's polling thread, when the stream has ended.
    public init(limit: Int = SSEStream.defaultLimit, onClose: @escaping @Sendable (SSEStream, CloseReason) -> Void = { _, _ in }) {
        self.limit = max(1, limit)
        self.onClose = onClose
    }

    /// Queues one event. Multi-line `data` becomes several `data:` lines, as the format requires;
    /// `event` and `id` must be single lines. Ignored once the stream is closing.
    public func send(event: String? = nil, data: String, id: String? = nil) {
        send(ServerSentEvent(event: event, data: data, id: id).frame)
    }

    /// What became of an event sent.
    public enum Outcome: Sendable, Equatable {
        case queued
        /// The stream was closing already; the event was ignored.
        case ignored
        /// The event would have passed the stream's limit: the client was dropped by this send (its
        /// connection shut down, the close reason `fellBehind`). Said once per stream.
        case dropped
    }

    /// Queues an event encoded once for any number of streams (its bytes are shared, not copied).
    @discardableResult
    public func send(_ frame: ServerSentEvent.Frame) -> Outcome {
        enqueue(frame.bytes)
    }

    /// Queues a comment line, which clients ignore.
    public func sendComment(_ comment: String) {
        enqueue(Data(": \(comment)\n\n".utf8))
    }

    /// Ends the stream once what was sent before has been written.
    public func close() {
        end(.finished)
    }

    public var isClosed: Bool {
        state.withLock { $0.closed || $0.ending != nil }
    }

    @discardableResult
    private func enqueue(_ bytes: Data) -> Outcome {
        state.withLock { state in
            guard state.ending == nil, !state.closed else { return .ignored }
            guard state.queued + bytes.count <= limit else {
                Self.drop(&state)
                return .dropped
            }
            state.pending.append(bytes)
            state.queued += bytes.count
            Self.wake(&state)
            return .queued
        }
    }

    /// Drops a client that fell behind: what it had queued is discarded and its socket shut down,
    /// which libmicrohttpd sees at once even when the client's window is full and no write can
    /// progress. (Under the lock while attached: the connection, and so its socket, is still open.)
    private static func drop(_ state: inout State) {
        state.ending = .fellBehind
        state.pending = []
        state.pendingHead = 0
        state.pendingStart = 0
        state.queued = 0
        if case .attached(let connection, _) = state.phase {
            let descriptor = airlab_mhd_connection_fd(connection.pointer)
            if descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
        wake(&state)
    }

    private func end(_ reason: CloseReason) {
        state.withLock { state in
            guard state.ending == nil, !state.closed else { return }
            state.ending = reason
            Self.wake(&state)
        }
    }

    /// Resumes a connection that waits for bytes; it is called with the lock held so the server's
    /// stop cannot slip between the check and the resume.
    private static func wake(_ state: inout State) {
        if case .attached(let connection, true) = state.phase {
            state.phase = .attached(connection: connection, suspended: false)
            connection.resume()
        }
    }

    // MARK: - The server's side, on libmicrohttpd's polling thread

    func attach(to connection: ConnectionHandle) {
        state.withLock { $0.phase = .attached(connection: connection, suspended: false) }
    }

    /// Fills `buffer` for libmicrohttpd's content reader: bytes, 0 after suspending the connection
    /// until more arrive, or end of stream.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        state.withLock { state in
            if state.ending == .fellBehind { return airlab_mhd_content_end_with_error() }
            var written = 0
            while written < capacity, state.pendingHead < state.pending.count {
                let first = state.pending[state.pendingHead]
                let count = min(first.count - state.pendingStart, capacity - written)
                first.withUnsafeBytes { bytes in
                    (UnsafeMutableRawPointer(buffer) + written).copyMemory(from: bytes.baseAddress! + state.pendingStart, byteCount: count)
                }
                written += count
                state.pendingStart += count
                state.queued -= count
                if state.pendingStart == first.count {
                    state.pendingHead += 1
                    state.pendingStart = 0
                }
            }
            // Written frames leave in batches, so that a queue of many small frames costs each one once.
            if state.pendingHead == state.pending.count {
                state.pending.removeAll(keepingCapacity: true)
                state.pendingHead = 0
            } else if state.pendingHead >= 64, state.pendingHead * 2 >= state.pending.count {
                state.pending.removeFirst(state.pendingHead)
                state.pendingHead = 0
            }
            if written > 0 { return written }
            if state.ending != nil { return airlab_mhd_content_end_of_stream() }
            guard case .attached(let connection, _) = state.phase else { return airlab_mhd_content_end_of_stream() }
            state.phase = .attached(connection: connection, suspended: true)
            MHD_suspend_connection(connection.pointer)
            return 0
        }
    }

    /// The server is stopping: wake the connection so libmicrohttpd can close it, and never touch
    /// libmicrohttpd again.
    func releaseForShutdown() {
        state.withLock { state in
            if state.ending == nil { state.ending = .serverStopped }
            Self.wake(&state)
            state.phase = .released
        }
    }

    /// The request is over; `clientLeft` when it did not end because the stream finished.
    func detach(clientLeft: Bool) {
        let reason: CloseReason? = state.withLock { state in
            guard !state.closed else { return nil }
            state.closed = true
            state.phase = .released
            if let ending = state.ending, !(clientLeft && ending == .finished) { return ending }
            return clientLeft ? .clientGone : .finished
        }
        guard let reason else { return }
        DispatchQueue.global().async { self.onClose(self, reason) }
    }
}
