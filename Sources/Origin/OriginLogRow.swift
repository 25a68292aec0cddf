import Foundation

/// One request as the test origin served it: a row of its JSON Lines log.
///
/// Times are seconds on the monotonic clock since the origin started, so rows compare with each
/// other and with a client's own monotonic timestamps, never with wall time.
public struct OriginLogRow: Sendable, Codable, Equatable {
    public var method: String
    public var path: String
    /// The `Range` header as sent; nil without one.
    public var range: String?
    /// The client id header's value; nil without one.
    public var client: String?
    public var status: Int
    /// When the request was handed to the origin, before any `ttfbMs` hold.
    public var arrival: Double
    /// When libmicrohttpd first asked for body bytes, which is when the headers went out; a HEAD or an
    /// empty body has none.
    public var firstByte: Double?
    /// When the response ended (completed, or cut by a fault or by the client).
    public var lastByte: Double
    /// Body bytes handed to the connection.
    public var bytes: Int
    /// The fault rule that matched; nil when the file was served plainly.
    public var rule: String?
    /// False when the connection ended before the response was complete.
    public var completed: Bool

    public init(
        method: String, path: String, range: String? = nil, client: String? = nil, status: Int, arrival: Double,
        firstByte: Double? = nil, lastByte: Double, bytes: Int, rule: String? = nil, completed: Bool
    ) {
        self.method = method
        self.path = path
        self.range = range
        self.client = client
        self.status = status
        self.arrival = arrival
        self.firstByte = firstByte
        self.lastByte = lastByte
        self.bytes = bytes
        self.rule = rule
        self.completed = completed
    }

    /// The row as one line of JSON, keys sorted so lines diff well.
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
