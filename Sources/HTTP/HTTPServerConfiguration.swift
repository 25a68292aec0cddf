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
    /// High on purpose, since a connection that holds a place without sending its request loses it
    /// after the request timeout. There is no limit per client address: a lab's senders, and every
    /// test, come from one.
    public var connectionLimit: Int
    /// Seconds a client has to send a whole request, header and body: from the connection's accept for
    /// its first request, from the request line for later ones on a keep-alive connection. The
    /// connection is closed when they pass. 0 or less: no deadline.
    public var requestTimeoutSeconds: Double
    /// Whole seconds a connection may stay silent before it is closed (libmicrohttpd counts in seconds),
    /// and the most a keep-alive connection may wait between a response and its next request line.
    /// Suspended connections (a handler still working, an event stream) are exempt. 0: no timeout.
    public var idleTimeoutSeconds: Int
    /// Seconds between the comment lines that keep event streams alive and reveal clients that left.
    public var heartbeatIntervalSeconds: Double
    /// When set, requests outside its exempt paths without valid credentials are answered 401 with a
    /// challenge, and the responder never sees them.
    public var authentication: DigestAuthentication?
    /// When set, the server accepts its own connections and decides from each one's first bytes
    /// whether libmicrohttpd takes it directly or through a relay that can be encrypted later
    /// (`ConnectionFront`, for AirPlay 2's pairing); nil, libmicrohttpd listens itself.
    public var front: (@Sendable ([UInt8]) -> FrontDecision)?
    /// Where a front says why it closed a relayed connection (a frame that does not open, a head it
    /// cannot frame); nil says nothing.
    public var log: (@Sendable (String) -> Void)?
    /// SO_SNDBUF for every accepted connection; nil leaves the kernel's autotuning, which on loopback
    /// grows a send buffer to megabytes. A test origin sets a small one, so that what it logs as sent is
    /// close to what the client has read, and a client's pace reaches it.
    public var sendBufferBytes: Int?
    /// Which threads parse and answer (and run `immediateResponse`).
    public var polling: Polling

    public enum Polling: Sendable, Equatable {
        /// The process's shared loop (`ServerLoop`): a few threads for every server of the process,
        /// however many; right for a receiver among many.
        case shared
        /// libmicrohttpd's own polling threads for this server alone: a server alone in its process may
        /// poll with one per core, as nginx runs a worker per core. A connection stays on the thread that
        /// accepted it, and the threads take turns accepting (see `airlab_mhd_start`).
        case ownThreads(Int)
    }

    public static let defaultConnectionLimit = 2048
    public static let defaultRequestTimeoutSeconds: Double = 5
    public static let defaultIdleTimeoutSeconds = 30

    public init(
        address: String = "127.0.0.1", port: UInt16 = 0, maxBodySize: Int = 1 << 20, connectionLimit: Int = defaultConnectionLimit,
        requestTimeoutSeconds: Double = defaultRequestTimeoutSeconds, idleTimeoutSeconds: Int = defaultIdleTimeoutSeconds,
        heartbeatIntervalSeconds: Double = 15, authentication: DigestAuthentication? = nil, sendBufferBytes: Int? = nil,
        polling: Polling = .shared
    ) {
        self.address = address
        self.port = port
        self.maxBodySize = maxBodySize
        self.connectionLimit = connectionLimit
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.heartbeatIntervalSeconds = heartbeatIntervalSeconds
        self.authentication = authentication
        self.sendBufferBytes = sendBufferBytes
        self.polling = polling
    }
}

public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    case invalidAddress(String)
    /// libmicrohttpd would not start: most often the port is in use.
    case cannotListen(address: String, port: UInt16)
    case alreadyStarted
    /// libmicrohttpd, opened on first use (COnDemand), could not be loaded: the loader's words.
    case libraryMissing(String)

    public var description: String {
        switch self {
        case .invalidAddress(let address): "'\(address)' is not a numeric IPv4 or IPv6 address"
        case .cannotListen(let address, let port): "cannot listen on \(address) port \(port); is it in use?"
        case .alreadyStarted: "the server is already running"
        case .libraryMissing(let reason): "cannot serve HTTP: \(reason)"
        }
    }
}
