import CMicroHTTPD
import CivilTime
import COnDemand
import Foundation
import Synchronization

/// The state libmicrohttpd's callbacks share with `HTTPServer` and with handlers' tasks; its address
/// is the closure of every callback.
///
/// Lock order: a connection watch stripe's lock before this lock, this lock before an `SSEStream`'s;
/// never the other way round. libmicrohttpd is never stopped with this lock held, since its polling
/// thread may be waiting for it.
final class ServerCore: @unchecked Sendable {
    let configuration: HTTPServerConfiguration
    let responder: any HTTPResponder
    /// Only a server that checks credentials needs one.
    let nonceSeed: NonceSeed?

    struct State {
        var daemon: MHDHandle?
        var stopping = false
        /// Requests whose connection is suspended while a handler's task works on them.
        var waiting: [ObjectIdentifier: RequestContext] = [:]
        var streams: [ObjectIdentifier: SSEStream] = [:]
        var bodies: [ObjectIdentifier: StreamedBody] = [:]
        var upgrades: [ObjectIdentifier: UpgradedConnection] = [:]
        var nextConnectionID: UInt64 = 1
        var openConnections = 0
        var acceptedConnections = 0
        var closedPastDeadline = 0
        var closedPeerGone = 0
    }

    let state: Mutex<State>

    /// Relays' channels: by the descriptor handed to libmicrohttpd until its connection opens, then by
    /// connection while it is open. A lock of their own, since every request of a server with a front
    /// looks its channel up, and the server's lock is busy enough.
    private struct Channels {
        var byDescriptor: [Int32: SecureChannel] = [:]
        var byConnection: [UInt64: SecureChannel] = [:]
    }

    private let channels = Mutex(Channels())

    /// The daemon's place on the process's shared loop, when it has no thread of its own. Set once in
    /// `start()` before the loop may run the daemon, so before any connection can read it.
    private(set) var loop: ServerLoop.Registration?
    /// The front that accepts connections, when the configuration asks for one. Set once in `start()`.
    private(set) var front: ConnectionFront?
    /// `state.stopping`, readable without the lock by a polling thread answering a fresh request.
    private let isStopping = Atomic(false)
    /// The connection watch in stripes by connection id: every request passes it three times, and a
    /// receiver's polling threads queued on one lock for it.
    private let watches: [WatchStripe]

    final class WatchStripe: Sendable {
        let watch: Mutex<ConnectionWatch>
        init(_ watch: ConnectionWatch) { self.watch = Mutex(watch) }
    }
    static let watchStripes = 16

    func watch(_ id: UInt64) -> WatchStripe { watches[Int(id % UInt64(Self.watchStripes))] }

    init(configuration: HTTPServerConfiguration, responder: any HTTPResponder) {
        self.configuration = configuration
        self.responder = responder
        nonceSeed = configuration.authentication == nil ? nil : NonceSeed()
        state = Mutex(State())
        let watch = ConnectionWatch(
            requestTimeout: ConnectionWatch.timeout(seconds: configuration.requestTimeoutSeconds),
            idleTimeout: ConnectionWatch.timeout(seconds: Double(configuration.idleTimeoutSeconds)))
        watches = (0..<Self.watchStripes).map { _ in WatchStripe(watch) }
    }

    /// Each connection's memory pool in libmicrohttpd: the request head and the response head live in
    /// it, and bodies pass through it in pieces. libmicrohttpd 0.9.75 zeroes the whole pool before every
    /// keep-alive request, so its size is paid per request: at 64 KiB that was an eighth of the CPU of
    /// a `/playback-info` answer. 16 KiB holds heads of about 15 KiB (nginx's default is 8 KiB a line).
    static let connectionMemory = 16 * 1024

    // MARK: - Lifecycle

    func start() throws -> UInt16 {
        if let failure = COnDemand_microhttpdFailure() { throw HTTPServerError.libraryMissing(String(cString: failure)) }
        var address = try SocketAddress(configuration.address, port: configuration.port)
        let closure = Unmanaged.passUnretained(self).toOpaque()
        let isIPv6 = address.isIPv6
        let seed = nonceSeed?.bytes
        let limit = max(0, configuration.connectionLimit)
        let threads = switch configuration.polling {
        case .shared: 0
        // libmicrohttpd gives each thread a share of the connection limit, and refuses a share of none.
        case .ownThreads(let count): max(1, limit == 0 ? count : min(count, limit))
        }
        let listener = try configuration.front.map { _ in try ListeningSocket(on: address) }
        let daemon = address.withSockaddr { sockaddr in
            airlab_mhd_start(
                sockaddr, isIPv6, listener == nil, UInt32(clamping: threads), UInt32(clamping: limit),
                UInt32(clamping: max(0, configuration.idleTimeoutSeconds)), Self.connectionMemory,
                seed?.baseAddress, seed?.count ?? 0, seed == nil ? 0 : Self.nonceSlots,
                DaemonCallbacks.access, DaemonCallbacks.completed, DaemonCallbacks.connection, DaemonCallbacks.requestLine,
                closure)
        }
        guard let daemon else {
            listener?.close()
            throw HTTPServerError.cannotListen(address: configuration.address, port: configuration.port)
        }
        if threads == 0 {
            let registration = ServerLoop.shared.register(daemon)
            loop = registration
            ServerLoop.shared.start(registration)
        }
        state.withLock { $0.daemon = MHDHandle(daemon) }
        ServerSweeper.shared.add(
            self, sweepEvery: ConnectionWatch.sweepInterval(requestTimeout: ConnectionWatch.timeout(seconds: configuration.requestTimeoutSeconds)),
            heartbeatEvery: .seconds(max(0.05, configuration.heartbeatIntervalSeconds)))
        if let listener, let decide = configuration.front {
            // The front runs on the loop thread that runs the daemon (or, for a daemon with threads of
            // its own, the least busy one), so that handing it a connection never races its polling.
            let front = ConnectionFront(listener: listener, thread: loop?.thread ?? ServerLoop.shared.leastBusyThread(), core: self, decide: decide)
            self.front = front
            front.start()
            return listener.port
        }
        return airlab_mhd_bound_port(daemon)
    }

    /// Wakes every suspended connection, ends streams and upgraded connections, then stops
    /// libmicrohttpd, which must find no connection suspended.
    func stop() {
        struct Shutdown {
            var daemon: MHDHandle
            var streams: [SSEStream]
            var bodies: [StreamedBody]
            var upgrades: [UpgradedConnection]
        }
        let shutdown: Shutdown? = state.withLock { state in
            guard !state.stopping, let daemon = state.daemon else { return nil }
            state.stopping = true
            isStopping.store(true, ordering: .releasing)
            for context in state.waiting.values {
                context.response = .text("The server is stopping.\n", status: 503)
                handle(context.connection).resume()
            }
            state.waiting = [:]
            return Shutdown(
                daemon: daemon, streams: Array(state.streams.values),
                bodies: Array(state.bodies.values), upgrades: Array(state.upgrades.values))
        }
        guard let shutdown else { return }
        // No connection comes in once stopping; the relays' sender sides close with the front.
        front?.stop()
        ServerSweeper.shared.remove(self)
        for stream in shutdown.streams { stream.releaseForShutdown() }
        for body in shutdown.bodies { body.releaseForShutdown() }
        for upgrade in shutdown.upgrades { upgrade.closeForShutdown() }
        // A daemon on the shared loop is stopped once the loop will not run it again.
        if let loop { ServerLoop.shared.remove(loop) }
        MHD_stop_daemon(shutdown.daemon.pointer)
        state.withLock { $0.daemon = nil }
    }

    var statistics: HTTPServerStatistics {
        state.withLock {
            HTTPServerStatistics(
                openConnections: $0.openConnections, acceptedConnections: $0.acceptedConnections,
                eventStreams: $0.streams.count, upgradedConnections: $0.upgrades.count,
                closedPastDeadline: $0.closedPastDeadline, closedPeerGone: $0.closedPeerGone)
        }
    }

    /// Shuts down the connections past their deadline and those waiting for a request whose peer has
    /// gone. Shutting a socket down wakes libmicrohttpd, which reads its end and closes it.
    ///
    /// Each stripe under its lock: libmicrohttpd reports a connection closed (which takes its stripe's
    /// lock) before it closes its socket, so no descriptor here can have been closed and reused for
    /// another connection. The closes are counted before the sockets are shut down, so that a client
    /// that sees its connection end finds it already counted.
    func sweepConnections() {
        guard !isStopping.load(ordering: .acquiring), state.withLock({ $0.openConnections }) > 0 else { return }
        for stripe in watches {
            stripe.watch.withLock { watch in
                let expired = watch.takeExpired(at: .now, unread: PeerDeparture.hasUnreadBytes)
                let departed = PeerDeparture.departed(among: watch.waitingForRequest)
                guard !expired.isEmpty || !departed.isEmpty else { return }
                for closure in departed { watch.markClosing(closure.id) }
                state.withLock { state in
                    state.closedPastDeadline += expired.count
                    state.closedPeerGone += departed.count
                }
                for closure in expired + departed { _ = shutdown(closure.descriptor, Int32(SHUT_RDWR)) }
            }
        }
    }

    func sendHeartbeats() {
        let streams = state.withLock { Array($0.streams.values) }
        for stream in streams { stream.sendComment("heartbeat") }
    }

    /// `connection` with what resuming it takes.
    func handle(_ connection: OpaquePointer) -> ConnectionHandle {
        ConnectionHandle(pointer: connection, loop: loop)
    }

    // MARK: - Answering, on the polling thread

    /// The request is complete: answer now if a task already did or the responder can, else suspend
    /// the connection and ask the responder in a task.
    ///
    /// A fresh request takes no lock shared with the other polling threads: only one resumed from a
    /// handler's task reads what the task left under the lock.
    func answer(_ context: RequestContext) -> Bool {
        if context.handedToTask {
            let response: HTTPResponse? = state.withLock { _ in
                defer { context.response = nil }
                return context.response
            }
            if let response { return queue(response, for: context) }
        }
        if isStopping.load(ordering: .acquiring) { return queue(.text("The server is stopping.\n", status: 503), for: context) }
        let request = context.request
        if let response = responder.immediateResponse(to: request) {
            return queue(response, for: context)
        }
        let suspended = state.withLock { state in
            guard !state.stopping else { return false }
            state.waiting[ObjectIdentifier(context)] = context
            context.handedToTask = true
            MHD_suspend_connection(context.connection)
            return true
        }
        guard suspended else { return queue(.text("The server is stopping.\n", status: 503), for: context) }
        let responder = responder
        // Above default priority on purpose: libdispatch on Linux keeps one thread pool per
        // priority and grows a busy one only about once a second, so a handler queued behind
        // blocking work at default priority waited 1–2 s per request on 2 cores.
        Task(priority: .userInitiated) { [self] in
            let response = await responder.respond(to: request)
            deliver(response, to: context)
        }
        return true
    }

    /// A handler's task finished: hand its response to the polling thread by resuming the
    /// connection, unless the server stopped (and answered 503) in the meantime.
    private func deliver(_ response: HTTPResponse, to context: RequestContext) {
        state.withLock { state in
            guard state.waiting.removeValue(forKey: ObjectIdentifier(context)) != nil else { return }
            context.response = response
            handle(context.connection).resume()
        }
    }

    /// Queues `response` on the connection; false closes the connection.
    func queue(_ response: HTTPResponse, for context: RequestContext) -> Bool {
        let status = (100...999).contains(response.status) ? response.status : 500
        switch response.body {
        case .bytes(let body):
            return queueBytes(body, status: status, headers: response.headers, on: context.connection)
        case .eventStream(let stream):
            return queueEventStream(stream, status: status, headers: response.headers, for: context)
        case .upgrade(let upgrade):
            return queueUpgrade(upgrade, headers: response.headers, for: context)
        case .stream(let body):
            return queueStreamedBody(body, status: status, headers: response.headers, for: context)
        }
    }

    func queueBytes(_ body: Data, status: Int, headers: HTTPHeaders, on connection: OpaquePointer) -> Bool {
        let response = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return false }
        defer { MHD_destroy_response(response) }
        Self.add(headers, to: response)
        return MHD_queue_response(connection, UInt32(status), response) == .YES
    }

    private func queueEventStream(_ stream: SSEStream, status: Int, headers: HTTPHeaders, for context: RequestContext) -> Bool {
        let retained = Unmanaged.passRetained(stream).toOpaque()
        guard let response = MHD_create_response_from_callback(
            airlab_mhd_size_unknown(), 1024, DaemonCallbacks.streamRead, retained, DaemonCallbacks.streamFree)
        else {
            Unmanaged<SSEStream>.fromOpaque(retained).release()
            return false
        }
        defer { MHD_destroy_response(response) }
        Self.add(headers, to: response)
        let registered = state.withLock { state in
            guard !state.stopping else { return false }
            state.streams[ObjectIdentifier(stream)] = stream
            return true
        }
        guard registered else { return false }
        stream.attach(to: handle(context.connection))
        context.stream = stream
        guard MHD_queue_response(context.connection, UInt32(status), response) == .YES else {
            unregister(stream)
            stream.detach(clientLeft: true)
            return false
        }
        return true
    }

    private func queueStreamedBody(_ body: StreamedBody, status: Int, headers: HTTPHeaders, for context: RequestContext) -> Bool {
        let retained = Unmanaged.passRetained(body).toOpaque()
        guard let response = MHD_create_response_from_callback(
            body.length ?? airlab_mhd_size_unknown(), 32 * 1024, DaemonCallbacks.bodyRead, retained, DaemonCallbacks.bodyFree)
        else {
            Unmanaged<StreamedBody>.fromOpaque(retained).release()
            body.detach(delivered: false)
            return false
        }
        defer { MHD_destroy_response(response) }
        Self.add(headers, to: response)
        let registered = state.withLock { state in
            guard !state.stopping else { return false }
            state.bodies[ObjectIdentifier(body)] = body
            return true
        }
        guard registered else {
            body.detach(delivered: false)
            return false
        }
        body.attach(to: handle(context.connection))
        context.streamedBody = body
        guard MHD_queue_response(context.connection, UInt32(status), response) == .YES else {
            context.streamedBody = nil
            unregister(body)
            body.detach(delivered: false)
            return false
        }
        return true
    }

    private func queueUpgrade(_ upgrade: UpgradedConnection, headers: HTTPHeaders, for context: RequestContext) -> Bool {
        // libmicrohttpd 0.9.75 sends a 101 even to a request that asked for no upgrade.
        let connectionTokens = context.headers.values(for: "Connection")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard connectionTokens.contains("upgrade"), context.headers["Upgrade"] != nil else {
            upgrade.abandon()
            return queueBytes(
                Data("This resource needs 'Connection: Upgrade' and an 'Upgrade' header.\n".utf8), status: 400,
                headers: ["Content-Type": "text/plain; charset=utf-8"], on: context.connection)
        }
        guard let response = MHD_create_response_for_upgrade(DaemonCallbacks.upgraded, nil) else { return false }
        defer { MHD_destroy_response(response) }
        Self.add(headers, to: response)
        let key = ObjectIdentifier(upgrade)
        let registered = state.withLock { state in
            guard !state.stopping else { return false }
            state.upgrades[key] = upgrade
            return true
        }
        guard registered else {
            upgrade.abandon()
            return false
        }
        upgrade.register(loop: loop) { [weak self] in self?.unregister(upgrade: key) }
        context.upgrade = upgrade
        guard MHD_queue_response(context.connection, 101, response) == .YES else {
            context.upgrade = nil
            upgrade.abandon()
            return false
        }
        return true
    }

    private static func add(_ headers: HTTPHeaders, to response: OpaquePointer) {
        addDate(to: response)
        for field in headers.fields {
            // libmicrohttpd sets the framing headers itself; a second copy would contradict it.
            if field.name.caseInsensitiveEquals("Content-Length") || field.name.caseInsensitiveEquals("Transfer-Encoding") {
                continue
            }
            _ = MHD_add_response_header(response, field.name, field.value)
        }
    }

    /// Every response carries its date, as RFC 9110 asks of a server with a clock. libmicrohttpd's own
    /// (turned off in `airlab_mhd_start`) comes from `gmtime_r`, whose process-wide time-zone lock the
    /// polling threads queued on for every response (a third of the server's futex waits under wrk).
    static func addDate(to response: OpaquePointer) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        HTTPDate.withFormatted(secondsSince1970: Int(now.tv_sec)) { _ = MHD_add_response_header(response, "Date", $0) }
    }

    // MARK: - The connection watch, on the polling thread

    func connectionOpened(_ id: UInt64, descriptor: Int32) {
        watch(id).watch.withLock { $0.opened(id, descriptor: descriptor, at: .now) }
        if front != nil {
            channels.withLock { channels in
                if let channel = channels.byDescriptor.removeValue(forKey: descriptor) { channels.byConnection[id] = channel }
            }
        }
    }

    func connectionClosed(_ id: UInt64) {
        if front != nil { _ = channels.withLock { $0.byConnection.removeValue(forKey: id) } }
    }

    /// The relay's channel of a connection; nil for one libmicrohttpd took directly.
    func channel(of id: HTTPConnectionID) -> SecureChannel? {
        guard front != nil else { return nil }
        return channels.withLock { $0.byConnection[id.rawValue] }
    }

    // MARK: - The front's hand-over, on its loop thread

    /// Notes the channel of the relay whose local end `descriptor` is about to be added.
    func register(_ channel: SecureChannel, forLocalDescriptor descriptor: Int32) {
        channels.withLock { $0.byDescriptor[descriptor] = channel }
    }

    /// Gives libmicrohttpd a connection the front accepted (or a relay's local end), named by the
    /// sender's address; libmicrohttpd closes it if it cannot take it.
    func addConnection(_ descriptor: Int32, peer: SocketAddress.Storage, on thread: LoopThread) {
        guard let daemon = state.withLock({ $0.stopping ? nil : $0.daemon }) else {
            close(descriptor)
            return
        }
        var peer = peer
        let added = peer.withSockaddr { address, length in MHD_add_connection(daemon.pointer, descriptor, address, length) }
        if added != .YES {
            _ = channels.withLock { $0.byDescriptor.removeValue(forKey: descriptor) }
        }
        // A daemon this thread runs learns of the connection at its next run.
        if let loop, loop.thread === thread { thread.runAtOnce(loop) }
    }

    func requestLineArrived(on id: HTTPConnectionID) {
        watch(id.rawValue).watch.withLock { $0.requestLineArrived(id.rawValue, at: .now) }
    }

    func requestComplete(on id: HTTPConnectionID) {
        watch(id.rawValue).watch.withLock { $0.requestComplete(id.rawValue) }
    }

    func responseFinished(on id: HTTPConnectionID, upgraded: Bool) {
        watch(id.rawValue).watch.withLock { $0.responseFinished(id.rawValue, upgraded: upgraded, at: .now) }
    }

    // MARK: - Registry

    func unregister(_ stream: SSEStream) {
        _ = state.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    func unregister(_ body: StreamedBody) {
        _ = state.withLock { $0.bodies.removeValue(forKey: ObjectIdentifier(body)) }
    }

    func unregister(upgrade key: ObjectIdentifier) {
        _ = state.withLock { $0.upgrades.removeValue(forKey: key) }
    }

    /// Only a request handed to a task was ever waiting.
    func forget(_ context: RequestContext) {
        guard context.handedToTask else { return }
        _ = state.withLock { $0.waiting.removeValue(forKey: ObjectIdentifier(context)) }
    }
}
