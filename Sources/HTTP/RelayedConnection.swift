import CMicroHTTPD
import Foundation

/// One connection between a sender and libmicrohttpd through a socket pair, pumped on the front's loop
/// thread: the sender's bytes are opened by the connection's cipher once it has one and their RTSP heads
/// rewritten as HTTP (`RTSPTranslation`); libmicrohttpd's answers go back the other way. Either side
/// closing closes both, so libmicrohttpd sees the sender leave and a handler's close reaches the sender.
final class RelayedConnection {
    /// Bytes waiting for one side before the relay stops reading the other.
    static let bufferLimit = 256 * 1024
    static let readSize = 64 * 1024

    let network: Int32
    let local: Int32
    let channel: SecureChannel
    private unowned let thread: LoopThread
    private let onClose: (RelayedConnection) -> Void
    private let log: (@Sendable (String) -> Void)?
    private var translation = RTSPTranslation()
    private var cipher: (any ConnectionCipher)?
    private var toLocal: [UInt8] = []
    private var toNetwork: [UInt8] = []
    private var networkKey: UInt64 = 0
    private var localKey: UInt64 = 0
    private var closed = false

    init(
        network: Int32, local: Int32, peer: String, thread: LoopThread, log: (@Sendable (String) -> Void)?,
        onClose: @escaping (RelayedConnection) -> Void
    ) {
        self.log = log
        channel = SecureChannel(peer: peer)
        self.network = network
        self.local = local
        self.thread = thread
        self.onClose = onClose
    }

    func start() {
        networkKey = thread.watch(network, reading: true, writing: false) { [self] events in networkReady(events) }
        localKey = thread.watch(local, reading: true, writing: false) { [self] events in localReady(events) }
    }

    /// Closes both sides at once (the server is stopping, or either side failed).
    func close() {
        guard !closed else { return }
        closed = true
        thread.unwatch(networkKey, network)
        thread.unwatch(localKey, local)
        Glibc.close(network)
        Glibc.close(local)
        onClose(self)
    }

    // MARK: - Pumping

    private func networkReady(_ events: UInt32) {
        if events & 2 != 0, !flush(&toNetwork, to: network) { return close() }
        if events & 1 != 0, toLocal.count < Self.bufferLimit {
            switch read(network) {
            case .bytes(let bytes):
                do {
                    // The first bytes after a pairing handed over its keys are the first encrypted ones:
                    // the sender has read the pairing's answer in the clear and switched.
                    if cipher == nil { cipher = channel.takeCipher() }
                    var plaintext = bytes
                    if var opening = cipher {
                        plaintext = try opening.open(bytes)
                        cipher = opening
                    }
                    toLocal += try translation.inbound(plaintext)
                } catch {
                    log?("closed the connection from \(channel.peer): \(error)")
                    return close()
                }
                if !flush(&toLocal, to: local) { return close() }
            case .none:
                break
            case .closed:
                if let cipher, cipher.pendingByteCount > 0 {
                    log?("the connection from \(channel.peer) closed in the middle of a frame (\(cipher.pendingByteCount) bytes of it)")
                }
                return close()
            }
        }
        updateInterest()
    }

    private func localReady(_ events: UInt32) {
        if events & 2 != 0, !flush(&toLocal, to: local) { return close() }
        if events & 1 != 0, toNetwork.count < Self.bufferLimit {
            switch read(local) {
            case .bytes(let bytes):
                do {
                    let plaintext = try translation.outbound(bytes)
                    if var sealing = cipher {
                        toNetwork += try sealing.seal(plaintext)
                        cipher = sealing
                    } else {
                        toNetwork += plaintext
                    }
                } catch {
                    log?("closed the connection from \(channel.peer): the answer cannot be sent (\(error))")
                    return close()
                }
                if !flush(&toNetwork, to: network) { return close() }
            case .none:
                break
            case .closed:
                // libmicrohttpd closed its end: what it wrote last goes out if the sender takes it now.
                _ = flush(&toNetwork, to: network)
                return close()
            }
        }
        updateInterest()
    }

    private enum ReadResult {
        case bytes([UInt8])
        case none
        case closed
    }

    private func read(_ descriptor: Int32) -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count > 0 { return .bytes(Array(buffer[..<count])) }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .none }
        return .closed
    }

    /// Writes what the socket takes now; false when it failed.
    private func flush(_ pending: inout [UInt8], to descriptor: Int32) -> Bool {
        while !pending.isEmpty {
            let written = pending.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                pending.removeFirst(written)
            } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                return true
            } else {
                return false
            }
        }
        return true
    }

    private func updateInterest() {
        guard !closed else { return }
        thread.rewatch(networkKey, network, reading: toLocal.count < Self.bufferLimit, writing: !toNetwork.isEmpty)
        thread.rewatch(localKey, local, reading: toNetwork.count < Self.bufferLimit, writing: !toLocal.isEmpty)
    }
}
