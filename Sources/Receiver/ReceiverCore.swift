import Casting
import Console
import Foundation
import HTTP
import SenderProtocol
import Sessions
import Synchronization

/// What one receiver knows and does, apart from the HTTP server: the session playing, casts being
/// loaded, the listeners, the stored reports and the counters.
///
/// Its sessions play on a `SessionDriver` over a real clock at the receiver's `--time-scale`, shared by
/// the receivers of a fleet that play at one scale. No session is commanded while this receiver's lock
/// is held, and the driver hands events and reports over after releasing its own, so a report being
/// written never holds up `/playback-info`, which reads both locks.
final class ReceiverCore: Sendable {
    let configuration: ReceiverConfiguration
    let identity: ReceiverIdentity
    /// `GET /server-info`'s answer, written once: the identity never changes.
    let serverInfoDocument: Data
    /// `GET /info`'s answer, written once.
    let infoDocument: Data
    let planner: CastPlanner
    let hub = EventHub()
    let store: SessionStore
    let metrics = ReceiverMetrics()
    let driver: SessionDriver
    /// The groups this receiver hosts, on its session clock.
    let groups: GroupHost
    /// Warnings for the log (a report that could not be written); read by whoever logs.
    let log: @Sendable (String) -> Void
    /// An AirPlay 2 receiver's pairing: its identity, PIN and paired controllers; nil for AirPlay 1.
    let pairing: ReceiverPairing?
    /// The port of the event channel an AirPlay 2 sender connects to after SETUP, opened at the first.
    private let eventChannel = Mutex<SideChannelServer?>(nil)
    /// Makes the picture at this receiver's playhead (its fleet's `ConsoleFrames`); nil for a receiver
    /// outside a fleet.
    private let pictureSource = Mutex<(@Sendable (ConsoleFrames.Shot) async -> (picture: ConsoleFrames.Picture, eventID: String?))?>(nil)

    private struct Sessions {
        var current: PlaybackSession?
        /// Every /play takes the next ticket; only the latest may start its session.
        var latestTicket: UInt64 = 0
        /// Connections whose /play is still loading, and whether they closed meanwhile.
        var loading: [HTTPConnectionID: Bool] = [:]
        var stopping = false
    }

    private let sessions = Mutex(Sessions())
    /// The fetch traces of the sessions that ended last, newest last: kept in memory only, two at a
    /// time, because a trace holds a row per fetch (a 2-hour session's is a few hundred kB, as much
    /// again as its plan) and `lab run` reads it as soon as the session ends.
    private let endedTraces = Mutex<[(id: String, trace: FetchTrace)]>([])
    static let keptTraces = 2
    /// How many connections the server holds open; set once the server exists.
    private let connectionCount = Mutex<(@Sendable () -> Int)?>(nil)

    func countConnections(with source: @escaping @Sendable () -> Int) {
        connectionCount.withLock { $0 = source }
    }

    func openConnections() -> Int {
        connectionCount.withLock { $0 }?() ?? 0
    }

    /// - Parameter driver: plays the sessions; its clock must run at `configuration.timeScale`.
    init(
        configuration: ReceiverConfiguration, planner: CastPlanner, driver: SessionDriver, log: @escaping @Sendable (String) -> Void
    ) throws(ReceiverError) {
        self.configuration = configuration
        self.planner = planner
        self.driver = driver
        self.log = log
        groups = GroupHost(timeScale: configuration.timeScale, clock: driver.clock) { [metrics] group, count in
            metrics.countGroupListenersDropped(count)
            log("group \(group): dropped \(count) listener(s) whose queue was full (they read too slowly)")
        }
        var identity = configuration.identity
        if configuration.profile.device.isAirPlay2 {
            do {
                let pairing = try ReceiverPairing(deviceID: identity.deviceID, folder: configuration.stateDirectory, pin: configuration.pin)
                identity.publicKey = pairing.publicKey
                self.pairing = pairing
            } catch {
                throw ReceiverError("\(configuration.name): the pairing identity cannot be kept: \(error)")
            }
        } else {
            pairing = nil
        }
        self.identity = identity
        var serverInfo = identity.serverInfo
        serverInfo.timeScale = configuration.timeScale
        serverInfoDocument = serverInfo.propertyList()
        infoDocument = identity.deviceInfo.propertyList()
        store = try SessionStore(directory: configuration.stateDirectory)
        for file in store.unreadable { log("state directory: \(file) is not a readable session report; left as it is") }
    }

    /// This receiver's metrics at this moment, its counters and its gauges.
    func metricFamilies() -> [MetricFamily] {
        let info = ["name": configuration.name, "profile": configuration.profile.name, "deviceid": identity.deviceID]
        return metrics.families(info: info, activeSessions: active == nil ? 0 : 1, listeners: hub.count, openConnections: openConnections())
    }

    var current: PlaybackSession? {
        sessions.withLock { $0.current }
    }

    /// The session playing now, if any is.
    var active: PlaybackSession? {
        current.flatMap { $0.isActive ? $0 : nil }
    }

    /// The fetch trace of session `id`: the current session's so far, or one of the last that ended.
    enum TraceLookup {
        case found(FetchTrace)
        /// The session fetched no segments (`--media probe`).
        case none
        /// The session ended too long ago: its trace is no longer kept.
        case forgotten
    }

    func fetchTrace(ofSession id: String) -> TraceLookup? {
        if let session = current, session.id == id { return session.fetchTrace.map(TraceLookup.found) ?? TraceLookup.none }
        if let kept = endedTraces.withLock({ kept in kept.last { $0.id == id }?.trace }) { return .found(kept) }
        guard let report = store.report(id: id) else { return nil }
        return report.media == nil ? TraceLookup.none : .forgotten
    }

    // MARK: - Casting

    /// `POST /play`: loads the cast, replaces the session playing, starts the new one. Returns once it
    /// plays, or with the reason it cannot.
    func play(_ request: PlayRequest, connection: HTTPConnectionID, origin: CastOrigin) async throws(ProtocolError) -> PlaybackSession {
        try checkScheme(of: request.contentLocation)
        let attachedTo: HTTPConnectionID? = request.detached ? nil : connection
        let (ticket, replaced) = try sessions.withLock { sessions throws(ProtocolError) in
            guard !sessions.stopping else { throw ProtocolError(status: 503, "the receiver is shutting down") }
            sessions.latestTicket += 1
            if let attachedTo { sessions.loading[attachedTo] = false }
            return (sessions.latestTicket, sessions.current)
        }
        // A new cast replaces the one playing at once, as a TV switches to what it was sent.
        replaced?.end(reason: "replaced by a new cast")
        defer { if let attachedTo { _ = sessions.withLock { $0.loading.removeValue(forKey: attachedTo) } } }

        var castRequest = CastRequest(
            playlist: request.contentLocation, clientEvents: request.clientEvents,
            automaticallyHandlesInterstitials: request.automaticallyHandlesInterstitialEvents, preferredLanguage: request.preferredLanguage)
        if case .seconds(let seconds) = request.start { castRequest.startPosition = seconds }
        castRequest.sdkAds = request.sdkAds
        castRequest.sdkAdInPictureInPicture = request.sdkAdInPictureInPicture
        if let group = request.group, group.adFree || group.selector != nil {
            // A stitched item's ads are its ranges, not its interstitials; an ad-free participant plays none.
            castRequest.automaticallyHandlesInterstitials = false
        }
        let seed = request.seed ?? configuration.seed
        let prepared: PreparedCast
        var cast: CastPlan
        var grouped: GroupCastPlanning.Grouped?
        do throws(CastError) {
            var loaded = try await planner.prepare(castRequest)
            if case .fraction(let fraction) = request.start, !loaded.media.isLive {
                // Old senders give a fraction of the duration, which only the playlist knows.
                loaded.request.startPosition = fraction * loaded.media.duration
            }
            prepared = loaded
            cast = try await planner.plan(prepared, profile: configuration.profile, seed: seed)
            if let group = request.group {
                grouped = try GroupCastPlanning.grouped(cast, prepared: prepared, selector: group.selector, adFree: group.adFree, name: group.participant)
                cast.plan = grouped!.plan
            }
        } catch {
            metrics.countCastRefused()
            throw ProtocolError(status: 422, "\(error.input): \(error.reason)")
        }
        var membership: GroupMembership?
        if let group = request.group, let grouped {
            do throws(ProtocolError) {
                membership = try await GroupMembership.join(group, grouped: grouped, timeScale: configuration.timeScale, clock: driver.clock)
            } catch {
                metrics.countCastRefused()
                throw error
            }
        }

        do throws(ProtocolError) {
            try sessions.withLock { sessions throws(ProtocolError) in
                guard !sessions.stopping else { throw ProtocolError(status: 503, "the receiver is shutting down") }
                guard sessions.latestTicket == ticket else { throw ProtocolError(status: 409, "a later /play replaced this one before it started") }
                if let attachedTo, sessions.loading[attachedTo] == true {
                    throw ProtocolError(status: 409, "the sender closed the connection that sent /play while the cast loaded")
                }
            }
        } catch {
            membership?.close()
            throw error
        }
        let id = UUID().uuidString.lowercased()
        let startedAt = Date()
        let senderSessionID = request.sessionID
        let consoleSession = ConsoleSession(
            id: id, duration: prepared.media.isLive ? nil : cast.plan.primaryDuration, breaks: BreakRules(plan: cast.plan, events: prepared.events))
        let session = PlaybackSession(
            id: id, startedAt: startedAt,
            request: SessionRequest(
                senderSessionID: senderSessionID, connection: attachedTo, script: request.script ?? SenderScript(), client: configuration.name,
                timeScale: configuration.timeScale, origin: origin),
            prepared: prepared, cast: cast, planner: planner, driver: driver, membership: membership,
            callbacks: SessionCallbacks(
                publish: { [hub, metrics, membership] events in
                    metrics.count(events)
                    hub.publish(events, senderSessionID: senderSessionID, sessionID: id, session: consoleSession)
                    membership?.observe(ended: events.contains { $0.kind == .ended })
                },
                store: { [store, log, profile = cast.profile.name, playlist = prepared.request.playlist] report in
                    let entry = SessionStore.Entry(id: id, startedAt: startedAt, profile: profile, playlist: playlist, endReason: report.endReason)
                    store.save(entry, report: report, failed: log)
                },
                fetches: { [weak self] trace in
                    self?.endedTraces.withLock { kept in
                        kept.append((id, trace))
                        if kept.count > Self.keptTraces { kept.removeFirst(kept.count - Self.keptTraces) }
                    }
                },
                ended: { [weak self] in
                    Task { self?.sessionEnded(id) }
                }))
        metrics.countSessionStarted()
        // Started outside the lock (starting publishes events): what happened meanwhile ends it at once.
        let superseded: String? = sessions.withLock { sessions in
            if sessions.stopping { return "shutdown" }
            if sessions.latestTicket != ticket { return "replaced by a new cast" }
            if let attachedTo, sessions.loading[attachedTo] == true { return "the sender closed the connection that sent /play" }
            sessions.current = session
            return nil
        }
        if let superseded {
            session.end(reason: superseded)
            membership?.close()
        } else {
            membership?.attach(session)
        }
        return session
    }

    /// Only http and https are fetched unless the receiver allows file URLs (docs/daemon.md).
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

    private func sessionEnded(_ id: String) {
        metrics.countSessionEnded()
        sessions.withLock { sessions in
            if sessions.current?.id == id { sessions.current = nil }
        }
    }

    // MARK: - Connections

    /// A TCP connection closed: a legacy sender leaving ends the session its /play started.
    /// The event channel's port, opened the first time a sender asks (RTSP SETUP on `connection`). The
    /// sender's next connection to it from `peer` is encrypted with the session's event keys and gets
    /// the receiver's record as its first event (`updateInfo`), as an Apple TV sends it.
    func eventChannelPort(for connection: HTTPConnectionID, peer: String?) throws(ProtocolError) -> UInt16 {
        let server = try eventChannel.withLock { channel throws(ProtocolError) -> SideChannelServer in
            if let channel { return channel }
            do {
                let opened = try SideChannelServer(address: configuration.address, log: log)
                channel = opened
                return opened
            } catch {
                throw ProtocolError(status: 500, "the event channel cannot be opened: \(error)")
            }
        }
        if let peer, let keys = pairing?.eventChannel(of: connection) {
            server.expect(from: peer, cipher: HAPConnectionCipher(channel: keys), greeting: EventChannelMessage.updateInfo(identity.deviceInfo, sequence: 1))
        }
        return server.port
    }

    func setPictureSource(_ source: @escaping @Sendable (ConsoleFrames.Shot) async -> (picture: ConsoleFrames.Picture, eventID: String?)) {
        pictureSource.withLock { $0 = source }
    }

    /// `GET /picture`: the picture at the playhead, made at most once a second (four times for a page's
    /// tile in focus), as the console's tiles are, or one side of the last switch; with the break a
    /// switch's picture is of.
    func picture(_ shot: ConsoleFrames.Shot) async -> (picture: ConsoleFrames.Picture, eventID: String?) {
        guard let source = pictureSource.withLock({ $0 }) else { return (.none("this receiver makes no pictures"), nil) }
        return await source(shot)
    }

    /// Closes the event channel's connections (RTSP TEARDOWN).
    func closeEventChannel() {
        eventChannel.withLock { $0 }?.closeConnections()
    }

    func connectionClosed(_ connection: HTTPConnectionID) {
        pairing?.connectionClosed(connection)
        let left = sessions.withLock { sessions -> PlaybackSession? in
            if sessions.loading[connection] != nil { sessions.loading[connection] = true }
            return sessions.current.flatMap { $0.connection == connection ? $0 : nil }
        }
        left?.end(reason: "the sender closed the connection that sent /play")
    }

    // MARK: - Shutdown

    /// Ends the session playing with reason `shutdown` (its report is written before this returns)
    /// and refuses new casts.
    func shutdown() {
        let playing = sessions.withLock { sessions in
            sessions.stopping = true
            return sessions.current
        }
        playing?.end(reason: "shutdown")
        store.flush()
        groups.closeAll()
        hub.closeAll()
        eventChannel.withLock { $0 }?.stop()
    }
}
