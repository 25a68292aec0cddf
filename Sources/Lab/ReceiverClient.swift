import Foundation
import HTTP
import SenderProtocol
import Sessions

/// The sender's side of the protocol with one receiver: play, drive, observe, and read reports.
///
/// Each call opens a connection of its own and closes it, except where the caller passes one: an
/// attached cast sends `/play` and its polling on one connection kept open, because closing the
/// connection that sent `/play` stops a legacy session.
public struct ReceiverClient: Sendable {
    public var receiver: Receiver
    /// Seconds to connect and, afterwards, for each read and write.
    public var timeout: Double
    public var password: String? {
        didSet { credentials = DigestCredentials(password: password) }
    }
    /// The receiver's last Digest challenge, shared by the copies of this client, so that a request
    /// that cannot be repeated (`/play` on a connection that must stay open) is answered at once.
    private(set) var credentials: DigestCredentials?

    public init(_ receiver: Receiver, timeout: Double = 10, password: String? = nil) {
        self.receiver = receiver
        self.timeout = timeout
        self.password = password
        credentials = DigestCredentials(password: password)
    }

    // MARK: - Commands

    /// `POST /play`: returns once the receiver has loaded the playlist and started the session.
    ///
    /// Loading fetches and probes the playlist and every interstitial, so this waits longer than other calls.
    public func play(_ order: PlayOrder, on connection: HTTPClientConnection? = nil) async throws(ReceiverError) -> StartedSession {
        let request = HTTPClientRequest(
            method: "POST", target: Route.play.path(), headers: ["Content-Type": "application/json"], body: order.jsonBody())
        let response = try await exchange(request, on: connection, timeout: max(timeout, 60))
        do {
            return try WireJSON.decoder.decode(StartedSession.self, from: response.body)
        } catch {
            throw failure(.unreadableAnswer("the /play answer has no sessionID: \(response.text.prefix(120))"))
        }
    }

    /// `POST /scrub?position=S`: seeks to a primary position.
    public func seek(to position: Double) async throws(ReceiverError) {
        _ = try await exchange(HTTPClientRequest(method: "POST", target: Route.scrub.path() + "?position=\(Self.number(position))"))
    }

    /// `POST /rate?value=R`: 0 pauses, 1 plays.
    public func setRate(_ rate: Double) async throws(ReceiverError) {
        _ = try await exchange(HTTPClientRequest(method: "POST", target: Route.rate.path() + "?value=\(Self.number(rate))"))
    }

    /// `POST /stop`: ends the session, if one plays.
    public func stop() async throws(ReceiverError) {
        _ = try await exchange(HTTPClientRequest(method: "POST", target: Route.stop.path()))
    }

    // MARK: - Observing

    /// `GET /server-info`: who the receiver says it is.
    public func serverInfo() async throws(ReceiverError) -> ServerInfo {
        let response = try await exchange(HTTPClientRequest(method: "GET", target: Route.serverInfo.path()))
        guard let info = ServerInfo(propertyList: response.body) else {
            throw failure(.unreadableAnswer("/server-info is not a property list dictionary"))
        }
        return info
    }

    /// `GET /scrub`: where playback is (in an interstitial: in that interstitial).
    public func progress(on connection: HTTPClientConnection? = nil) async throws(ReceiverError) -> PlaybackProgress {
        let response = try await exchange(HTTPClientRequest(method: "GET", target: Route.scrub.path()), on: connection)
        return PlaybackProgress(scrubText: response.text)
    }

    /// `GET /sessions`: current and past sessions, in the order they started.
    public func sessions() async throws(ReceiverError) -> [SessionSummary] {
        let response = try await exchange(HTTPClientRequest(method: "GET", target: Route.sessions.path()))
        do {
            return try WireJSON.decoder.decode(SessionList.self, from: response.body).sessions
        } catch {
            throw failure(.unreadableAnswer("/sessions is not the session list: \(error)"))
        }
    }

    /// `GET /sessions/{id}`: the session's report, so far when it still plays.
    public func report(ofSession id: String) async throws(ReceiverError) -> SessionReport {
        let response = try await exchange(HTTPClientRequest(method: "GET", target: Route.session.path(session: id)))
        do {
            return try WireJSON.decoder.decode(SessionReport.self, from: response.body)
        } catch {
            throw failure(.unreadableAnswer("the report of session \(id) is not a session report: \(error)"))
        }
    }

    /// `GET /sessions/{id}/fetches`: the session's fetch trace, for `airlab simulate --fetch-trace`.
    public func fetchTrace(ofSession id: String) async throws(ReceiverError) -> FetchTrace {
        let response = try await exchange(HTTPClientRequest(method: "GET", target: Route.session.path(session: id) + "/fetches"))
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

    /// Learns the receiver's Digest challenge for `POST /play` on `connection` before the real one.
    ///
    /// A receiver refuses a request with a body it will not read by closing the connection, and the
    /// connection that sends `/play` must stay open for the whole cast; an empty `/play` without
    /// credentials is refused with the connection kept, and its nonce answers the real one.
    func authenticate(on connection: HTTPClientConnection) async throws(ReceiverError) {
        guard let credentials else { return }
        let probe = HTTPClientRequest(method: "POST", target: Route.play.path(), headers: ["Content-Type": "application/json"])
        let timeout = timeout
        do {
            let answer = try await BlockingCall.run { () throws(HTTPClientError) in
                connection.setTimeout(timeout)
                return try connection.send(probe)
            }
            credentials.learn(from: answer, for: probe)
        } catch {
            throw failure(.connectionLost("POST /play: \(error)"))
        }
    }

    /// A connection to the receiver, for callers that keep one open.
    public func connect() async throws(ReceiverError) -> HTTPClientConnection {
        let address = receiver.address
        let timeout = timeout
        do {
            return try await BlockingCall.run { () throws(HTTPClientError) in
                try HTTPClientConnection(host: address.host, port: address.port, timeout: timeout)
            }
        } catch {
            throw failure(.unreachable(error.description))
        }
    }

    /// Sends `request` (on `connection`, or on a connection of its own) and returns a 2xx response;
    /// any other status becomes the `ReceiverError` it means.
    func exchange(_ request: HTTPClientRequest, on connection: HTTPClientConnection? = nil, timeout: Double? = nil) async throws(ReceiverError) -> HTTPClientResponse {
        let own = connection == nil
        let link: HTTPClientConnection
        if let connection { link = connection } else { link = try await connect() }
        var request = request
        if own { request.headers.set("Connection", "close") }
        credentials?.authorize(&request)
        let readTimeout = timeout ?? self.timeout
        let sent = request
        let credentials = credentials
        let address = receiver.address
        let response: HTTPClientResponse
        do {
            response = try await BlockingCall.run { () throws(HTTPClientError) in
                link.setTimeout(readTimeout)
                defer { if own { link.close() } }
                let first = try link.send(sent)
                // A password-protected receiver answers 401 with a challenge, which is answered once: on the
                // same connection when it stays open (a kept /play connection must), else on a new one.
                guard let retry = credentials?.answering(first, to: sent) else { return first }
                if link.isReusable { return try link.send(retry) }
                guard own else { return first }
                let fresh = try HTTPClientConnection(host: address.host, port: address.port, timeout: readTimeout)
                defer { fresh.close() }
                return try fresh.send(retry)
            }
        } catch {
            throw failure(.connectionLost("\(request.method) \(request.target.split(separator: "?").first ?? ""): \(error)"))
        }
        try check(response)
        return response
    }

    /// Turns a status outside 2xx into the problem it names.
    func check(_ response: HTTPClientResponse) throws(ReceiverError) {
        let message = response.text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        switch response.status {
        case 200..<300: return
        case 400: throw failure(.badRequest(message))
        case 401: throw failure(.passwordRequired(given: password != nil))
        case 403:
            throw failure(.refused(
                restriction: response.headers["X-Airlab-Restriction"], eventID: response.headers["X-Airlab-Event"], message: message))
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

    /// Seconds in a query: "12", "12.5".
    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
