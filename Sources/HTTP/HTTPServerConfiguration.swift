/// Where a server listens and the limits it keeps.
public struct HTTPServerConfiguration: Sendable {
    /// A numeric IPv4 or IPv6 address; `127.0.0.1` in tests, `0.0.0.0` to serve the network.
    public var address: String
    /// 0 picks any free port; `HTTPServer.port` tells which after `start()`.
    public var port: UInt16
    /// Larger request bodies are answered with 413 and a one-line reason.
    public var maxBodySize: Int
    /// At most this many connections are open at once; libmicrohttpd 0.9.75 leaves further ones
    /// unaccepted in the listen backlog until one closes (the client's own timeout bounds the wait).
    public var connectionLimit: Int
    /// Whole seconds a connection may stay silent before it is closed; libmicrohttpd counts in seconds.
    /// Suspended connections (a handler still working, an event stream) are exempt.
    public var idleTimeoutSeconds: Int
    /// Seconds between the comment lines that keep event streams alive and reveal clients that left.
    public var heartbeatIntervalSeconds: Double
    /// When set, requests outside its exempt paths without valid credentials are answered 401 with a
    /// challenge, and the responder never sees them.
    public var authentication: DigestAuthentication?

    public init(
        address: String = "127.0.0.1", port: UInt16 = 0, maxBodySize: Int = 1 << 20, connectionLimit: Int = 512,
        idleTimeoutSeconds: Int = 30, heartbeatIntervalSeconds: Double = 15, authentication: DigestAuthentication? = nil
    ) {
        self.address = address
        self.port = port
        self.maxBodySize = maxBodySize
        self.connectionLimit = connectionLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.heartbeatIntervalSeconds = heartbeatIntervalSeconds
        self.authentication = authentication
    }
}

public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    case invalidAddress(String)
    /// libmicrohttpd would not start: most often the port is in use.
    case cannotListen(address: String, port: UInt16)
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidAddress(let address): "'\(address)' is not a numeric IPv4 or IPv6 address"
        case .cannotListen(let address, let port): "cannot listen on \(address) port \(port); is it in use?"
        case .alreadyStarted: "the server is already running"
        }
    }
}
