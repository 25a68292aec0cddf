import CMicroHTTPD
import Glibc

/// Finds the connections whose client has gone, from their sockets, for `ConnectionWatch`'s sweep.
///
/// One `poll` with no wait asks every socket at once; a socket whose peer has closed (or reset) is
/// gone only when nothing it sent is still unread, since libmicrohttpd may not yet have read a
/// complete request that arrived with the close, and that request deserves its answer.
enum PeerDeparture {
    static func departed(among connections: [ConnectionWatch.Closure]) -> [ConnectionWatch.Closure] {
        guard !connections.isEmpty else { return [] }
        var descriptors = connections.map { pollfd(fd: $0.descriptor, events: airlab_poll_peer_closed(), revents: 0) }
        let ready = descriptors.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 0) }
        guard ready > 0 else { return [] }
        var departed: [ConnectionWatch.Closure] = []
        for (connection, descriptor) in zip(connections, descriptors)
        where descriptor.revents & (airlab_poll_peer_closed() | Int16(POLLHUP | POLLERR)) != 0 {
            if hasNothingUnread(descriptor.fd) { departed.append(connection) }
        }
        return departed
    }

    /// End of stream or an error, rather than bytes, is what a peek finds on a socket whose peer left
    /// after everything it sent was read.
    private static func hasNothingUnread(_ descriptor: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count == 0 { return true }
        if count > 0 { return false }
        let failure = errno
        return failure != EAGAIN && failure != EWOULDBLOCK && failure != EINTR
    }

    /// Whether the client's bytes wait in the socket for the server to read them.
    static func hasUnreadBytes(_ descriptor: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }
}
