import Foundation
import Pairing
import Playback
import SenderProtocol
import Sessions
import Transport

/// The sender's side of the protocol with one receiver: play, drive, observe, and read reports.
///
/// Every call is one transfer on the process's transfer loop (libcurl). Each closes its connection
/// when it is answered, except where the caller passes a `ReceiverConnection`: an attached cast sends
/// `/play` and its polling on one connection kept open, because closing the connection that sent
/// `/play` stops a session; on AirPlay 2 that connection is the paired, encrypted one. libcurl answers
/// a password-protected receiver's Digest challenge.
public struct ReceiverClient: Sendable {
    /// Which AirPlay path a sender takes (`--protocol 1|2`).
    public enum ProtocolChoice: String, Sendable {
        /// The one the receiver's record says: AirPlay 2 when its features have bit 38 or 48.
        case automatic
        case airPlay1 = "1"
        case airPlay2 = "2"
    }

    public var receiver: Receiver
    /// Seconds to connect and, afterwards, to wait for an answer or for the next bytes of one.
    public var timeout: Double
    public var password: String?
    public var protocolChoice = ProtocolChoice.automatic
    /// Where `airlab pair` keeps credentials: an AirPlay 2 connection verifies a receiver paired with
    /// before, and pairs transiently with any other.
    public var pairings: SenderPairings?

    /// Answers larger than this are refused rather than held in memory.
    static let maximumAnswerBytes = 64 << 20
    /// The user AirPlay receivers ask for.
    static let user = "AirPlay"

    public init(_ receiver: Receiver, timeout: Double = 10, password: String? = nil) {
        self.receiver = receiver
        self.timeout = timeout
        self.password = password
    }

    // MARK: - Commands

    /// `POST /play`: returns once the receiver has loaded the playlist and started the session.
    ///
    /// Loading fetches and probes the playlist and every interstitial, so this waits longer than other calls.
    ///
    /// On an AirPlay 2 connection the body is the property list a real receiver reads (`PlayOrder.airPlay2Body`),
    /// and playback starts with `POST /rate?value=1`, since such a receiver loads a cast paused.
    ///
    /// Without a `connection`, an AirPlay 2 receiver gets `/play` on a connection set up for it and
    /// closed once the session started: for a detached order, which plays on without its sender.
    public func play(_ order: PlayOrder, on connection: ReceiverConnection? = nil) async throws(ReceiverError) -> StartedSession {
        if connection == nil, order.detached, path() == .airPlay2 {
            let paired = try await connect()
            defer { paired.close() }
            return try await play(order, on: paired)
        }
        if let connection, connection.path == .airPlay2 {
            let senderSession = order.sessionID ?? UUID().uuidString
            let response = try await exchange(
                .post, Route.play.path(), body: order.airPlay2Body(sessionID: senderSession), type: Self.binaryPlistType,
                headers: [("X-Apple-Session-ID", senderSession), ("X-Apple-ProtocolVersion", "1"), ("X-Apple-Stream-ID", "1")],
                on: connection, timeout: max(timeout, 60))
            _ = try await exchange(.post, QueryCommand.target(of: .setRate(1)) ?? "/rate?value=1.000000", on: connection)
            // A real receiver answers with no body; airlab's names its session, as for JSON.
            return (try? WireJSON.decoder.decode(StartedSession.self, from: response.body)) ?? StartedSession(sessionID: senderSession)
        }
        let response = try await exchange(.post, Route.play.path(), json: order.jsonBody(), on: connection, timeout: max(timeout, 60))
        do {
            return try WireJSON.decoder.decode(StartedSession.self, from: response.body)
        } catch {
            throw failure(.unreadableAnswer("the /play answer has no sessionID: \(response.text.prefix(120))"))
        }
    }

    /// Sends a command that has a route of its own (`QueryCommand`): `POST /scrub?position=S` seeks,
    /// `POST /rate?value=R` sets the rate (0 pauses, 1 plays), `POST /stop` ends the session if one plays.
    ///
    /// Without a `connection`, an AirPlay 2 receiver gets the command on a connection paired for it
    /// (as a second sender's remote does), an AirPlay 1 receiver on a plain one.
    public func send(_ command: PlaybackCommand, on connection: ReceiverConnection? = nil) async throws(ReceiverError) {
        guard let target = QueryCommand.target(of: command) else {
            preconditionFailure("\(command) has no route of its own; QueryCommand lists the ones that do")
        }
        if connection == nil, path() == .airPlay2 {
            let paired = try await connect(settingUp: false)
            defer { paired.close() }
            _ = try await exchange(.post, target, on: paired)
            return
        }
        _ = try await exchange(.post, target, on: connection)
    }

    /// `POST /stop`: what a lab does to every receiver it cast to, when it is done.
    public func stop(on connection: ReceiverConnection? = nil) async throws(ReceiverError) {
        try await send(.stop, on: connection)
    }

    // MARK: - Observing

    /// This client with what the receiver's `/server-info` says it is added to what was known
    /// (`Receiver.filled(from:)`); unchanged when it does not answer.
    public func identified() async -> ReceiverClient {
        guard let info = try? await serverInfo() else { return self }
        var client = self
        client.receiver = receiver.filled(from: info)
        return client
    }

    /// `GET /server-info`: who the receiver says it is.
    public func serverInfo() async throws(ReceiverError) -> ServerInfo {
        let response = try await exchange(.get, Route.serverInfo.path())
        guard let info = ServerInfo(propertyList: response.body) else {
            throw failure(.unreadableAnswer("/server-info is not a property list dictionary"))
        }
        return info
    }

    /// `GET /scrub`: where playback is (in an interstitial: in that interstitial).
    public func progress(on connection: ReceiverConnection? = nil) async throws(ReceiverError) -> PlaybackProgress {
        let response = try await exchange(.get, Route.scrub.path(), on: connection)
        return PlaybackProgress(scrubText: response.text)
    }

    /// `GET /sessions`: current and past sessions, in the order they started.
    public func sessions() async throws(ReceiverError) -> [SessionSummary] {
        let response = try await exchange(.get, Route.sessions.path())
        do {
            return try WireJSON.decoder.decode(SessionList.self, from: response.body).sessions
        } catch {
            throw failure(.unreadableAnswer("/sessions is not the session list: \(error)"))
        }
    }

    /// `GET /sessions/{id}`: the session's report, so far when it still plays.
    public func report(ofSession id: String) async throws(ReceiverError) -> SessionReport {
        let response = try await exchange(.get, SessionPath.report(id).target)
        do {
            return try WireJSON.decoder.decode(SessionReport.self, from: response.body)
        } catch {
            throw failure(.unreadableAnswer("the report of session \(id) is not a session report: \(error)"))
        }
    }

    /// `GET /sessions/{id}/fetches`: the session's fetch trace, for `airlab simulate --fetch-trace`.
    public func fetchTrace(ofSession id: String) async throws(ReceiverError) -> FetchTrace {
        let response = try await exchange(.get, SessionPath.fetches(id).target)
        do throws(FetchTrace.Failure) {
            return try FetchTrace(parsing: response.body)
        } catch {
            throw failure(.unreadableAnswer("the fetch trace of session \(id) is not a fetch trace: \(error)"))
        }
    }

    /// `GET /events`, connected: events come from the returned feed until it is closed.
    public func subscribe() async throws(ReceiverError) -> ReceiverEventFeed {
        try await ReceiverEventFeed.connect(self)
    }

    // MARK: - The exchange

    /// The URL of `target` (a path and query) on the receiver.
    func url(_ target: String) -> String {
        "http://\(receiver.address)\(target)"
    }

    /// A request to the receiver with this client's timeouts and password.
    ///
    /// - Parameter wait: seconds for the answer's first byte, and the most that may pass with less than
    ///   a byte a second after it; the whole answer gets three times that, and a minute at least.
    func request(_ method: TransferRequest.Method, _ target: String, wait: Double) -> TransferRequest {
        let bounded = min(max(wait, 0.001), 3_600)
        var request = TransferRequest(
            url: url(target), method: method, connectTimeout: .seconds(min(max(timeout, 0.001), 3_600)), firstByteTimeout: .seconds(bounded),
            lowSpeed: TransferRequest.LowSpeed(bytesPerSecond: 1, seconds: Int(bounded.rounded(.up))),
            totalTimeout: .seconds(max(3 * bounded, 60)), bodyLimit: Self.maximumAnswerBytes)
        request.digest = password.map { TransferRequest.DigestLogin(username: Self.user, password: $0) }
        return request
    }

    static let binaryPlistType = "application/x-apple-binary-plist"

    /// Sends a request (on `connection`'s kept connection, or on a connection closed after the answer)
    /// and returns a 2xx answer; any other status becomes the `ReceiverError` it means.
    func exchange(
        _ method: TransferRequest.Method, _ target: String, json body: Data? = nil, on connection: ReceiverConnection? = nil, timeout: Double? = nil,
        accept: String? = nil
    ) async throws(ReceiverError) -> ReceiverAnswer {
        try await exchange(method, target, body: body, type: body == nil ? nil : "application/json", on: connection, timeout: timeout, accept: accept)
    }

    /// As above with a body of any type. An RTSP method (or `rtsp`) on an AirPlay 2 connection gets
    /// the `CSeq` that has the relay send it as RTSP/1.0.
    func exchange(
        _ method: TransferRequest.Method, _ target: String, body: Data?, type: String?, headers: [(name: String, value: String)] = [],
        rtsp: Bool = false, on connection: ReceiverConnection?, timeout: Double? = nil, accept: String? = nil
    ) async throws(ReceiverError) -> ReceiverAnswer {
        var request = request(method, target, wait: timeout ?? self.timeout)
        if let accept { request.headers.append(("Accept", accept)) }
        if let body {
            request.body = body
            if let type { request.headers.append(("Content-Type", type)) }
        }
        request.headers += headers
        if let connection, connection.path == .airPlay2, rtsp || [.setup, .record, .teardown].contains(method) {
            request.headers.append(("CSeq", connection.nextSequence()))
        }
        request.pool = connection?.pool
        request.reusesConnection = connection != nil
        let result = await TransferLoop.shared.fetch(request)
        if let error = result.error {
            throw failure(Self.problem(error, during: "\(method.rawValue) \(target.split(separator: "?").first ?? "")"))
        }
        let answer = ReceiverAnswer(status: result.status ?? 0, headers: result.headers.map { ($0.name, $0.value) }, body: result.body ?? Data())
        try check(answer)
        return answer
    }

    /// A transfer's failure as the problem it is for a sender: no connection at all, or a broken one.
    static func problem(_ error: TransferError, during exchange: String) -> ReceiverError.Problem {
        switch error {
        case .cannotConnect, .unknownHost, .connectTimeout: .unreachable(error.description)
        default: .connectionLost("\(exchange): \(error)")
        }
    }

    /// Turns a status outside 2xx into the problem it names.
    func check(_ response: ReceiverAnswer) throws(ReceiverError) {
        let message = response.text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        switch response.status {
        case 200..<300: return
        case 400: throw failure(.badRequest(message))
        case 401: throw failure(.passwordRequired(given: password != nil))
        case 403:
            throw failure(.refused(
                restriction: response.header(SenderEvent.restrictionHeader), eventID: response.header(SenderEvent.eventHeader), message: message))
        case 404: throw failure(.notFound(message))
        case 409: throw failure(.noSession(message))
        case 422: throw failure(.unplayable(message))
        default: throw failure(.unexpectedAnswer(status: response.status, message: message))
        }
    }

    /// An error about this receiver.
    public func failure(_ problem: ReceiverError.Problem) -> ReceiverError {
        ReceiverError(receiver: receiver.label, problem: problem)
    }
}

/// A receiver's answer: its status, header fields and body.
public struct ReceiverAnswer: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header field, its name compared without case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as UTF-8 text, invalid bytes replaced.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
