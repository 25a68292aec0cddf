import Foundation
import Synchronization

/// One HTTP/1.1 connection from the client side: requests one after another on the same socket
/// (keep-alive), or one request whose body is read as it arrives (a `text/event-stream`).
///
/// Every call blocks; run them off Swift's cooperative pool. Keeping a connection open on purpose
/// matters to the legacy AirPlay protocol: closing the connection that sent `/play` stops playback.
public final class HTTPClientConnection: @unchecked Sendable {
    public let host: String
    public let port: UInt16
    /// Response bodies larger than this are refused rather than held in memory.
    public var maxBodySize = 64 << 20
    private let socket: HTTPClientSocket
    private let state = Mutex(State())

    private struct State {
        /// False once a response said `Connection: close`, or its body ran to the end of the stream.
        var reusable = true
        var streaming: BodyFraming?
        /// Whether the response being streamed allows another request once its body is read.
        var streamedKeepsAlive = false
    }

    /// How the body being streamed ends.
    enum BodyFraming {
        case chunked(remainingInChunk: Int, finished: Bool)
        case length(remaining: Int)
        case untilClose
    }

    /// Connects within `timeout` seconds, which then also bounds each read and write.
    @available(*, noasync, message: "it blocks: call it from a thread of its own (BlockingCall), not from async code")
    public init(host: String, port: UInt16, timeout: Double = 10) throws(HTTPClientError) {
        self.host = host
        self.port = port
        socket = try HTTPClientSocket(host: host, port: port, timeout: timeout)
    }

    /// Whether another request may go on this connection.
    public var isReusable: Bool {
        state.withLock { $0.reusable && $0.streaming == nil } && !socket.isInterrupted
    }

    /// Sends `request` and reads the whole response.
    @available(*, noasync, message: "it blocks: call it from a thread of its own (BlockingCall), not from async code")
    public func send(_ request: HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponse {
        let head = try sendForHead(request)
        let body = try readWholeBody(of: head, method: request.method)
        return HTTPClientResponse(head: head, body: body)
    }

    /// Sends `request` and reads only the response head; the body is then read with `readBodyLine()`
    /// or `readBodyChunk()` as it arrives. Nothing else may be sent on the connection afterwards.
    @available(*, noasync, message: "it blocks: call it from a thread of its own (BlockingCall), not from async code")
    public func open(_ request: HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponseHead {
        let head = try sendForHead(request)
        let framing: BodyFraming
        if head.isChunked {
            framing = .chunked(remainingInChunk: 0, finished: false)
        } else if let length = head.contentLength {
            framing = .length(remaining: length)
        } else {
            framing = .untilClose
        }
        state.withLock {
            $0.streaming = framing
            $0.streamedKeepsAlive = $0.reusable
            $0.reusable = false
        }
        return head
    }

    /// Reads the rest of a body opened with `open(_:)` (a short error answer, say) and returns it;
    /// afterwards the connection takes another request if the response allowed it.
    @available(*, noasync, message: "it blocks: call it from a thread of its own (BlockingCall), not from async code")
    public func finishBody() throws(HTTPClientError) -> Data {
        var body = Data()
        while true {
            let piece = try readBodyChunk(limit: 64 * 1024)
            if piece.isEmpty { break }
            body += piece
            guard body.count <= maxBodySize else { throw .bodyTooLarge(limit: maxBodySize) }
        }
        state.withLock { state in
            if case .untilClose? = state.streaming { state.streamedKeepsAlive = false }
            state.reusable = state.streamedKeepsAlive
            state.streaming = nil
        }
        return body
    }

    /// Changes the timeout of later reads, such as an event stream's, which must outlast its heartbeats.
    public func setTimeout(_ seconds: Double) {
        socket.setTimeout(seconds)
    }

    /// Closes the connection; from any thread, waking a read blocked on it.
    public func close() {
        socket.interrupt()
    }

    // MARK: - Streamed bodies

    /// The next line of a streamed body (LF or CRLF ends it), or nil at its end.
    @available(*, noasync, message: "it blocks: call it from a thread of its own (BlockingCall), not from async code")
    public func readBodyLine() throws(HTTPClientError) -> String? {
        var line: [UInt8] = []
        while true {
            let piece = try readBodyChunk(limit: 1)
            guard let byte = piece.first else {
                return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\n") {
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            line.append(byte)
            guard line.count <= maxBodySize else { throw .bodyTooLarge(limit: maxBodySize) }
        }
    }

    /// The next bytes of a streamed body, at most `limit`; empty at its end.
    @available(*, noasync, message: "it blocks: call it from a thread of its own (BlockingCall), not from async code")
    public func readBodyChunk(limit: Int = 16 * 1024) throws(HTTPClientError) -> Data {
        guard let framing = state.withLock({ $0.streaming }) else { return Data() }
        switch framing {
        case .untilClose:
            return try socket.readAvailable(limit: limit)
        case .length(let remaining):
            guard remaining > 0 else { return Data() }
            let data = try socket.readAvailable(limit: min(limit, remaining))
            guard !data.isEmpty else { throw .closedByPeer }
            state.withLock { $0.streaming = .length(remaining: remaining - data.count) }
            return data
        case .chunked(var remaining, let finished):
            guard !finished else { return Data() }
            if remaining == 0 {
                remaining = try readChunkSize()
                if remaining == 0 {
                    try readTrailers()
                    state.withLock { $0.streaming = .chunked(remainingInChunk: 0, finished: true) }
                    return Data()
                }
            }
            let data = try socket.readAvailable(limit: min(limit, remaining))
            guard !data.isEmpty else { throw .closedByPeer }
            remaining -= data.count
            if remaining == 0 {
                // Each chunk's data is followed by its own line end.
                guard try socket.readLine() == "" else { throw .malformedResponse("a chunk is longer than its size") }
            }
            state.withLock { $0.streaming = .chunked(remainingInChunk: remaining, finished: false) }
            return data
        }
    }

    // MARK: - Framing

    private func sendForHead(_ request: HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponseHead {
        guard isReusable else { throw .closedLocally }
        let authority = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
        try socket.write(request.serialized(host: authority))
        while true {
            let head = try readHead()
            // 1xx answers (100 Continue) precede the real one; 101 is the real one.
            if (100..<200).contains(head.status) && head.status != 101 { continue }
            if !head.keepsAlive { state.withLock { $0.reusable = false } }
            return head
        }
    }

    private func readHead() throws(HTTPClientError) -> HTTPClientResponseHead {
        guard let statusLine = try socket.readLine() else { throw .closedByPeer }
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...999).contains(status) else {
            throw .malformedResponse("status line '\(statusLine.prefix(80))'")
        }
        var headers = HTTPHeaders()
        while true {
            guard let line = try socket.readLine() else { throw .closedByPeer }
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw .malformedResponse("header line '\(line.prefix(80))'") }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            guard headers.fields.count <= 200 else { throw .malformedResponse("more than 200 header lines") }
        }
        return HTTPClientResponseHead(
            version: String(parts[0]), status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers)
    }

    private func readWholeBody(of head: HTTPClientResponseHead, method: String) throws(HTTPClientError) -> Data {
        if method == "HEAD" || head.status == 204 || head.status == 304 || head.status == 101 { return Data() }
        if head.isChunked {
            var body = Data()
            while true {
                let size = try readChunkSize()
                if size == 0 { break }
                guard body.count + size <= maxBodySize else { throw .bodyTooLarge(limit: maxBodySize) }
                body += try socket.read(count: size)
                guard try socket.readLine() == "" else { throw .malformedResponse("a chunk is longer than its size") }
            }
            try readTrailers()
            return body
        }
        if let length = head.contentLength {
            guard length <= maxBodySize else { throw .bodyTooLarge(limit: maxBodySize) }
            return try socket.read(count: length)
        }
        // No length: the body runs until the server closes, and the connection cannot be reused.
        state.withLock { $0.reusable = false }
        var body = Data()
        while true {
            let piece = try socket.readAvailable(limit: 64 * 1024)
            if piece.isEmpty { return body }
            body += piece
            guard body.count <= maxBodySize else { throw .bodyTooLarge(limit: maxBodySize) }
        }
    }

    private func readChunkSize() throws(HTTPClientError) -> Int {
        guard let line = try socket.readLine() else { throw .closedByPeer }
        let digits = line.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard let size = Int(digits, radix: 16), size >= 0 else { throw .malformedResponse("chunk size '\(line.prefix(40))'") }
        return size
    }

    private func readTrailers() throws(HTTPClientError) {
        while let line = try socket.readLine(), !line.isEmpty {}
    }
}
