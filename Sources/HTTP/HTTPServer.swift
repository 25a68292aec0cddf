import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: keep-alive, a body cap, a connection limit, idle timeouts,
/// protocol upgrades and server-sent events.
///
/// libmicrohttpd parses and answers on the process's shared loop threads (`ServerLoop`), or on polling
/// threads of the server's own when the configuration asks for them; each connection stays on one
/// thread. Handlers run in tasks while their connection is suspended (see `HTTPResponder`). Requests
/// it cannot parse are answered 400 by libmicrohttpd before any handler sees them.
public final class HTTPServer: Sendable {
    public let configuration: HTTPServerConfiguration
    private let core: ServerCore
    private let boundPort = Mutex<UInt16>(0)

    public init(configuration: HTTPServerConfiguration = HTTPServerConfiguration(), responder: any HTTPResponder) {
        self.configuration = configuration
        core = ServerCore(configuration: configuration, responder: responder)
    }

    public convenience init(
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) {
        self.init(configuration: configuration, responder: ClosureResponder(handler))
    }

    /// Starts listening; the server cannot be started again after `stop()`.
    public func start() throws {
        try boundPort.withLock { port in
            guard port == 0 else { throw HTTPServerError.alreadyStarted }
            port = try core.start()
        }
    }

    /// The port being listened on, once started: the chosen one when the configuration asked for 0.
    public var port: UInt16 {
        boundPort.withLock { $0 }
    }

    /// Stops listening, answers 503 to requests whose handlers are still working, ends event streams
    /// and closes upgraded connections, and returns once no thread runs libmicrohttpd for it any more
    /// (it blocks for that long, typically milliseconds). Calling it again does nothing.
    public func stop() {
        core.stop()
    }

    public var statistics: HTTPServerStatistics {
        core.statistics
    }

    deinit {
        core.stop()
    }
}

