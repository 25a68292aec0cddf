import CMicroHTTPD
import Foundation

/// A non-blocking listening socket on a loop thread: what a connection front and a side channel share.
/// Every connection it accepts (non-blocking, closed on exec) goes to `accepted` on the thread, with the
/// peer's address; `close()` (on the thread) stops it.
final class ListeningSocket {
    let descriptor: Int32
    let port: UInt16
    private var thread: LoopThread?
    private var key: UInt64 = 0
    private var closed = false

    /// Listens on `address` (its port 0: one the system picks).
    init(on address: SocketAddress) throws {
        var address = address
        let descriptor = socket(address.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw HTTPServerError.cannotListen(address: address.host, port: address.port) }
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let length = address.length
        let bound = address.withSockaddr { bind(descriptor, $0, length) }
        guard bound == 0, Glibc.listen(descriptor, 128) == 0 else {
            Glibc.close(descriptor)
            throw HTTPServerError.cannotListen(address: address.host, port: address.port)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        self.descriptor = descriptor
        port = SocketAddress.boundPort(of: descriptor)
    }

    /// On `thread`: accepts there until `close()`.
    func start(on thread: LoopThread, _ accepted: @escaping (Int32, SocketAddress.Storage) -> Void) {
        self.thread = thread
        key = thread.watch(descriptor, reading: true, writing: false) { [self] _ in
            while !closed {
                var peer = SocketAddress.Storage()
                var length = socklen_t(0)
                let connection = airlab_accept(descriptor, &peer.storage, &length)
                guard connection >= 0 else { return }
                peer.length = length
                accepted(connection, peer)
            }
        }
    }

    /// On its thread (or before it started): stops accepting and closes the socket.
    func close() {
        guard !closed else { return }
        closed = true
        thread?.unwatch(key, descriptor)
        Glibc.close(descriptor)
    }
}
