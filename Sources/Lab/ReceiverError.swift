/// Why a receiver could not do what the sender asked, naming the receiver, so that one line on a
/// terminal or in a lab report says who failed and why.
public struct ReceiverError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        /// Nothing answered at the address.
        case unreachable(String)
        /// The connection broke or went silent while waiting for an answer or events.
        case connectionLost(String)
        /// It answered when the run began, then stopped answering before its session ended.
        case vanished(String)
        /// The user interrupted the run; the receiver was told to stop its session.
        case interrupted
        /// 401: a password is required, or the one given was wrong.
        case passwordRequired(given: Bool)
        /// 403: a restriction of the interstitial playing refused the command.
        case refused(restriction: String?, eventID: String?, message: String)
        /// 409: the command needs a session and none plays.
        case noSession(String)
        /// 422: the playlist cannot be played there.
        case unplayable(String)
        /// 400: the receiver did not accept the request.
        case badRequest(String)
        /// 404 for a session or a path.
        case notFound(String)
        /// Any other answer the sender did not expect.
        case unexpectedAnswer(status: Int, message: String)
        /// An answer that does not read as the protocol says.
        case unreadableAnswer(String)
        /// No receiver of that name answered mDNS, or mDNS cannot be used.
        case notFoundOnNetwork(String)
        /// AirPlay 2 pairing did not end with keys: a wrong PIN, a receiver that refused, a broken answer.
        case pairingFailed(String)
    }

    public var receiver: String
    public var problem: Problem

    public init(receiver: String, problem: Problem) {
        self.receiver = receiver
        self.problem = problem
    }

    /// What went wrong, without the receiver's name (for a report row that already names it).
    public var reason: String {
        switch problem {
        case .unreachable(let detail): "cannot be reached (\(detail))"
        case .connectionLost(let detail): "stopped answering (\(detail))"
        case .vanished(let detail): "vanished mid-run (\(detail))"
        case .interrupted: "interrupted; its session was told to stop"
        case .passwordRequired(let given):
            given ? "refused the password (HTTP 401)" : "requires a password (HTTP 401); give it with --password"
        case .refused(let restriction, let eventID, let message):
            // The receiver's sentence names the restriction and the event already; the headers stand in when it is empty.
            message.isEmpty
                ? "refused the command" + (restriction.map { " (\($0) restriction" + (eventID.map { " of interstitial '\($0)'" } ?? "") + ")" } ?? "")
                : message
        case .noSession(let message): "plays no session (\(message))"
        case .unplayable(let message): "cannot play the playlist: \(message)"
        case .badRequest(let message): "rejected the request: \(message)"
        case .notFound(let message): "has no such thing: \(message)"
        case .unexpectedAnswer(let status, let message): "answered HTTP \(status)" + (message.isEmpty ? "" : ": \(message)")
        case .unreadableAnswer(let detail): "sent an answer airlab cannot read (\(detail))"
        case .notFoundOnNetwork(let detail): detail
        case .pairingFailed(let detail): "did not pair: \(detail)"
        }
    }

    public var description: String { "\(receiver): \(reason)" }
}
