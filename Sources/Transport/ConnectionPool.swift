import CCurl
import Synchronization

/// Connections of their own for the transfers that name this pool: they reuse one another's connections
/// and never the loop's common ones, and `close()` closes them.
///
/// The legacy AirPlay protocol needs this: the connection that sent an attached `/play` must stay open
/// for the whole session (closing it stops the session) and carries the polls that follow. libcurl
/// keeps it with a share that holds a connection cache of its own (`CURL_LOCK_DATA_CONNECT`): the
/// pool's transfers, one after another, reuse its one idle connection, no other transfer can take it
/// or push it out of the loop's common cache, and closing the pool closes exactly it. That is libcurl's
/// own HTTP on a kept connection, where a socket of airlab's would have needed an HTTP client again.
/// The share is used on the loop's thread only, so it needs no lock functions.
///
/// A pool may also say where its connections go (`connectingTo`): an AirPlay 2 sender's connection goes
/// to a relay on a local port, which encrypts it on its way to the receiver, so libcurl speaks plain
/// HTTP and keeps the URL's host in its requests.
public final class ConnectionPool: Sendable {
    /// The CURLSH; nil when libcurl cannot be had or cannot share connections (its transfers then fail).
    let share: SharePointer?
    /// The port on 127.0.0.1 every connection goes to instead of the URL's.
    let localPort: UInt16?
    private let loop: TransferLoop
    private let closed = Mutex(false)

    public convenience init(loop: TransferLoop = .shared) {
        self.init(loop: loop, localPort: nil)
    }

    /// A pool whose connections go to 127.0.0.1:`port` instead of the URL's address.
    public convenience init(loop: TransferLoop = .shared, connectingTo port: UInt16) {
        self.init(loop: loop, localPort: port)
    }

    private init(loop: TransferLoop, localPort: UInt16?) {
        self.loop = loop
        self.localPort = localPort
        var made = TransferLoopCore.libcurlLoads ? SharePointer(curl_share_init()) : nil
        if let candidate = made, airlab_curl_share_connections(candidate.raw) != CURLSHE_OK {
            // Its transfers then fail with the reason rather than run on the common connections.
            curl_share_cleanup(candidate.raw)
            made = nil
        }
        share = made
    }

    /// Whether `close()` was called; a transfer submitted afterwards is cancelled.
    public var isClosed: Bool { closed.withLock { $0 } }

    /// Closes the pool's connections: a transfer still running on one ends `cancelled`.
    public func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first, let share else { return }
        loop.closePool(share)
    }

    deinit {
        close()
    }
}

/// A CURLSH handed to the loop's thread, which alone uses it.
struct SharePointer: @unchecked Sendable, Hashable {
    let raw: UnsafeMutableRawPointer

    init?(_ raw: UnsafeMutableRawPointer?) {
        guard let raw else { return nil }
        self.raw = raw
    }
}
