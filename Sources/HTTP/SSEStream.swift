import CMicroHTTPD
import Foundation
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
    }

    private enum Phase {
        /// Not yet handed to a connection.
        case detached
        /// The connection is waiting for bytes when `suspended`.
        case attached(connection: MHDHandle, suspended: Bool)
        /// The server stopped: libmicrohttpd may not be called any more.
        case released
    }

    private struct State {
        var pending: [UInt8] = []
        var pendingStart = 0
        var phase = Phase.detached
        /// Set once no more events are accepted; the stream ends when `pending` is drained.
        var ending: CloseReason?
        var closed = false
    }

    private let state = Mutex(State())
    private let onClose: @Sendable (SSEStream, CloseReason) -> Void

    /// - Parameter onClose: called once, off the server's polling thread, when the stream has ended.
    public init(onClose: @escaping @Sendable (SSEStream, CloseReason) -> Void = { _, _ in }) {
        self.onClose = onClose
    }

    /// Queues one event. Multi-line `data` becomes several `data:` lines, as the format requires;
    /// `event` and `id` must be single lines. Ignored once the stream is closing.
    public func send(event: String? = nil, data: String, id: String? = nil) {
        var text = ""
        if let event { text += "event: \(event)\n" }
        if let id { text += "id: \(id)\n" }
        let lines = data.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines { text += "data: \(line)\n" }
        text += "\n"
        enqueue(Array(text.utf8))
    }

    /// Queues a comment line, which clients ignore.
    public func sendComment(_ comment: String) {
        enqueue(Array(": \(comment)\n\n".utf8))
    }

    /// Ends the stream once what was sent before has been written.
    public func close() {
        end(.finished)
    }

    public var isClosed: Bool {
        state.withLock { $0.closed || $0.ending != nil }
    }

    private func enqueue(_ bytes: [UInt8]) {
        state.withLock { state in
            guard state.ending == nil, !state.closed else { return }
            state.pending.append(contentsOf: bytes)
            Self.wake(&state)
        }
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
            MHD_resume_connection(connection.pointer)
        }
    }

    // MARK: - The server's side, on libmicrohttpd's polling thread

    func attach(to connection: OpaquePointer) {
        let connection = MHDHandle(connection)
        state.withLock { $0.phase = .attached(connection: connection, suspended: false) }
    }

    /// Fills `buffer` for libmicrohttpd's content reader: bytes, 0 after suspending the connection
    /// until more arrive, or end of stream.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        state.withLock { state in
            let available = state.pending.count - state.pendingStart
            if available > 0 {
                let count = min(available, capacity)
                state.pending.withUnsafeBufferPointer { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + state.pendingStart, byteCount: count)
                }
                state.pendingStart += count
                if state.pendingStart == state.pending.count {
                    state.pending.removeAll(keepingCapacity: true)
                    state.pendingStart = 0
                }
                return count
            }
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
