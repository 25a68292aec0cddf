import CMicroHTTPD
import Foundation
import Synchronization

/// The sender's end of an AirPlay 2 connection: a TCP connection to the receiver, relayed from a port
/// on 127.0.0.1 that libcurl connects to instead of the receiver's (`ConnectionPool(connectingTo:)`).
///
/// The relay writes libcurl's requests that carry a `CSeq` as RTSP/1.0 and reads the receiver's RTSP
/// answers back as HTTP/1.1. Once a pairing has given the session's keys (`channel.encrypt`), libcurl's
/// next request and everything after it are HAP frames both ways. It takes one local connection, and
/// only from a socket of this process's user, since an AirPlay 2 session lives on the one connection
/// it paired. It runs on one of the server loop's threads, as a receiver's relays do.
///
/// A local socket rather than a socket pair or a Unix socket, because libcurl 7.88 neither skips its
/// own connect on a socket it is handed nor reuses a connection to a Unix socket.
public final class SenderRelay: @unchecked Sendable {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The port on 127.0.0.1 libcurl is to connect to.
    public let localPort: UInt16
    /// Switches the connection to a cipher after pairing.
    public let channel: SecureChannel
    private let network: Int32
    private let listener: ListeningSocket
    private let thread: LoopThread
    private let log: (@Sendable (String) -> Void)?
    // The thread's own.
    private var listening = true
    private var relay: RelayedConnection?
    private var closed = false

    /// Connects to `host:port` within `timeout` and listens for libcurl. It blocks while connecting:
    /// call it off the cooperative pool.
    public static func connect(host: String, port: Int, timeout: Duration, log: (@Sendable (String) -> Void)? = nil) throws(Failure) -> SenderRelay {
        let network = try OutgoingSocket.connect(host: host, port: port, timeout: timeout)
        let listener: ListeningSocket
        do {
            listener = try ListeningSocket(on: SocketAddress("127.0.0.1", port: 0))
        } catch {
            Glibc.close(network)
            throw Failure(description: "cannot listen on 127.0.0.1 for the relay: \(error)")
        }
        return SenderRelay(network: network, listener: listener, peer: "\(host):\(port)", log: log)
    }

    private init(network: Int32, listener: ListeningSocket, peer: String, log: (@Sendable (String) -> Void)?) {
        self.network = network
        self.listener = listener
        self.log = log
        localPort = listener.port
        channel = SecureChannel(peer: peer)
        thread = ServerLoop.shared.leastBusyThread()
        thread.perform { [self] in
            guard !closed else { return }
            self.listener.start(on: thread) { [self] descriptor, peer in accepted(descriptor, from: peer) }
        }
    }

    /// Closes the connection to the receiver (which ends an AirPlay 2 session there) and the listener.
    public func close() {
        thread.perform { [self] in shut() }
    }

    // MARK: - On the thread

    /// Asks who owns the connection on a thread of its own: the kernel's table of sockets can run to
    /// megabytes on a busy machine, and reading it here would hold up every server and relay this loop
    /// thread runs.
    private func accepted(_ local: Int32, from peer: SocketAddress.Storage) {
        guard listening else {
            Glibc.close(local)
            return
        }
        let (peerPort, localPort) = (peer.port, localPort)
        Thread { [self] in
            let owner = LocalSocketOwner.uid(ofLoopbackPort: peerPort, connectedTo: localPort)
            thread.perform { [self] in checked(local, ownedBy: owner) }
        }.start()
    }

    private func checked(_ local: Int32, ownedBy owner: uid_t?) {
        guard listening, !closed, owner == getuid() else {
            // Not this user's (or the relay already has its connection): it gets nothing, and
            // libcurl's connection still comes.
            if owner != getuid() { log?("a connection to the relay for \(channel.peer) from another user was refused") }
            Glibc.close(local)
            return
        }
        stopListening()
        let relay = RelayedConnection(network: network, local: local, channel: channel, side: .sender, thread: thread, log: log) { _ in }
        self.relay = relay
        relay.start()
    }

    private func stopListening() {
        guard listening else { return }
        listening = false
        listener.close()
    }

    private func shut() {
        guard !closed else { return }
        closed = true
        stopListening()
        if let relay {
            relay.close()
        } else {
            Glibc.close(network)
        }
    }
}

/// Who owns a loopback TCP socket, by the kernel's table of them (`/proc/net/tcp`).
enum LocalSocketOwner {
    /// The uid owning the socket 127.0.0.1:`port` connected to 127.0.0.1:`remote`; nil when none is listed.
    static func uid(ofLoopbackPort port: UInt16, connectedTo remote: UInt16) -> uid_t? {
        // Read to its end: procfs files report a size of 0, and Foundation's readers then stop after
        // their first read, about 4 KB, where a busy machine's table runs to many times that.
        let descriptor = open("/proc/net/tcp", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { Glibc.close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count < 64 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        let table = String(decoding: bytes, as: UTF8.self)
        // Addresses are hex: the IPv4 address in the kernel's byte order (127.0.0.1 is 0100007F here), then the port.
        let local = String(format: "0100007F:%04X", port)
        let other = String(format: "0100007F:%04X", remote)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 7, fields[1] == local, fields[2] == other else { continue }
            return uid_t(fields[7])
        }
        return nil
    }
}

/// A connection a sender holds open for the receiver to write to: AirPlay 2's event channel. With the
/// session's event keys, each request the receiver sends (a tvOS receiver's `POST /command`) is opened
/// and acknowledged `200` with its `CSeq`, as pyatv does; without them what arrives is dropped.
public final class HeldConnection: @unchecked Sendable {
    /// Requests held back unanswered before the channel is closed: a receiver that sends without end.
    static let bufferLimit = 256 * 1024

    private let descriptor: Int32
    private let thread: LoopThread
    // The thread's own.
    private var cipher: (any ConnectionCipher)?
    private var received: [UInt8] = []
    /// The receiver's last requests, by method and target, for whoever wants to know what the channel
    /// carried: at most `keptRequests`, so a receiver that sends without end costs no more.
    private let requests = Mutex<[String]>([])
    static let keptRequests = 64
    private var key: UInt64 = 0
    private var closed = false

    /// Connects within `timeout`; blocks while connecting, so call it off the cooperative pool.
    public init(host: String, port: Int, timeout: Duration, cipher: (any ConnectionCipher)? = nil) throws(SenderRelay.Failure) {
        descriptor = try OutgoingSocket.connect(host: host, port: port, timeout: timeout)
        self.cipher = cipher
        thread = ServerLoop.shared.leastBusyThread()
        thread.perform { [self] in
            key = thread.watch(descriptor, reading: true, writing: false) { [self] _ in readable() }
        }
    }

    /// The last requests the receiver has sent on the channel (`POST /command`), at most `keptRequests`.
    public var receivedRequests: [String] { requests.withLock { $0 } }

    public func close() {
        thread.perform { [self] in shut() }
    }

    private func readable() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else {
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            return shut()
        }
        guard var opening = cipher else { return }
        do {
            received += try opening.open(Array(buffer[..<count]))
            while let request = try RTSPTranslation.takeRequest(from: &received) {
                requests.withLock { kept in
                    if kept.count == Self.keptRequests { kept.removeFirst() }
                    kept.append(request.target)
                }
                let sealed = try opening.seal(EventChannelAcknowledgement.bytes(sequence: request.sequence))
                _ = sealed.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            cipher = opening
            if received.count > Self.bufferLimit { shut() }
        } catch {
            shut()
        }
    }

    private func shut() {
        guard !closed else { return }
        closed = true
        thread.unwatch(key, descriptor)
        Glibc.close(descriptor)
    }
}

/// What a sender answers each request on the event channel: `200`, no body, its `CSeq`.
enum EventChannelAcknowledgement {
    static func bytes(sequence: String?) -> [UInt8] {
        Array(("RTSP/1.0 200 OK\r\nContent-Length: 0\r\nAudio-Latency: 0\r\n" + (sequence.map { "CSeq: \($0)\r\n" } ?? "") + "\r\n").utf8)
    }
}

/// A TCP connection a sender opens, non-blocking once connected.
enum OutgoingSocket {
    static func connect(host: String, port: Int, timeout: Duration) throws(SenderRelay.Failure) -> Int32 {
        guard (1...65_535).contains(port) else { throw SenderRelay.Failure(description: "port \(port) is not from 1 to 65535") }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &list)
        guard lookup == 0, let first = list else {
            throw SenderRelay.Failure(description: "cannot resolve \(host): \(String(cString: gai_strerror(lookup)))")
        }
        defer { freeaddrinfo(list) }
        var reason = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let socket = Glibc.socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else {
                reason = "socket: errno \(errno)"
                continue
            }
            if Glibc.connect(socket, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 || (errno == EINPROGRESS && waitConnected(socket, timeout, &reason)) {
                var one: Int32 = 1
                _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return socket
            }
            if errno != EINPROGRESS { reason = String(cString: strerror(errno)) }
            Glibc.close(socket)
        }
        throw SenderRelay.Failure(description: "cannot connect to \(host):\(port): \(reason)")
    }

    private static func waitConnected(_ socket: Int32, _ timeout: Duration, _ reason: inout String) -> Bool {
        var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        let milliseconds = Int32(clamping: max(1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
        var ready: Int32
        repeat { ready = poll(&poller, 1, milliseconds) } while ready < 0 && errno == EINTR
        guard ready > 0 else {
            reason = ready == 0 ? "timed out" : "poll: errno \(errno)"
            return false
        }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
        guard error == 0 else {
            reason = String(cString: strerror(error))
            return false
        }
        return true
    }
}
