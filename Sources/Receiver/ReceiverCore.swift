import Casting
import Emulation
import Foundation
import HTTP
import SenderProtocol
import Synchronization

/// What one receiver knows and does, apart from the HTTP server: the session playing, casts being
/// loaded, the listeners, the stored reports and the counters.
///
/// Lock order, to stay free of deadlocks: this receiver's lock, then a session's, then the hub's and
/// the store's. A session never calls back into the receiver while holding its own lock: it reports
/// its end afterwards, in a task of its own.
final class ReceiverCore: Sendable {
    let configuration: ReceiverConfiguration
    let identity: ReceiverIdentity
    let planner: CastPlanner
    let hub = EventHub()
    let store: SessionStore
    let metrics = ReceiverMetrics()
    /// Warnings for the log (a report that could not be written); read by whoever logs.
    let log: @Sendable (String) -> Void

    private struct Sessions {
        var current: PlaybackSession?
        /// Every /play takes the next ticket; only the latest may start its session.
        var latestTicket: UInt64 = 0
        /// Connections whose /play is still loading, and whether they closed meanwhile.
        var loading: [HTTPConnectionID: Bool] = [:]
        var stopping = false
    }

    private let sessions = Mutex(Sessions())
    /// How many connections the server holds open; set once the server exists.
    private let connectionCount = Mutex<(@Sendable () -> Int)?>(nil)

    func countConnections(with source: @escaping @Sendable () -> Int) {
        connectionCount.withLock { $0 = source }
    }

    func openConnections() -> Int {
        connectionCount.withLock { $0 }?() ?? 0
    }

    init(configuration: ReceiverConfiguration, planner: CastPlanner, log: @escaping @Sendable (String) -> Void) throws(ReceiverError) {
        self.configuration = configuration
        self.planner = planner
        self.log = log
        identity = ReceiverIdentity(
            name: configuration.name, model: configuration.profile.model,
            deviceIDSeed: configuration.profile.deviceIDSeed ?? configuration.profile.name, hasPassword: configuration.password != nil,
            profile: configuration.profile.name)
        store = try SessionStore(directory: configuration.stateDirectory)
        for file in store.unreadable { log("state directory: \(file) is not a readable session report; left as it is") }
    }

    var current: PlaybackSession? {
        sessions.withLock { $0.current }
    }

    /// The session playing now, if any is.
    var active: PlaybackSession? {
        current.flatMap { $0.isActive ? $0 : nil }
    }

    // MARK: - Casting

    /// `POST /play`: loads the cast, replaces the session playing, starts the new one. Returns once it
    /// plays, or with the reason it cannot.
    func play(_ request: PlayRequest, connection: HTTPConnectionID) async throws(ProtocolError) -> PlaybackSession {
        try checkScheme(of: request.contentLocation)
        let attachedTo: HTTPConnectionID? = request.detached ? nil : connection
        let ticket: UInt64 = try sessions.withLock { sessions throws(ProtocolError) in
            guard !sessions.stopping else { throw ProtocolError(status: 503, "the receiver is shutting down") }
            sessions.latestTicket += 1
            if let attachedTo { sessions.loading[attachedTo] = false }
            // A new cast replaces the one playing at once, as a TV switches to what it was sent.
            sessions.current?.end(reason: "replaced by a new cast")
            return sessions.latestTicket
        }
        defer { if let attachedTo { _ = sessions.withLock { $0.loading.removeValue(forKey: attachedTo) } } }

        var castRequest = CastRequest(
            playlist: request.contentLocation, clientEvents: request.clientEvents,
            automaticallyHandlesInterstitials: request.automaticallyHandlesInterstitialEvents, preferredLanguage: request.preferredLanguage)
        if case .seconds(let seconds) = request.start { castRequest.startPosition = seconds }
        let seed = request.seed ?? configuration.seed
        let prepared: PreparedCast
        let cast: CastPlan
        do throws(CastError) {
            var loaded = try await planner.prepare(castRequest)
            if case .fraction(let fraction) = request.start, !loaded.media.isLive {
                // Old senders give a fraction of the duration, which only the playlist knows.
                loaded.request.startPosition = fraction * loaded.media.duration
            }
            prepared = loaded
            cast = try await planner.plan(prepared, profile: configuration.profile, seed: seed)
        } catch {
            metrics.countCastRefused()
            throw ProtocolError(status: 422, "\(error.input): \(error.reason)")
        }

        let session = PlaybackSession(
            id: UUID().uuidString.lowercased(),
            request: SessionRequest(senderSessionID: request.sessionID, connection: attachedTo, script: request.script ?? SenderScript()),
            prepared: prepared, cast: cast, planner: planner, timeScale: configuration.timeScale,
            publish: { [hub, metrics] session, events in
                metrics.count(events)
                hub.publish(events, senderSessionID: session.senderSessionID, sessionID: session.id)
            },
            store: { [store, log] session, report in
                let entry = SessionStore.Entry(
                    id: session.id, startedAt: session.startedAt, profile: session.profile.name, playlist: session.playlist,
                    endReason: report.endReason)
                if let failure = store.save(entry, report: report) { log(failure) }
            },
            ended: { [weak self] session in
                Task { self?.sessionEnded(session) }
            })
        try sessions.withLock { sessions throws(ProtocolError) in
            guard !sessions.stopping else { throw ProtocolError(status: 503, "the receiver is shutting down") }
            guard sessions.latestTicket == ticket else { throw ProtocolError(status: 409, "a later /play replaced this one before it started") }
            if let attachedTo, sessions.loading[attachedTo] == true {
                throw ProtocolError(status: 409, "the sender closed the connection that sent /play while the cast loaded")
            }
            sessions.current = session
            metrics.countSessionStarted()
            session.start(at: prepared.request.startPosition ?? cast.startPosition)
        }
        return session
    }

    /// Only http and https are fetched unless the receiver allows file URLs (DESIGN.md §8).
    private func checkScheme(of location: String) throws(ProtocolError) {
        let scheme = URL(string: location)?.scheme?.lowercased()
        if scheme == "http" || scheme == "https" { return }
        if scheme == nil || scheme == "file" {
            guard configuration.allowsFileURLs else {
                throw ProtocolError("'\(location)' is a local file; this receiver fetches only http and https URLs (start airlabd with --allow-file-urls)")
            }
            return
        }
        throw ProtocolError("'\(location)' uses the scheme '\(scheme!)'; only http and https URLs can be cast")
    }

    private func sessionEnded(_ session: PlaybackSession) {
        metrics.countSessionEnded()
        sessions.withLock { sessions in
            if sessions.current === session { sessions.current = nil }
        }
    }

    // MARK: - Connections

    /// A TCP connection closed: a legacy sender leaving ends the session its /play started.
    func connectionClosed(_ connection: HTTPConnectionID) {
        sessions.withLock { sessions in
            if sessions.loading[connection] != nil { sessions.loading[connection] = true }
            if let session = sessions.current, session.connection == connection {
                session.end(reason: "the sender closed the connection that sent /play")
            }
        }
    }

    // MARK: - Shutdown

    /// Ends the session playing with reason `shutdown` (its report is written before this returns)
    /// and refuses new casts.
    func shutdown() {
        sessions.withLock { sessions in
            sessions.stopping = true
            sessions.current?.end(reason: "shutdown")
        }
        hub.closeAll()
    }
}
