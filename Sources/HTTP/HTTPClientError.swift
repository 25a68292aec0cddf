import Foundation

/// Why a request from the client side failed, in words a command can put after a receiver's name.
public enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host name did not resolve.
    case unknownHost(String)
    /// Nothing accepted the connection (refused, unreachable, or no answer within the timeout).
    case cannotConnect(String)
    /// No byte arrived within the receive timeout.
    case timedOut
    /// The peer closed the connection before the response was complete.
    case closedByPeer
    /// `close()` was called while a request or a stream was under way.
    case closedLocally
    /// The bytes that came back are not HTTP/1.x.
    case malformedResponse(String)
    /// The response body is larger than the client accepts.
    case bodyTooLarge(limit: Int)
    /// Reading or writing the socket failed with this `errno`.
    case socket(operation: String, errno: Int32)

    public var description: String {
        switch self {
        case .unknownHost(let host): "the host name '\(host)' does not resolve"
        case .cannotConnect(let reason): "cannot connect: \(reason)"
        case .timedOut: "no answer within the timeout"
        case .closedByPeer: "the connection was closed before the answer was complete"
        case .closedLocally: "the connection was closed"
        case .malformedResponse(let detail): "the answer is not HTTP (\(detail))"
        case .bodyTooLarge(let limit): "the answer is larger than \(limit) bytes"
        case .socket(let operation, let code): "\(operation) failed: \(String(cString: strerror(code)))"
        }
    }
}
