import Foundation
import Synchronization

/// A connected TCP socket with blocking reads and writes bounded by timeouts, and a buffer for reading
/// lines and counted bytes.
///
/// One thread reads and writes; any thread may `interrupt()`, which wakes a blocked read at once (the
/// way a sender's Ctrl-C ends a stream it is waiting on). The descriptor is released in `deinit`, never
/// while another thread might still be inside a system call on it.
final class HTTPClientSocket: @unchecked Sendable {
    private let descriptor: Int32
    private let interrupted = Mutex(false)
    private var buffer: [UInt8] = []
    private var bufferStart = 0

    /// Connects to `host` (a name or a numeric IPv4/IPv6 address) within `timeout` seconds.
    init(host: String, port: UInt16, timeout: Double) throws(HTTPClientError) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        // Brackets are how an IPv6 address is written next to a port; getaddrinfo wants it bare.
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard getaddrinfo(bare, String(port), &hints, &list) == 0, let first = list else {
            throw .unknownHost(host)
        }
        defer { freeaddrinfo(list) }
        var lastFailure = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let socketDescriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard socketDescriptor >= 0 else { continue }
            if let failure = Self.connect(socketDescriptor, to: info.pointee.ai_addr, length: info.pointee.ai_addrlen, timeout: timeout) {
                Glibc.close(socketDescriptor)
                lastFailure = failure
                continue
            }
            descriptor = socketDescriptor
            setTimeout(timeout)
            var one: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            return
        }
        throw .cannotConnect(lastFailure)
    }

    /// A non-blocking connect waited on with poll, so an address that never answers costs `timeout`
    /// and not the kernel's minutes; nil when connected, else why not.
    private static func connect(_ descriptor: Int32, to address: UnsafePointer<sockaddr>, length: socklen_t, timeout: Double) -> String? {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(descriptor, F_SETFL, flags) }
        if Glibc.connect(descriptor, address, length) == 0 { return nil }
        guard errno == EINPROGRESS else { return String(cString: strerror(errno)) }
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&entry, 1, Int32(min(max(1, timeout * 1000), Double(Int32.max))))  // NaN: max gives 1
        guard ready > 0 else { return ready == 0 ? "no answer within \(PlainNumber(timeout)) s" : String(cString: strerror(errno)) }
        var failure: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &size)
        return failure == 0 ? nil : String(cString: strerror(failure))
    }

    /// Bounds every later read and write; an event stream sets it longer than the heartbeat interval.
    func setTimeout(_ seconds: Double) {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), 1e9)  // total: timeval takes no NaN, inf or 2^63
        let whole = Int(bounded)
        var value = timeval(tv_sec: whole, tv_usec: Int(((bounded - Double(whole)) * 1_000_000).rounded()))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Wakes a read blocked on another thread and makes every later call fail with `.closedLocally`.
    func interrupt() {
        interrupted.withLock { done in
            guard !done else { return }
            done = true
            shutdown(descriptor, Int32(SHUT_RDWR))
        }
    }

    var isInterrupted: Bool { interrupted.withLock { $0 } }

    deinit {
        Glibc.close(descriptor)
    }

    // MARK: - Writing

    func write(_ data: Data) throws(HTTPClientError) {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { bytes in
                send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
                continue
            }
            if sent < 0 && errno == EINTR { continue }
            throw failure("send", errno: sent < 0 ? errno : EPIPE)
        }
    }

    // MARK: - Reading

    /// One line without its end (CRLF or a bare LF), or nil at end of stream before any byte of one.
    func readLine(limit: Int = 64 * 1024) throws(HTTPClientError) -> String? {
        while true {
            if let newline = buffer[bufferStart...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > bufferStart && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[bufferStart..<end], as: UTF8.self)
                consume(upTo: newline + 1)
                return line
            }
            guard buffer.count - bufferStart <= limit else { throw .malformedResponse("a line longer than \(limit) bytes") }
            guard try fill() else {
                guard bufferStart < buffer.count else { return nil }
                let line = String(decoding: buffer[bufferStart...], as: UTF8.self)
                consume(upTo: buffer.count)
                return line
            }
        }
    }

    /// Exactly `count` bytes; fewer at end of stream is `.closedByPeer`.
    func read(count: Int) throws(HTTPClientError) -> Data {
        while buffer.count - bufferStart < count {
            guard try fill() else { throw .closedByPeer }
        }
        let data = Data(buffer[bufferStart..<(bufferStart + count)])
        consume(upTo: bufferStart + count)
        return data
    }

    /// Whatever is buffered or arrives next, up to `limit` bytes; empty at end of stream.
    func readAvailable(limit: Int) throws(HTTPClientError) -> Data {
        if bufferStart == buffer.count {
            guard try fill() else { return Data() }
        }
        let end = min(buffer.count, bufferStart + limit)
        let data = Data(buffer[bufferStart..<end])
        consume(upTo: end)
        return data
    }

    /// Reads more bytes into the buffer; false at end of stream.
    private func fill() throws(HTTPClientError) -> Bool {
        if bufferStart > 0 && bufferStart == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            bufferStart = 0
        }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 {
                if isInterrupted { throw .closedLocally }
                return false
            }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw isInterrupted ? .closedLocally : .timedOut }
            throw failure("recv", errno: errno)
        }
    }

    private func consume(upTo index: Int) {
        bufferStart = index
        if bufferStart == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            bufferStart = 0
        }
    }

    private func failure(_ operation: String, errno code: Int32) -> HTTPClientError {
        isInterrupted ? .closedLocally : .socket(operation: operation, errno: code)
    }
}

/// Seconds without a trailing ".0" for messages.
struct PlainNumber: CustomStringConvertible {
    var value: Double
    init(_ value: Double) { self.value = value }
    var description: String { value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value) }
}
