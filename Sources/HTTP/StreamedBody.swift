import CMicroHTTPD
import Foundation
import Synchronization

/// What a streamed body hands libmicrohttpd next.
public enum BodyChunk: Sendable, Equatable {
    /// Bytes to send now: at least one, at most the capacity asked for.
    case bytes(Data)
    /// Nothing now: the connection is suspended and asked again once `Duration` has passed.
    case wait(Duration)
    /// The body is complete.
    case end
    /// Close the connection at once, whatever the headers promised (a truncated body).
    case abort
    /// Reset the connection: the peer gets a TCP RST instead of the end of the stream, as from a
    /// load balancer or CDN node that drops a connection.
    case reset
}

/// Produces a response body piece by piece, on libmicrohttpd's polling thread.
///
/// The server asks for the next chunk whenever the socket can take more; a source that wants time to
/// pass (pacing, a stall) answers `.wait`, and the connection is suspended meanwhile, so it neither
/// spins nor times out.
public protocol BodySource: AnyObject, Sendable {
    /// Must not block.
    func next(capacity: Int) -> BodyChunk
    /// The request is over: `delivered` when libmicrohttpd completed it, false when the client left,
    /// the body aborted or the server stopped. Called once, on the polling thread; must not block.
    func finished(delivered: Bool)
}

/// A response body that a `BodySource` produces while it is being sent, with a declared length or
/// without one (chunked on HTTP/1.1).
///
/// Lock order: `ServerCore`'s lock before this one, as for `SSEStream`.
public final class StreamedBody: @unchecked Sendable {
    /// The `Content-Length` sent; nil sends none. libmicrohttpd closes the connection when a source
    /// ends before that many bytes.
    public let length: UInt64?
    let source: any BodySource

    private enum Phase {
        case detached
        case attached(connection: ConnectionHandle, suspended: Bool)
        /// The server stopped or the request ended: libmicrohttpd may not be called any more.
        case released
    }

    private let phase = Mutex(Phase.detached)
    private let finishedOnce = Mutex(false)

    public init(length: UInt64?, source: any BodySource) {
        self.length = length
        self.source = source
    }

    // MARK: - The server's side

    func attach(to connection: ConnectionHandle) {
        phase.withLock { $0 = .attached(connection: connection, suspended: false) }
    }

    /// Fills `buffer` for libmicrohttpd's content reader.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let attached = phase.withLock { phase -> Bool in
            if case .attached = phase { return true }
            return false
        }
        guard attached else { return airlab_mhd_content_end_with_error() }
        switch source.next(capacity: capacity) {
        case .bytes(let data):
            let count = min(data.count, capacity)
            guard count > 0 else { return airlab_mhd_content_end_with_error() }
            data.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: count)
            }
            return count
        case .wait(let delay):
            let suspended = phase.withLock { phase -> Bool in
                guard case .attached(let connection, false) = phase else { return false }
                phase = .attached(connection: connection, suspended: true)
                MHD_suspend_connection(connection.pointer)
                return true
            }
            guard suspended else { return airlab_mhd_content_end_with_error() }
            BodyWakeUps.shared.schedule(after: delay) { [weak self] in self?.wake() }
            return 0
        case .end:
            return airlab_mhd_content_end_of_stream()
        case .abort:
            return airlab_mhd_content_end_with_error()
        case .reset:
            resetConnection()
            return airlab_mhd_content_end_with_error()
        }
    }

    /// Resets the connection now. A zero linger time alone is not enough: libmicrohttpd shuts the
    /// socket down for writing before it closes it, and the peer reads that FIN as the end of the
    /// stream. Connecting a TCP socket to AF_UNSPEC disconnects it at once, and Linux answers a
    /// disconnect of an established connection with RST (connect(2)). The socket stays
    /// libmicrohttpd's, which closes it.
    private func resetConnection() {
        phase.withLock { phase in
            guard case .attached(let connection, _) = phase else { return }
            let descriptor = airlab_mhd_connection_fd(connection.pointer)
            guard descriptor >= 0 else { return }
            var option = linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
            var unspecified = sockaddr()
            unspecified.sa_family = sa_family_t(AF_UNSPEC)
            _ = connect(descriptor, &unspecified, socklen_t(MemoryLayout<sockaddr>.size))
        }
    }

    /// Resumes the connection if it still waits; called with the lock held so the server's stop cannot
    /// slip between the check and the resume.
    private func wake() {
        phase.withLock { phase in
            if case .attached(let connection, true) = phase {
                phase = .attached(connection: connection, suspended: false)
                connection.resume()
            }
        }
    }

    /// The server is stopping: wake a waiting connection so libmicrohttpd can close it, and never
    /// touch libmicrohttpd again.
    func releaseForShutdown() {
        phase.withLock { phase in
            if case .attached(let connection, true) = phase { connection.resume() }
            phase = .released
        }
    }

    /// The request is over.
    func detach(delivered: Bool) {
        phase.withLock { $0 = .released }
        let first = finishedOnce.withLock { done in
            defer { done = true }
            return !done
        }
        if first { source.finished(delivered: delivered) }
    }
}
