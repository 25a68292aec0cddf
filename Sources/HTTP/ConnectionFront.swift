import CMicroHTTPD
import COnDemand
import Foundation
import Synchronization

/// How a server's front treats a new connection, from its first bytes.
public enum FrontDecision: Sendable, Equatable {
    /// libmicrohttpd takes the socket itself: no byte passes through airlab on the way.
    case direct
    /// Through a relay, which may encrypt the connection later (`SecureChannel`) and speaks RTSP heads
    /// to libmicrohttpd as HTTP (`RTSPTranslation`).
    case relay
    /// Not enough bytes yet to tell.
    case undecided
}

/// The listening socket of a server whose connections may turn into something libmicrohttpd cannot read
/// (an AirPlay 2 sender pairs, then encrypts the same connection and sends RTSP on it): the front
/// accepts each connection, waits for its first bytes, and hands it to libmicrohttpd either as it is or
/// through a `RelayedConnection`. Everything runs on one `LoopThread`, the daemon's own when it has no
/// thread, so adding a connection never races its polling.
final class ConnectionFront: @unchecked Sendable {
    /// Connections accepted and not yet decided, at most: as many as the server takes at once (a peer
    /// that connects and says nothing holds one until it is the oldest past that many).
    private var maximumUndecided: Int {
        core.configuration.connectionLimit > 0 ? max(64, core.configuration.connectionLimit) : 4096
    }
    /// How long a connection may stay silent before the front gives up on it.
    static let undecidedPatience: Duration = .seconds(30)
    /// The most bytes a front looks at to decide.
    static let peekLength = 32

    let listener: ListeningSocket
    let thread: LoopThread
    private let decide: @Sendable ([UInt8]) -> FrontDecision
    private let core: ServerCore

    // The thread's own state.
    private var undecided: [Int32: (key: UInt64, peer: SocketAddress.Storage, since: ContinuousClock.Instant)] = [:]
    private var relays: [ObjectIdentifier: RelayedConnection] = [:]

    init(listener: ListeningSocket, thread: LoopThread, core: ServerCore, decide: @escaping @Sendable ([UInt8]) -> FrontDecision) {
        self.listener = listener
        self.thread = thread
        self.core = core
        self.decide = decide
    }

    /// Starts accepting on the thread.
    func start() {
        thread.perform { [self] in
            listener.start(on: thread) { [self] descriptor, peer in accepted(descriptor, peer) }
        }
    }

    /// Closes the listening socket, the connections not yet handed over and every relay's network side,
    /// and returns once the thread has done so. Never called from the loop thread.
    func stop() {
        let done = DispatchSemaphore(value: 0)
        thread.perform { [self] in
            listener.close()
            for (descriptor, entry) in undecided {
                thread.unwatch(entry.key, descriptor)
                close(descriptor)
            }
            undecided = [:]
            for relay in relays.values { relay.close() }
            relays = [:]
            done.signal()
        }
        done.wait()
    }

    // MARK: - On the thread

    private func accepted(_ descriptor: Int32, _ peer: SocketAddress.Storage) {
        // Most clients send their first request with the connect: decide at once when its bytes are
        // there, and only a silent connection waits (a burst of a thousand senders never piles up).
        guard let waiting = decision(on: descriptor) else {
            close(descriptor)
            return
        }
        if waiting == .undecided {
            if undecided.count >= maximumUndecided { dropStale() }
            let key = thread.watch(descriptor, reading: true, writing: false) { [self] _ in firstBytes(on: descriptor) }
            undecided[descriptor] = (key, peer, .now)
            return
        }
        handOver(descriptor, peer: peer, as: waiting)
    }

    /// The undecided connections that have said nothing for too long go, and the oldest one if none has.
    private func dropStale() {
        let now = ContinuousClock.now
        var drop = undecided.filter { now - $0.value.since > Self.undecidedPatience }.map(\.key)
        if drop.isEmpty, let oldest = undecided.min(by: { $0.value.since < $1.value.since }) { drop = [oldest.key] }
        for descriptor in drop {
            if let entry = undecided.removeValue(forKey: descriptor) { thread.unwatch(entry.key, descriptor) }
            close(descriptor)
        }
    }

    private func firstBytes(on descriptor: Int32) {
        guard let entry = undecided[descriptor] else { return }
        let decided = decision(on: descriptor)
        guard decided != .undecided else { return }
        forget(descriptor, entry.key)
        guard let decided else {
            close(descriptor)
            return
        }
        handOver(descriptor, peer: entry.peer, as: decided)
    }

    /// What the first bytes waiting on the connection say; nil when it has closed or failed.
    private func decision(on descriptor: Int32) -> FrontDecision? {
        var bytes = [UInt8](repeating: 0, count: Self.peekLength)
        let count = recv(descriptor, &bytes, bytes.count, Int32(MSG_PEEK))
        if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { return nil }
        guard count > 0 else { return .undecided }
        let decision = decide(Array(bytes[..<count]))
        // A full peek that still cannot tell is no pairing: libmicrohttpd judges the rest.
        return decision == .undecided && count == Self.peekLength ? .direct : decision
    }

    private func handOver(_ descriptor: Int32, peer: SocketAddress.Storage, as decision: FrontDecision) {
        if decision == .direct {
            core.addConnection(descriptor, peer: peer, on: thread)
            return
        }
        var ends: [Int32] = [-1, -1]
        guard airlab_socket_pair(&ends) == 0 else {
            close(descriptor)
            return
        }
        let relay = RelayedConnection(
            network: descriptor, local: ends[0], channel: SecureChannel(peer: peer.host), thread: thread, log: core.configuration.log
        ) { [weak self] relay in
            self?.relays[ObjectIdentifier(relay)] = nil
        }
        relays[ObjectIdentifier(relay)] = relay
        core.register(relay.channel, forLocalDescriptor: ends[1])
        relay.start()
        core.addConnection(ends[1], peer: peer, on: thread)
    }

    private func forget(_ descriptor: Int32, _ key: UInt64) {
        undecided[descriptor] = nil
        thread.unwatch(key, descriptor)
    }
}
