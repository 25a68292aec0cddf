import Casting
import Foundation
import HTTP
import JSONDocument
import Playback
import Reports
import SenderProtocol
import Sessions

/// The sender protocol's routes (docs/daemon.md, "The protocol") over one receiver.
///
/// Reads that only look at a snapshot and never wait (`/playback-info`, `/server-info`, `GET /scrub`,
/// `/metrics`) are answered on the server's polling thread; everything else runs in a task. Every answer carries a reason phrase
/// and a Content-Length (the HTTP module guarantees both); errors are one line of text.
struct ReceiverResponder: HTTPResponder {
    let core: ReceiverCore

    static let plistType = "text/x-apple-plist+xml"

    func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "GET", let route = Route(path: request.path) else { return nil }
        let response: HTTPResponse
        switch route {
        case .playbackInfo:
            response = HTTPResponse(status: 200, headers: ["Content-Type": Self.plistType], body: playbackInfo().propertyList())
        case .group:
            guard let reading = core.groups.clockReading(path: request.path) else { return nil }
            response = reading
        case .serverInfo:
            response = HTTPResponse(status: 200, headers: ["Content-Type": Self.plistType], body: core.serverInfoDocument)
        case .info:
            response = HTTPResponse(status: 200, headers: ["Content-Type": "application/x-apple-binary-plist"], body: core.infoDocument)
        case .scrub:
            let info = core.current?.activeEngineNow.map(PlaybackInfo.init(engine:)) ?? .noSession
            response = .text(info.scrubText(), contentType: "text/parameters")
        case .metrics:
            response = metrics()
        default:
            return nil
        }
        core.metrics.countRequest(route: route, status: response.status)
        return response
    }

    /// What the session playing shows a polling sender; a grouped session shows its group's status.
    private func playbackInfo() -> PlaybackInfo {
        guard let session = core.current, let engine = session.activeEngineNow else { return .noSession }
        var info = PlaybackInfo(engine: engine)
        if let membership = session.membership {
            let shown = membership.status(of: engine)
            info.follow(group: membership.request.groupID, status: shown.status, resumeRate: shown.resumeRate)
            info.groupSync = PlaybackInfo.GroupSync(
                error: shown.syncError, clockBound: membership.clockBound, groupTime: shown.groupTime, corrections: shown.corrections)
        }
        return info
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let response: HTTPResponse
        do throws(ProtocolError) {
            response = try await route(request)
        } catch {
            var headers: HTTPHeaders = ["Content-Type": "text/plain; charset=utf-8"]
            if error.status == 405, let allowed = Route(path: request.path)?.methods {
                headers.set("Allow", allowed.sorted().joined(separator: ", "))
            }
            response = HTTPResponse(status: error.status, headers: headers, body: Data((error.reason + "\n").utf8))
        }
        core.metrics.countRequest(route: Route(path: request.path), status: response.status)
        return response
    }

    func connectionClosed(_ connection: HTTPConnectionID) {
        // Called on the polling thread, which must not wait: ending a session writes its report.
        Task { [core] in core.connectionClosed(connection) }
    }

    // MARK: - Routing

    private func route(_ request: HTTPRequest) async throws(ProtocolError) -> HTTPResponse {
        if let method = RTSPMethod(rawValue: request.method) { return try rtsp(method, request) }
        guard let route = Route(path: request.path) else {
            throw ProtocolError(status: 404, "no endpoint \(request.path); this receiver serves \(Route.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard route.methods.contains(request.method) else {
            if route == .session { throw ProtocolError(status: 405, "\(request.path) takes GET") }
            throw ProtocolError(status: 405, "\(request.path) takes \(route.methods.sorted().joined(separator: " or ")), not \(request.method)")
        }
        if request.method == "POST", let asked = try QueryCommand.command(route, query: request.query) {
            return try command(asked)
        }
        switch route {
        case .session:
            guard let path = SessionPath(path: request.path) else {
                throw ProtocolError(status: 404, "no such session path \(request.path); sessions have /sessions/ID, /timeline.svg and /fetches")
            }
            return try sessionReport(path)
        case .play: return try await play(request)
        case .setProperty: return try await setProperty(request)
        case .getProperty: return try getProperty(request)
        case .reverse: return try reverse(request)
        case .events: return events()
        case .sessions: return sessionList()
        case .groups, .group: return try await core.groups.respond(to: request)
        case .pairPinStart, .pairSetup, .pairVerify: return try await pair(route, request)
        case .pairings, .pairing: return try await pairings(route, request)
        case .picture:
            guard let shot = ConsoleFrames.Shot(query: request.query["of"], focused: request.query["focus"] != nil) else {
                throw ProtocolError("of must be into-before, into-after, back-before or back-after (or absent: the playhead)")
            }
            let (picture, eventID) = await core.picture(shot)
            return picture.response(of: eventID)
        case .feedback: return HTTPResponse(status: 200)
        default:
            // The reads the polling thread answers (`immediateResponse`) reach here only if it did not;
            // the command routes were answered above.
            return immediateResponse(to: request) ?? HTTPResponse.text("no endpoint \(request.path)\n", status: 404)
        }
    }

    private func play(_ request: HTTPRequest) async throws(ProtocolError) -> HTTPResponse {
        let play = try PlayRequest.decode(
            body: request.body, contentType: request.headers["Content-Type"], sessionHeader: request.headers["X-Apple-Session-ID"])
        let form = PlayRequest.form(of: request.body, contentType: request.headers["Content-Type"])
        let paired = core.pairing?.pairing(of: request.connection)
        let origin = CastOrigin(
            path: paired == nil ? .airPlay1 : .airPlay2, pairing: paired ?? .none, body: form, userAgent: request.headers["User-Agent"],
            restrictions: play.restrictions)
        let session = try await core.play(play, connection: request.connection, origin: origin)
        if origin.path == .airPlay2 {
            // tvOS loads an AirPlay 2 cast paused and plays at the sender's POST /rate?value=1.
            _ = session.handle(.setRate(0))
        }
        guard play.isAirlabOrder else {
            return HTTPResponse(status: 200)
        }
        return json(StartedSession(sessionID: session.id, profile: session.profile.name, receiver: core.configuration.name))
    }

    /// A command to the session playing; a refusal by a restriction is a 403 naming it and the event.
    private func command(_ command: PlaybackCommand) throws(ProtocolError) -> HTTPResponse {
        if command == .stop {
            // Nothing to stop is not an error: a sender stops whatever may be playing.
            core.active?.end(reason: "stopped by the sender")
            return HTTPResponse(status: 200)
        }
        guard let session = core.active, let events = sessionCommand(command, to: session) else {
            throw ProtocolError(status: 409, "no session is playing; cast with POST /play first")
        }
        for refusal in events {
            guard case .commandRefused(_, let restriction, let eventID) = refusal.detail else { continue }
            // Refused without a restriction, the command itself was wrong (a negative rate): a bad request.
            guard let restriction else { throw ProtocolError(refusal.reason) }
            let error = SenderEvent.refusal(refusal)
            var headers: HTTPHeaders = ["Content-Type": "text/plain; charset=utf-8", SenderEvent.restrictionHeader: restriction.rawValue]
            if let eventID { headers.set(SenderEvent.eventHeader, eventID) }
            return HTTPResponse(status: error.status, headers: headers, body: Data((error.reason + "\n").utf8))
        }
        return HTTPResponse(status: 200)
    }

    /// What a command to `session` caused. A grouped session sends transport to its group (as
    /// AVPlayerPlaybackCoordinator intercepts rate and time), once a copy of its engine has checked
    /// SKIP and JUMP: the restrictions are the originator's to enforce.
    private func sessionCommand(_ command: PlaybackCommand, to session: PlaybackSession) -> [PlaybackEvent]? {
        guard let membership = session.membership else { return session.handle(command) }
        var trial = session.engineNow
        let tried = trial.handle(command, at: trial.now).events
        if tried.contains(where: { $0.kind == .commandRefused }) { return tried }
        return membership.senderCommand(command) ?? []
    }

    // MARK: - Properties

    private func setProperty(_ request: HTTPRequest) async throws(ProtocolError) -> HTTPResponse {
        let property = try SettableProperty(query: request.query)
        let contentType = request.headers["Content-Type"]
        let change: @Sendable (CastRequest) -> CastRequest
        switch property {
        case .presentationMode:
            let mode = try PropertyRequest.presentationMode(body: request.body, contentType: contentType)
            return try presentationMode(mode)
        case .interstitialEvents:
            let events = try PropertyRequest.interstitialEvents(body: request.body, contentType: contentType)
            change = { cast in
                var cast = cast
                cast.clientEvents = cast.clientEvents.map { $0.merging(events) } ?? events
                return cast
            }
        case .automaticallyHandlesInterstitialEvents:
            let automatic = try PropertyRequest.flag(body: request.body, contentType: contentType, property: property)
            change = { cast in
                var cast = cast
                cast.automaticallyHandlesInterstitials = automatic
                return cast
            }
        case .isInterestedInDateRange:
            _ = try PropertyRequest.flag(body: request.body, contentType: contentType, property: property)
            return plist(PropertyAnswer<JSONValue>(value: nil))
        case .actionAtItemEnd:
            let number = try PropertyRequest.actionAtItemEnd(body: request.body, contentType: contentType)
            return try itemEnd(.setActionAtItemEnd(ItemEndAction(rawValue: number) ?? .advance))
        case .forwardEndTime:
            let time = try PropertyRequest.endTime(body: request.body, contentType: contentType, property: property)
            return try itemEnd(.setForwardEndTime(time.seconds))
        case .reverseEndTime:
            // Checked only: this receiver plays no rate below 0, so reverse playback never reaches it.
            _ = try PropertyRequest.endTime(body: request.body, contentType: contentType, property: property)
            return plist(PropertyAnswer<JSONValue>(value: nil))
        case .selectedMediaArray:
            _ = try PropertyRequest.mediaSelections(body: request.body, contentType: contentType)
            return plist(PropertyAnswer<JSONValue>(value: nil))
        }
        guard let session = core.active else { throw ProtocolError(status: 409, "no session is playing; cast with POST /play first") }
        do throws(CastError) {
            try await session.change(change)
        } catch {
            throw ProtocolError(status: 422, "\(property.rawValue): \(error.reason)")
        }
        return plist(PropertyAnswer<JSONValue>(value: nil))
    }

    /// Where or how the playing session's item ends (`forwardEndTime`, `actionAtItemEnd`): the
    /// session's own, a group's members each keeping theirs.
    private func itemEnd(_ command: PlaybackCommand) throws(ProtocolError) -> HTTPResponse {
        guard let session = core.active, let events = session.handle(command) else {
            throw ProtocolError(status: 409, "no session is playing; cast with POST /play first")
        }
        if let refusal = events.first(where: { $0.kind == .commandRefused }) { throw ProtocolError(refusal.reason) }
        return plist(PropertyAnswer<JSONValue>(value: nil))
    }

    /// The session's presentation mode; picture in picture that cannot start is a 409 whose one-line
    /// reason begins with its code (`pip-not-supported`, `pip-not-possible`).
    private func presentationMode(_ mode: PresentationMode) throws(ProtocolError) -> HTTPResponse {
        guard let session = core.active, let events = session.handle(.setPresentationMode(mode)) else {
            throw ProtocolError(status: 409, "no session is playing; cast with POST /play first")
        }
        if let failure = events.first(where: { $0.kind == .pipStartFailed || $0.kind == .commandRefused }) {
            throw ProtocolError(status: 409, failure.reason)
        }
        return plist(PropertyAnswer<JSONValue>(value: nil))
    }

    private func getProperty(_ request: HTTPRequest) throws(ProtocolError) -> HTTPResponse {
        let property = try ReadableProperty(query: request.query)
        let wantsJSON = request.headers["Accept"]?.contains("application/json") == true
        let body: (data: Data, contentType: String)
        switch property {
        case .interstitialEvents:
            let value = core.active.map { PropertyResponse.interstitialEvents($0.engineNow.plan, events: $0.prepared.events) } ?? []
            body = PropertyResponse.body(value, json: wantsJSON)
        case .playbackAccessLog, .playbackErrorLog:
            // The session playing, else the last one played: a sender reads the logs after the end too.
            let latest = core.current.map { (id: $0.id, startedAt: $0.startedAt, report: $0.report) }
                ?? core.store.latest.flatMap { entry in core.store.report(id: entry.id).map { (id: entry.id, startedAt: entry.startedAt, report: $0) } }
            if property == .playbackAccessLog {
                let log = latest.map { PlaybackLogs.accessLog($0.report, sessionID: $0.id, startedAt: $0.startedAt) } ?? []
                body = PropertyResponse.body(log, json: wantsJSON)
            } else {
                let log = latest.map { PlaybackLogs.errorLog($0.report, sessionID: $0.id, startedAt: $0.startedAt) } ?? []
                body = PropertyResponse.body(log, json: wantsJSON)
            }
        }
        return HTTPResponse(status: 200, headers: ["Content-Type": body.contentType], body: body.data)
    }

    // MARK: - Events

    private func reverse(_ request: HTTPRequest) throws(ProtocolError) -> HTTPResponse {
        guard request.headers["Upgrade"]?.lowercased().hasPrefix("ptth/") == true else {
            throw ProtocolError("/reverse needs 'Upgrade: PTTH/1.0' (and 'Connection: Upgrade')")
        }
        let hub = core.hub
        let connection = UpgradedConnection(onClose: { connection, _ in hub.remove(connection) })
        greet { event, senderSessionID, _ in
            EventHub.greet(connection, with: event, senderSessionID: senderSessionID ?? request.headers["X-Apple-Session-ID"])
            hub.add(connection)
        }
        return .upgrade(to: request.headers["Upgrade"] ?? "PTTH/1.0", connection, headers: ["Connection": "Upgrade"])
    }

    private func events() -> HTTPResponse {
        let hub = core.hub
        let stream = SSEStream(onClose: { stream, _ in hub.remove(stream) })
        greet { event, _, sessionID in
            EventHub.greet(stream, with: event, sessionID: sessionID)
            hub.add(stream)
        }
        return .eventStream(stream)
    }

    /// Tells a new listener the current state and subscribes it while no event can slip in between.
    private func greet(_ subscribe: (PlaybackEvent, _ senderSessionID: String?, _ sessionID: String?) -> Void) {
        if let session = core.current {
            session.withCurrentState { engine, active in
                subscribe(Self.snapshot(engine, active: active), session.senderSessionID, active ? session.id : nil)
            }
        } else {
            subscribe(Self.snapshot(nil, active: false), nil, nil)
        }
    }

    /// A `state-changed` event describing the state now.
    static func snapshot(_ engine: PlaybackEngine?, active: Bool) -> PlaybackEvent {
        guard let engine, active else {
            return PlaybackEvent(
                time: engine?.now ?? 0, state: .idle, position: 0, rate: 0, detail: .stateChanged(in: nil, startup: nil),
                reason: "no session is playing")
        }
        let place = engine.currentInterstitial.map { BreakPlace($0.eventID, asset: $0.assetIndex) }
        return PlaybackEvent(
            time: engine.now, state: engine.state, position: engine.position, rate: engine.rate, detail: .stateChanged(in: place, startup: nil),
            reason: "the state when this listener joined")
    }

    // MARK: - Reports and metrics

    private func sessionList() -> HTTPResponse {
        let stored = core.store.listing
        var list = stored.entries.map { entry in
            SessionSummary(
                id: entry.id, profile: entry.profile, playlist: entry.playlist, active: false, state: .ended, startedAt: entry.startedAt,
                endReason: entry.endReason)
        }
        // The current session until the store lists it: one that has just ended is neither playing nor
        // stored until its report reaches the store, and a listing must not lose it in between.
        if let session = core.current, !stored.entries.contains(where: { $0.id == session.id }) {
            let active = session.isActive
            list.append(SessionSummary(
                id: session.id, profile: session.profile.name, playlist: session.playlist, active: active,
                state: active ? session.engineNow.state : .ended, startedAt: session.startedAt,
                endReason: active ? nil : session.report.endReason))
        }
        return json(SessionList(sessions: list, earlier: stored.earlier))
    }

    private func sessionReport(_ path: SessionPath) throws(ProtocolError) -> HTTPResponse {
        let id = path.sessionID
        let report: SessionReport
        if let session = core.current, session.id == id {
            report = session.report
        } else if let stored = core.store.report(id: id) {
            report = stored
        } else {
            throw ProtocolError(status: 404, "no session '\(id)' on this receiver; GET /sessions lists them")
        }
        switch path {
        case .report: return json(report)
        case .timeline: return .text(TimelineSVG.document([report]), contentType: "image/svg+xml")
        case .fetches: return try fetchTrace(ofSession: id)
        }
    }

    /// `GET /sessions/ID/fetches`: the session's fetch trace, which `airlab simulate --fetch-trace` replays.
    private func fetchTrace(ofSession id: String) throws(ProtocolError) -> HTTPResponse {
        switch core.fetchTrace(ofSession: id) {
        case .found(let trace)?:
            return json(trace)
        case .none?:
            throw ProtocolError(status: 404, "session '\(id)' fetched no segments (it played with --media probe): it has no fetch trace")
        case .forgotten?, nil:
            throw ProtocolError(
                status: 404, "the fetch trace of session '\(id)' is no longer kept: a receiver keeps its current session's and those of the last \(ReceiverCore.keptTraces) that ended")
        }
    }

    private func metrics() -> HTTPResponse {
        let text = MetricFamily.exposition(core.metricFamilies())
        return .text(text, contentType: "text/plain; version=0.0.4; charset=utf-8")
    }

    // MARK: - Bodies

    func json(_ value: some Encodable) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: WireJSON.data(value))
    }

    private func plist(_ value: some Encodable) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": Self.plistType], body: (try? XMLPropertyList(encoding: value).document()) ?? Data())
    }
}
