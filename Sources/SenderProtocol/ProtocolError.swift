/// A request the receiver refuses: the HTTP status to answer and a one-line reason for the body.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: Int
    public var reason: String

    public init(status: Int = 400, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "\(status): \(reason)" }
}
