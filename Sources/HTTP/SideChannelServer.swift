import CMicroHTTPD
import Foundation
import Synchronization

/// A port a server opens beside its HTTP one for connections the sender makes and the server only writes
/// to: AirPlay 2's event channel, whose port the RTSP `SETUP` answer names. What a sender writes on it
/// is read and dropped; a connection stays until the sender closes it, `closeConnections()` or `stop()`.
/// Runs on a loop thread, as a connection front does; at most `maximumConnections` at once, the oldest
/// closed for a newer one.
public final class SideChannelServer: @unchecked Sendable {
    public static let maximumConnections = 8

    public let port: UInt16
    private let listener: ListeningSocket
    private let thread: LoopThread

    // The thread's own state.
    private var connections: [(descriptor: Int32, key: UInt64)] = []
    private var stopped = false

    /// Listens on `address` (a numeric address), on a port the system picks.
    public init(address: String) throws {
        listener = try ListeningSocket(on: SocketAddress(address, port: 0))
        port = listener.port
        thread = ServerLoop.shared.leastBusyThread()
        thread.perform { [self] in
            listener.start(on: thread) { [self] descriptor, _ in accepted(descriptor) }
        }
    }

    /// Closes every connection; the port stays open for the next.
    public func closeConnections() {
        thread.perform { [self] in
            for connection in connections { drop(connection) }
            connections = []
        }
    }

    /// Closes the port and every connection, and returns once done. Never called from a loop thread.
    public func stop() {
        let done = DispatchSemaphore(value: 0)
        thread.perform { [self] in
            if !stopped {
                stopped = true
                listener.close()
                for connection in connections { drop(connection) }
                connections = []
            }
            done.signal()
        }
        done.wait()
    }

    // MARK: - On the thread

    private func accepted(_ descriptor: Int32) {
        if connections.count >= Self.maximumConnections { drop(connections.removeFirst()) }
        let key = thread.watch(descriptor, reading: true, writing: false) { [self] _ in readAndDrop(descriptor) }
        connections.append((descriptor, key))
    }

    private func readAndDrop(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count > 0 || (count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) { return }
        if let index = connections.firstIndex(where: { $0.descriptor == descriptor }) { drop(connections.remove(at: index)) }
    }

    private func drop(_ connection: (descriptor: Int32, key: UInt64)) {
        thread.unwatch(connection.key, connection.descriptor)
        close(connection.descriptor)
    }
}
