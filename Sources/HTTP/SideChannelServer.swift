import CMicroHTTPD
import Foundation
import Synchronization

/// A port a server opens beside its HTTP one for connections the sender makes and the server writes
/// to: AirPlay 2's event channel, whose port the RTSP `SETUP` answer names.
///
/// A `SETUP` says what to expect (`expect`): the next connection from that sender's address gets the
/// channel's cipher and has the greeting written to it sealed, as a real receiver writes its first
/// event. What a sender writes back (its acknowledgements) is read and dropped. A connection stays
/// until the sender closes it, `closeConnections()` or `stop()`. Runs on a loop thread, as a
/// connection front does; at most `maximumConnections` at once (and as many expectations), the
/// oldest closed for a newer one.
public final class SideChannelServer: @unchecked Sendable {
    public static let maximumConnections = 8

    public let port: UInt16
    private let listener: ListeningSocket
    private let thread: LoopThread
    private let log: (@Sendable (String) -> Void)?

    private struct Expectation {
        var peer: String
        var cipher: any ConnectionCipher
        var greeting: [UInt8]
    }

    // The thread's own state.
    private var connections: [(descriptor: Int32, key: UInt64)] = []
    private var expectations: [Expectation] = []
    private var stopped = false

    /// Listens on `address` (a numeric address), on a port the system picks.
    public init(address: String, log: (@Sendable (String) -> Void)? = nil) throws {
        listener = try ListeningSocket(on: SocketAddress(address, port: 0))
        port = listener.port
        self.log = log
        thread = ServerLoop.shared.leastBusyThread()
        thread.perform { [self] in
            listener.start(on: thread) { [self] descriptor, peer in accepted(descriptor, from: peer.host) }
        }
    }

    /// The next connection from `peer` (a numeric address) is encrypted with `cipher` and gets
    /// `greeting`, sealed, at once.
    public func expect(from peer: String, cipher: some ConnectionCipher, greeting: [UInt8]) {
        let expectation = Expectation(peer: peer, cipher: cipher, greeting: greeting)
        thread.perform { [self] in
            if expectations.count >= Self.maximumConnections { expectations.removeFirst() }
            expectations.append(expectation)
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

    private func accepted(_ descriptor: Int32, from peer: String) {
        if connections.count >= Self.maximumConnections { drop(connections.removeFirst()) }
        let key = thread.watch(descriptor, reading: true, writing: false) { [self] _ in readAndDrop(descriptor) }
        connections.append((descriptor, key))
        guard let index = expectations.firstIndex(where: { $0.peer == peer }) else { return }
        var expectation = expectations.remove(at: index)
        do {
            let sealed = try expectation.cipher.seal(expectation.greeting)
            // A fresh socket's buffer takes a greeting of a few kilobytes whole; one that does not is dropped.
            let written = sealed.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written != sealed.count { log?("the event channel to \(peer) did not take its first event (\(written) of \(sealed.count) bytes)") }
        } catch {
            log?("the event channel to \(peer): the first event cannot be sealed (\(error))")
        }
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
