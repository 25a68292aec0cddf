import Foundation

/// One request as the server received it, complete with its body.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, … as sent.
    public var method: String
    /// The path without the query, percent-decoded by libmicrohttpd.
    public var path: String
    /// Query parameters by name; a parameter sent without a value (`?interstitialEvents`) maps to "".
    /// When a name repeats, the first value wins.
    public var query: [String: String]
    public var headers: HTTPHeaders
    public var body: Data
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    /// The TCP connection the request came on; `HTTPResponder.connectionClosed(_:)` reports its end.
    public var connection: HTTPConnectionID
    /// The connection's relay, when a front relays it: what a pairing encrypts. nil otherwise.
    public var channel: SecureChannel?

    public init(
        method: String, path: String, query: [String: String] = [:], headers: HTTPHeaders = HTTPHeaders(),
        body: Data = Data(), version: String = "HTTP/1.1", connection: HTTPConnectionID = HTTPConnectionID(0), channel: SecureChannel? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.version = version
        self.connection = connection
        self.channel = channel
    }
}

/// Names one TCP connection for as long as the server runs; numbers are never reused.
public struct HTTPConnectionID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String { "connection-\(rawValue)" }
}
