import Foundation
@testable import HTTP
@testable import Lab
import Playback
import Profiles
import SenderProtocol
import Sessions
import Synchronization

/// A receiver that speaks the sender protocol on 127.0.0.1 but plays nothing: a session replays the
/// events of a simulated one. It lets the sender's tests make a receiver refuse, hold a session until
/// told to stop, drop its event streams, or vanish, which the real daemon does not do on request.
final class FakeReceiver: HTTPResponder, @unchecked Sendable {
    enum Behaviour: Sendable {
        /// Plays the whole session (and stores its report) before `/play` answers, as a receiver with a
        /// very fast clock would.
        case plays
        /// Keeps the session playing until `/stop` or until the connection that sent an attached `/play` closes.
        case holds
        /// Answers `/play` with this status and one line.
        case refuses(status: Int, message: String)
        /// Answers `/play`, then stops listening altogether: once that answer is out (its connection
        /// closed, or the sender's next request arrived), so the sender sees a session start and then nothing.
        case vanishesAfterPlay
        /// Ends the session and closes every event stream before sending its `ended`.
        case dropsEventStreams
    }

    struct Session {
        var id: String
        var attachedTo: HTTPConnectionID?
        var report: SessionReport
        var active: Bool
    }

    private struct State {
        var streams: [SSEStream] = []
        var sessions: [Session] = []
        var requests: [String] = []
        var playBodies: [Data] = []
        var closedConnections: Set<HTTPConnectionID> = []
        /// The connection whose /play answer goes out before the receiver vanishes.
        var vanishAfter: HTTPConnectionID?
    }

    let name: String
    let profile: String
    let behaviour: Behaviour
    /// Asks every request for HTTP Digest credentials (user and realm `AirPlay`) when set.
    let password: String?
    private let script: SessionReport
    private let state = Mutex(State())
    private(set) var server: HTTPServer!

    /// The loopback address it listens on: another one (127.0.0.2) stands for another host.
    let address: String

    init(name: String, profile: String, behaviour: Behaviour, password: String? = nil, address: String = "127.0.0.1") throws {
        self.address = address
        self.name = name
        self.profile = profile
        self.behaviour = behaviour
        self.password = password
        script = Self.simulatedSession(profile: profile)
        // libmicrohttpd checks the credentials, as it does for airlabd: the sender's Digest answers meet a real check.
        let authentication = password.map { DigestAuthentication(password: $0) }
        server = HTTPServer(
            configuration: HTTPServerConfiguration(address: address, heartbeatIntervalSeconds: 1, authentication: authentication), responder: self)
        try server.start()
    }

    var receiver: Receiver {
        Receiver(name: name, address: ReceiverAddress(host: address, port: server.port), profile: profile)
    }

    var requests: [String] { state.withLock { $0.requests } }
    var playBodies: [Data] { state.withLock { $0.playBodies } }
    var sessions: [Session] { state.withLock { $0.sessions } }
    var closedConnections: Set<HTTPConnectionID> { state.withLock { $0.closedConnections } }

    func stop() {
        server.stop()
    }

    /// A 30 s primary with an ad at 10 s that switches in 1200 ms (a frame-rate change) and out in 40 ms.
    static func simulatedSession(profile: String) -> SessionReport {
        let ad = PlannedBreak(
            eventID: "ad-1", position: 10, resumeOffset: 0, restrictions: .skip,
            assets: [PlannedAsset(uri: "https://ads.example/ad-1.m3u8", duration: 5)],
            transitionIn: Transition(video: [
                Transition.Cost(cause: "splice", milliseconds: 50, source: "test"),
                Transition.Cost(cause: "frame_rate", milliseconds: 1150, source: "test", detail: "30/1 -> 25/1"),
            ]),
            transitionOut: Transition(video: [Transition.Cost(cause: "splice", milliseconds: 40, source: "test")]))
        return Simulation.report(
            plan: PlaybackPlan(primaryDuration: 30, breaks: [ad]),
            recorder: SessionRecorder(profile: profile, playlist: "show.m3u8", seed: 1, startPosition: 0))
    }

    // MARK: - Routes

    /// Answered on the server's own thread, never in a task: the fake does nothing that waits, and a
    /// test process whose shared threads are busy (a full suite on two loaded cores) must not hold up
    /// its answers past the sender's patience.
    func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
        answer(request)
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        answer(request)
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let vanishing = state.withLock { state -> Bool in
            state.requests.append("\(request.method) \(request.path)")
            return state.vanishAfter != nil
        }
        if vanishing {
            vanish()
            return .text("gone\n", status: 503)
        }
        switch (request.method, request.path) {
        case ("GET", "/events"):
            let stream = SSEStream()
            let current = state.withLock { state -> Session? in
                state.streams.append(stream)
                return state.sessions.last { $0.active }
            }
            stream.send(event: "state-changed", data: Self.json(
                PlaybackEvent(
                    time: 0, state: current == nil ? .idle : .playingPrimary, position: 0, rate: current == nil ? 0 : 1,
                    detail: .stateChanged(in: nil, startup: nil), reason: "greeting"),
                session: current?.id))
            return .eventStream(stream)
        case ("POST", "/play"):
            return play(request)
        case ("POST", "/stop"):
            end(reason: "stopped by the sender") { _ in true }
            return HTTPResponse(status: 200)
        case ("GET", "/scrub"):
            return .text("duration: 30.000000\nposition: 1.000000\n", contentType: "text/parameters")
        case ("GET", "/server-info"):
            return HTTPResponse(body: ServerInfo(deviceID: "02:00:00:00:00:01", model: "AirLab1,1", name: name, profile: profile).propertyList())
        case ("GET", "/sessions"):
            let list = state.withLock { state in
                state.sessions.map { session in
                    SessionSummary(
                        id: session.id, profile: profile, playlist: "show.m3u8", active: session.active,
                        state: session.active ? .playingPrimary : .ended, startedAt: nil, endReason: session.report.endReason)
                }
            }
            return HTTPResponse(body: WireJSON.data(SessionList(sessions: list)))
        case ("GET", _) where request.path.hasPrefix("/sessions/"):
            let id = String(request.path.dropFirst("/sessions/".count))
            guard let session = state.withLock({ $0.sessions.first { $0.id == id } }) else { return .text("no session '\(id)'\n", status: 404) }
            return HTTPResponse(body: try! JSONEncoder().encode(session.report))
        default:
            return .text("no endpoint \(request.path)\n", status: 404)
        }
    }

    func connectionClosed(_ connection: HTTPConnectionID) {
        let vanishing = state.withLock { state -> Bool in
            state.closedConnections.insert(connection)
            return state.vanishAfter == connection
        }
        if vanishing { vanish() }
        end(reason: "the sender closed the connection that sent /play") { $0.attachedTo == connection }
    }

    /// Stops the server from a thread of its own: stopping waits for handlers, this one among them.
    private func vanish() {
        Thread { self.server.stop() }.start()
    }

    private func play(_ request: HTTPRequest) -> HTTPResponse {
        state.withLock { $0.playBodies.append(request.body) }
        if case .refuses(let status, let message) = behaviour {
            return .text(message + "\n", status: status)
        }
        let detached = (try? WireJSON.decoder.decode(PlayOrder.self, from: request.body))?.detached ?? false
        let id = UUID().uuidString.lowercased()
        var session = Session(id: id, attachedTo: detached ? nil : request.connection, report: script, active: true)
        session.report.endReason = nil
        let events = script.events.filter { $0.kind != .ended }
        state.withLock { $0.sessions.append(session) }
        for event in events.prefix(3) { broadcast(event, session: id) }
        switch behaviour {
        case .plays:
            for event in events.dropFirst(3) { broadcast(event, session: id) }
            end(reason: script.endReason ?? "ended") { $0.id == id }
        case .holds, .refuses:
            break
        case .vanishesAfterPlay:
            state.withLock { $0.vanishAfter = request.connection }
        case .dropsEventStreams:
            state.withLock { state in
                if let index = state.sessions.firstIndex(where: { $0.id == id }) {
                    state.sessions[index].active = false
                    state.sessions[index].report = script
                }
                state.streams.forEach { $0.close() }
                state.streams = []
            }
        }
        return HTTPResponse(headers: ["Content-Type": "application/json"], body: Data("{\"sessionID\":\"\(id)\",\"profile\":\"\(profile)\",\"receiver\":\"\(name)\"}".utf8))
    }

    /// Ends the active sessions `matching`: the report is stored before `ended` goes out, as the daemon does.
    private func end(reason: String, matching: (Session) -> Bool) {
        let ended = state.withLock { state -> [(String, PlaybackEvent)] in
            var ended: [(String, PlaybackEvent)] = []
            for index in state.sessions.indices where state.sessions[index].active && matching(state.sessions[index]) {
                state.sessions[index].active = false
                state.sessions[index].report = script
                state.sessions[index].report.endReason = reason
                ended.append((state.sessions[index].id, PlaybackEvent(time: 1, state: .ended, position: 1, rate: 0, detail: .ended, reason: reason)))
            }
            return ended
        }
        for (id, event) in ended { broadcast(event, session: id) }
    }

    private func broadcast(_ event: PlaybackEvent, session: String) {
        let data = Self.json(event, session: session)
        for stream in state.withLock({ $0.streams }) { stream.send(event: event.kind.rawValue, data: data) }
    }

    static func json(_ event: PlaybackEvent, session: String?) -> String {
        SenderEvent.serverSentEvent(event, sessionID: session).data
    }
}
