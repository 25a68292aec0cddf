import Foundation
import Synchronization

/// A blocking TCP client on 127.0.0.1 for what curl will not send: garbage, silence, half a request,
/// raw bytes after an upgrade. Every read gives up after a receive timeout, so no test can hang on it;
/// call it only through `BlockingWork.run`.
public final class RawSocket: @unchecked Sendable {
    private let descriptor: Int32
    private let closed = Mutex(false)

    /// - Parameter receiveBuffer: the kernel's receive buffer in bytes, set before connecting so that
    ///   the window it advertises stays that small (a client that never reads then holds little).
    public init(port: UInt16, host: String = "127.0.0.1", receiveTimeoutSeconds: Int = 10, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawSocketError("socket() failed: errno \(errno)") }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let failure = errno
            Glibc.close(descriptor)
            throw RawSocketError("connect() failed: errno \(failure)")
        }
    }

    public func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    public func send(_ data: Data) throws {
        let sent = data.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == data.count else { throw RawSocketError("send() failed: errno \(errno)") }
    }

    /// Reads until `received` holds what was read so far, the peer closes, or a read times out.
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public func read(until done: (Data) -> Bool) -> Data {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !done(received) {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return received
    }

    /// Reads until the text contains `marker`.
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public func read(untilContains marker: String) -> String {
        String(decoding: read { String(decoding: $0, as: UTF8.self).contains(marker) }, as: UTF8.self)
    }

    /// Everything until the peer closes (or a read times out, which the caller's assertions reveal).
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public func readToEnd() -> String {
        String(decoding: read { _ in false }, as: UTF8.self)
    }

    /// True when the peer has closed: a read returns end of file or a reset rather than timing out.
    public func peerClosed() -> Bool {
        var byte: UInt8 = 0
        while true {
            let count = recv(descriptor, &byte, 1, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// Closes once; later calls do nothing, so a descriptor number reused elsewhere is never closed.
    public func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first { Glibc.close(descriptor) }
    }
}

public struct RawSocketError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
