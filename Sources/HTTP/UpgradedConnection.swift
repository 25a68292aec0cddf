import CMicroHTTPD
import Foundation
import Synchronization

/// A connection switched away from HTTP by a 101 response (`Upgrade: PTTH/1.0` for `/reverse`), over
/// which either side may now send anything: the server its own HTTP requests, the client its answers.
///
/// Create one in a handler and return `HTTPResponse.upgrade(to:_:)`. Bytes written before the switch
/// completes go out right after it. The socket libmicrohttpd hands over is non-blocking and belongs to
/// its polling thread's loop, so all reading and writing happens on a queue of this connection's own;
/// the callbacks run in order on another, so they may take their time or write back.
public final class UpgradedConnection: @unchecked Sendable {
    public enum CloseReason: Sendable, Equatable {
        /// `close()` was called.
        case closedByServer
        /// The client closed its end.
        case closedByClient
        /// Reading or writing failed with this `errno`.
        case failed(errno: Int32)
        /// The request ended before the switch happened (the client left, or the 101 could not be sent).
        case notUpgraded
        case serverStopped
    }

    private enum Phase {
        case pending
        case open(socket: Int32, handle: MHDHandle)
        case closed
    }

    private struct State {
        var phase = Phase.pending
        var outbound: [UInt8] = []
        var readSource: (any DispatchSourceRead)?
        var writeSource: (any DispatchSourceWrite)?
        /// Dispatch sources not yet through their cancel handler: the socket goes back to
        /// libmicrohttpd only when this is 0, so no handler ever reads a descriptor it closed.
        var liveSources = 0
        var handle: MHDHandle?
        /// Takes the connection out of its server's registry once closed.
        var unregister: (@Sendable () -> Void)?
        /// The shared loop that must run the daemon once the socket is handed back, if it has no thread.
        var loop: ServerLoop.Registration?
    }

    private let state = Mutex(State())
    private let io = DispatchQueue(label: "airlab.http.upgraded.io")
    private let delivery = DispatchQueue(label: "airlab.http.upgraded.delivery")
    /// Entered while libmicrohttpd's socket is ours; the server waits on it before stopping.
    private let released = DispatchGroup()
    private let onReceive: @Sendable (UpgradedConnection, Data) -> Void
    private let onClose: @Sendable (UpgradedConnection, CloseReason) -> Void

    /// - Parameters:
    ///   - onReceive: bytes from the client, in order.
    ///   - onClose: called once, after the last `onReceive`.
    public init(
        onReceive: @escaping @Sendable (UpgradedConnection, Data) -> Void = { _, _ in },
        onClose: @escaping @Sendable (UpgradedConnection, CloseReason) -> Void = { _, _ in }
    ) {
        self.onReceive = onReceive
        self.onClose = onClose
    }

    /// Sends `data` as soon as the socket takes it; ignored once closed.
    public func write(_ data: Data) {
        state.withLock { state in
            if case .closed = state.phase { return }
            state.outbound.append(contentsOf: data)
            if case .open(let socket, _) = state.phase { flush(&state, socket: socket) }
        }
    }

    /// Closes the connection after a last attempt to send what was written.
    public func close() {
        finish(.closedByServer)
    }

    public var isClosed: Bool {
        state.withLock { if case .closed = $0.phase { true } else { false } }
    }

    // MARK: - The server's side

    /// The 101 went out and libmicrohttpd handed over `socket`. Runs on its polling thread: no blocking.
    func attach(socket: Int32, handle rawHandle: OpaquePointer, alreadyReceived: Data) {
        let handle = MHDHandle(rawHandle)
        let (accepted, loop) = state.withLock { state in
            guard case .pending = state.phase else { return (false, state.loop) }
            state.phase = .open(socket: socket, handle: handle)
            state.handle = handle
            released.enter()
            let reader = DispatchSource.makeReadSource(fileDescriptor: socket, queue: io)
            reader.setEventHandler { [weak self] in self?.readAvailable(socket: socket) }
            reader.setCancelHandler { [self] in sourceCancelled() }
            state.readSource = reader
            state.liveSources += 1
            reader.resume()
            flush(&state, socket: socket)
            return (true, state.loop)
        }
        guard accepted else {
            // Closed before the switch completed: hand the socket straight back.
            _ = airlab_mhd_upgrade_close(rawHandle)
            loop?.runSoon()
            return
        }
        if !alreadyReceived.isEmpty {
            delivery.async { self.onReceive(self, alreadyReceived) }
        }
    }

    /// Called by the server that queued the 101, before the switch can happen.
    func register(loop: ServerLoop.Registration?, unregister: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.loop = loop
            state.unregister = unregister
        }
    }

    /// The request ended without a switch; a no-op once switched.
    func abandon() {
        let pending = state.withLock { if case .pending = $0.phase { true } else { false } }
        if pending { finish(.notUpgraded) }
    }

    /// Closes for a stopping server and waits until libmicrohttpd has its socket back.
    func closeForShutdown() {
        finish(.serverStopped)
        released.wait()
    }

    // MARK: - I/O, on `io` or with the lock held

    private func readAvailable(socket: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                let data = Data(buffer[0..<count])
                delivery.async { self.onReceive(self, data) }
                continue
            }
            if count == 0 { return finish(.closedByClient) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return
            default: return finish(.failed(errno: errno))
            }
        }
    }

    /// Writes what the socket takes now; a write source waits for room for the rest.
    private func flush(_ state: inout State, socket: Int32) {
        while !state.outbound.isEmpty {
            let count = state.outbound.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                state.outbound.removeFirst(count)
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                if state.writeSource == nil {
                    let writer = DispatchSource.makeWriteSource(fileDescriptor: socket, queue: io)
                    writer.setEventHandler { [weak self] in self?.writable(socket: socket) }
                    writer.setCancelHandler { [self] in sourceCancelled() }
                    state.writeSource = writer
                    state.liveSources += 1
                    writer.resume()
                }
                return
            }
            let failure = errno
            io.async { self.finish(.failed(errno: failure)) }
            return
        }
        state.writeSource?.cancel()
        state.writeSource = nil
    }

    private func writable(socket: Int32) {
        state.withLock { state in
            guard case .open = state.phase else { return }
            flush(&state, socket: socket)
        }
    }

    private func finish(_ reason: CloseReason) {
        // An open connection stays in its server's registry until its socket is back with
        // libmicrohttpd (`returnSocket`): a server that stops meanwhile must wait for that, since
        // stopping frees the handle the return goes through.
        let closing: (wasOpen: Bool, unregister: (@Sendable () -> Void)?)? = state.withLock { state in
            switch state.phase {
            case .closed:
                return nil
            case .pending:
                state.phase = .closed
                state.outbound = []
                defer { state.unregister = nil }
                return (false, state.unregister)
            case .open(let socket, _):
                if reason == .closedByServer { flush(&state, socket: socket) }
                state.phase = .closed
                state.outbound = []
                state.readSource?.cancel()
                state.writeSource?.cancel()
                state.readSource = nil
                state.writeSource = nil
                return (true, nil)
            }
        }
        guard let closing else { return }
        closing.unregister?()
        if closing.wasOpen, state.withLock({ $0.liveSources == 0 }) { returnSocket() }
        delivery.async { self.onClose(self, reason) }
    }

    private func sourceCancelled() {
        let last = state.withLock { state in
            state.liveSources -= 1
            return state.liveSources == 0 && { if case .closed = state.phase { true } else { false } }()
        }
        if last { returnSocket() }
    }

    private func returnSocket() {
        let returning: (handle: MHDHandle, unregister: (@Sendable () -> Void)?, loop: ServerLoop.Registration?)? = state.withLock { state in
            defer {
                state.handle = nil
                state.unregister = nil
            }
            return state.handle.map { ($0, state.unregister, state.loop) }
        }
        guard let returning else { return }
        _ = airlab_mhd_upgrade_close(returning.handle.pointer)
        returning.loop?.runSoon()
        returning.unregister?()
        released.leave()
    }
}
