import CMicroHTTPD
import Foundation

/// One connection relayed through a socket pair, pumped on a loop thread, with its RTSP heads rewritten
/// (`RTSPTranslation`) and, once a pairing has handed over its keys, its network side encrypted.
///
/// On a receiver the network side is the sender and the local side libmicrohttpd; on a sender
/// (`SenderRelay`) the network side is the receiver and the local side libcurl. The side that speaks
/// first after a pairing, the controller, switches to the cipher with its first bytes: the receiver's
/// relay when the sender's next bytes arrive, the sender's relay when libcurl writes its next request.
/// Either side closing closes both, so each end sees the other leave.
/// Unchecked: everything but `channel` is touched on its loop thread only, where `perform` hands it.
final class RelayedConnection: @unchecked Sendable {
    /// Bytes waiting for one side before the relay stops reading the other.
    static let bufferLimit = 256 * 1024
    static let readSize = 64 * 1024

    let network: Int32
    let local: Int32
    let channel: SecureChannel
    private let side: RTSPTranslation.Side
    private unowned let thread: LoopThread
    private let onClose: (RelayedConnection) -> Void
    private let log: (@Sendable (String) -> Void)?
    private var translation: RTSPTranslation
    private var cipher: (any ConnectionCipher)?
    private var toLocal: [UInt8] = []
    private var toNetwork: [UInt8] = []
    /// One buffer for every read, rather than one allocated per read.
    private var readBuffer = [UInt8](repeating: 0, count: RelayedConnection.readSize)
    private var networkKey: UInt64 = 0
    private var localKey: UInt64 = 0
    private var closed = false

    init(
        network: Int32, local: Int32, channel: SecureChannel, side: RTSPTranslation.Side = .receiver, thread: LoopThread,
        log: (@Sendable (String) -> Void)?, onClose: @escaping (RelayedConnection) -> Void
    ) {
        self.log = log
        self.channel = channel
        self.side = side
        translation = RTSPTranslation(side: side)
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
                    // On a receiver, the first bytes after a pairing handed over its keys are the first
                    // encrypted ones: the sender has read the pairing's answer in the clear and switched.
                    if side == .receiver, cipher == nil { cipher = channel.takeCipher() }
                    var plaintext = bytes
                    if var opening = cipher {
                        plaintext = try opening.open(bytes)
                        cipher = opening
                    }
                    toLocal += try side == .receiver ? translation.requests(plaintext) : translation.answers(plaintext)
                } catch {
                    log?("closed the connection \(side == .receiver ? "from" : "to") \(channel.peer): \(error)")
                    return close()
                }
                if !flush(&toLocal, to: local) { return close() }
            case .none:
                break
            case .closed:
                if let cipher, cipher.pendingByteCount > 0 {
                    log?("the connection \(side == .receiver ? "from" : "to") \(channel.peer) closed in the middle of a frame (\(cipher.pendingByteCount) bytes of it)")
                }
                if side == .sender { _ = flush(&toLocal, to: local) }
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
                    // On a sender, libcurl's first request after the pairing is the first encrypted one.
                    if side == .sender, cipher == nil { cipher = channel.takeCipher() }
                    let plaintext = try side == .receiver ? translation.answers(bytes) : translation.requests(bytes)
                    if var sealing = cipher {
                        toNetwork += try sealing.seal(plaintext)
                        cipher = sealing
                    } else {
                        toNetwork += plaintext
                    }
                } catch {
                    log?("closed the connection \(side == .receiver ? "from" : "to") \(channel.peer): what was to be sent cannot be (\(error))")
                    return close()
                }
                if !flush(&toNetwork, to: network) { return close() }
            case .none:
                break
            case .closed:
                // The local end closed: what it wrote last goes out if the other end takes it now.
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
        let count = readBuffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 { return .bytes(Array(readBuffer[..<count])) }
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
