/// Why a transfer did not complete.
public enum TransferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request's own fields were out of range; names the field.
    case invalidRequest(String)
    case connectTimeout
    case firstByteTimeout
    /// Below the request's low-speed limit for its time: a stalled body.
    case lowSpeed
    case totalTimeout
    case bodyTooLarge(limit: Int)
    /// The connection closed before the body the headers announced was complete.
    case partialBody(String)
    case cancelled
    /// The request's `TransferReceiver` ended it (a limit of its own, or it had every byte it wanted).
    case endedByReceiver
    /// No connection to the host: refused, unreachable; libcurl's message.
    case cannotConnect(String)
    /// The host's name did not resolve; libcurl's message.
    case unknownHost(String)
    /// More redirects than the request's `maximumRedirects`.
    case tooManyRedirects
    /// Any other libcurl failure: its code and message.
    case failed(code: Int, message: String)

    public var description: String {
        switch self {
        case .invalidRequest(let reason): "invalid request: \(reason)"
        case .connectTimeout: "no connection within the connect timeout"
        case .firstByteTimeout: "no response within the first-byte timeout"
        case .lowSpeed: "the body went slower than the low-speed limit for its whole time"
        case .totalTimeout: "the transfer took longer than its total timeout"
        case .bodyTooLarge(let limit): "the body is larger than the \(limit) bytes asked for"
        case .partialBody(let message): "the body ended early: \(message)"
        case .cancelled: "cancelled"
        case .endedByReceiver: "ended by its receiver"
        case .cannotConnect(let message): "no connection: \(message)"
        case .unknownHost(let message): "unknown host: \(message)"
        case .tooManyRedirects: "more redirects than the request allows"
        case .failed(let code, let message): "libcurl error \(code): \(message)"
        }
    }
}
