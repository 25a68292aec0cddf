/// RTSP heads on a connection whose other end reads only HTTP: an AirPlay 2 sender mixes
/// `SETUP … RTSP/1.0` with `POST /play HTTP/1.1` on one connection, and a real receiver answers each
/// in its own protocol.
///
/// On the receiver's side (libmicrohttpd behind it) each RTSP request line becomes HTTP/1.1 (an absolute
/// `rtsp://host/…` target its path), and the answer to it goes back as `RTSP/1.0` with the request's
/// `CSeq`. On the sender's side (libcurl in front of it) it is the mirror: a request libcurl wrote with
/// a `CSeq` field goes out as `RTSP/1.0`, and the receiver's `RTSP/1.0` answer comes back as HTTP/1.1.
/// HTTP requests and their answers pass untouched both ways.
///
/// It frames messages only as far as that needs: a head up to its blank line, then `Content-Length`
/// bytes of body. What it cannot frame (a chunked request, a head over the limit) is an error and the
/// connection is closed; an answer it cannot frame (a chunked stream) ends the translation of that
/// direction, since nothing after it on the connection can be an RTSP answer the sender still waits for.
public struct RTSPTranslation: Sendable {
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The longest head taken, as libmicrohttpd's connection memory allows.
    public static let maximumHead = 16 * 1024
    /// Requests waiting for their answers; a sender that pipelines more is refused.
    public static let maximumPending = 64

    private enum Speech: Sendable, Equatable {
        case http(head: Bool)
        /// The request's `CSeq`, which the answer repeats.
        case rtsp(sequence: String?)
    }

    private struct Direction: Sendable {
        var head: [UInt8] = []
        var bodyLeft = 0
        /// Past a message it could not frame: everything passes as it is.
        var passing = false

        /// Moves what belongs to the current body (everything, once passing) into `output`; false
        /// when a head comes next.
        mutating func passBody(_ bytes: [UInt8], at index: inout Int, into output: inout [UInt8]) -> Bool {
            guard passing || bodyLeft > 0 else { return false }
            let take = passing ? bytes.count - index : min(bodyLeft, bytes.count - index)
            output += bytes[index..<index + take]
            if !passing { bodyLeft -= take }
            index += take
            return true
        }

        /// Takes bytes into the head up to its blank line: the whole head once it is there (and the
        /// direction ready for the next), nil while it has not come.
        mutating func nextHead(_ bytes: [UInt8], at index: inout Int, naming what: String) throws(Failure) -> [UInt8]? {
            guard RTSPTranslation.appendHead(&head, from: bytes, at: &index) != nil else {
                guard head.count <= RTSPTranslation.maximumHead else { throw Failure(description: "\(what) over \(RTSPTranslation.maximumHead) bytes") }
                return nil
            }
            defer { head = [] }
            return head
        }
    }

    /// Which end of the connection the translation serves.
    public enum Side: Sendable {
        /// Requests arrive in RTSP or HTTP and go to an HTTP server.
        case receiver
        /// Requests come from an HTTP client, RTSP ones marked by their `CSeq`, and go to a receiver.
        case sender
    }

    public let side: Side
    private var inbound = Direction()
    private var outbound = Direction()
    private var pending: [Speech] = []

    public init(side: Side = .receiver) {
        self.side = side
    }

    /// Requests on their way to the receiver (from the sender's socket, or from libcurl), rewritten.
    public mutating func requests(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if inbound.passBody(bytes, at: &index, into: &output) { continue }
            guard let head = try inbound.nextHead(bytes, at: &index, naming: "a request head") else { continue }
            let (rewritten, message) = try Self.request(head, side: side)
            guard pending.count < Self.maximumPending else { throw Failure(description: "more than \(Self.maximumPending) requests sent ahead of their answers") }
            pending.append(message.protocolKind)
            inbound.bodyLeft = message.bodyLength
            output += rewritten
        }
        return output
    }

    /// Answers on their way to the sender (from libmicrohttpd, or from the receiver's socket), rewritten.
    public mutating func answers(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if outbound.passBody(bytes, at: &index, into: &output) { continue }
            guard let head = try outbound.nextHead(bytes, at: &index, naming: "an answer head") else { continue }
            let lines = Self.lines(of: head)
            let versions = side == .receiver ? ["HTTP/1."] : ["HTTP/1.", "RTSP/1.0"]
            guard let status = lines.first, versions.contains(where: status.hasPrefix), status.count >= 12 else {
                throw Failure(description: "an answer that does not start with an \(side == .receiver ? "HTTP" : "HTTP or RTSP") status line")
            }
            let code = Int(status.dropFirst(9).prefix(3)) ?? 0
            if (100..<200).contains(code) {
                // An interim answer (100 Continue) answers no request yet.
                output += head
                continue
            }
            guard !pending.isEmpty else { throw Failure(description: "an answer to no request") }
            let request = pending.removeFirst()
            let length = Self.header("content-length", in: lines).flatMap { Int($0) }
            if let length, length >= 0 {
                if case .http(head: true) = request { outbound.bodyLeft = 0 } else { outbound.bodyLeft = length }
            } else if request != .http(head: true), code != 204, code != 304 {
                outbound.passing = true
            }
            guard case .rtsp(let sequence) = request, status.hasPrefix("HTTP/1.") == (side == .receiver) else {
                output += head
                continue
            }
            guard side == .receiver else {
                // The receiver's RTSP answer, as the HTTP/1.1 answer libcurl waits for.
                output += Array(("HTTP/1.1" + status.dropFirst(8) + "\r\n" + lines.dropFirst().map { $0 + "\r\n" }.joined() + "\r\n").utf8)
                continue
            }
            var rewritten = "RTSP/1.0" + status.dropFirst(8) + "\r\n"
            if let sequence, Self.header("cseq", in: lines) == nil { rewritten += "CSeq: \(sequence)\r\n" }
            for line in lines.dropFirst() { rewritten += line + "\r\n" }
            output += Array((rewritten + "\r\n").utf8)
        }
        return output
    }

    /// Takes one whole request (head and `Content-Length` body) off the front of `buffer`: its `CSeq`
    /// (nil when it has none) and its method and target once it is all there, nil while it is not. For a sender answering what a
    /// receiver writes on an event channel.
    public static func takeRequest(from buffer: inout [UInt8]) throws(Failure) -> (sequence: String?, target: String)? {
        var head: [UInt8] = []
        var index = 0
        guard let end = appendHead(&head, from: buffer, at: &index) else {
            guard head.count <= maximumHead else { throw Failure(description: "a request head over \(maximumHead) bytes") }
            return nil
        }
        let lines = lines(of: head)
        let (length, sequence) = try framing(of: lines)
        guard buffer.count - end >= length else { return nil }
        buffer.removeFirst(end + length)
        // The method and target, at most 200 characters of them.
        let target = String(lines[0].split(separator: " ").prefix(2).joined(separator: " ").prefix(200))
        return (sequence, target)
    }

    /// What a request's head says of its framing: its body's length (`Content-Length`; never
    /// `Transfer-Encoding`, which an AirPlay connection does not use) and its `CSeq` when that is a number.
    private static func framing(of lines: [String]) throws(Failure) -> (bodyLength: Int, sequence: String?) {
        if header("transfer-encoding", in: lines) != nil {
            throw Failure(description: "a request with Transfer-Encoding, which an AirPlay connection does not use")
        }
        var length = 0
        if let text = header("content-length", in: lines) {
            guard text.count <= 12, let value = Int(text), value >= 0 else { throw Failure(description: "Content-Length '\(text)' is not a byte count") }
            length = value
        }
        return (length, header("cseq", in: lines).flatMap { $0.count <= 10 && $0.allSatisfy(\.isNumber) ? $0 : nil })
    }

    // MARK: - Framing

    private struct Request {
        var protocolKind: Speech
        var bodyLength: Int
    }

    /// Moves bytes into `head` until its blank line; the index past it, or nil when it has not come yet.
    fileprivate static func appendHead(_ head: inout [UInt8], from bytes: [UInt8], at index: inout Int) -> Int? {
        while index < bytes.count {
            head.append(bytes[index])
            index += 1
            if head.count >= 4, head[head.count - 4] == 13, head[head.count - 3] == 10, head[head.count - 2] == 13, head[head.count - 1] == 10 {
                return index
            }
            if head.count > maximumHead { return nil }
        }
        return nil
    }

    private static func lines(of head: [UInt8]) -> [String] {
        String(decoding: head.dropLast(4), as: UTF8.self).components(separatedBy: "\r\n")
    }

    private static func header(_ name: String, in lines: [String]) -> String? {
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    private static func request(_ head: [UInt8], side: Side) throws(Failure) -> ([UInt8], Request) {
        var lines = lines(of: head)
        let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw Failure(description: "a request line that is not METHOD TARGET VERSION")
        }
        let method = String(parts[0])
        let (length, sequence) = try framing(of: lines)
        if side == .sender {
            guard parts[2] == "HTTP/1.1", let sequence else {
                return (head, Request(protocolKind: .http(head: method == "HEAD"), bodyLength: length))
            }
            lines[0] = "\(method) \(parts[1]) RTSP/1.0"
            let rewritten = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
            return (rewritten, Request(protocolKind: .rtsp(sequence: sequence), bodyLength: length))
        }
        guard parts[2] == "RTSP/1.0" else {
            return (head, Request(protocolKind: .http(head: method == "HEAD"), bodyLength: length))
        }
        var target = String(parts[1])
        if target.lowercased().hasPrefix("rtsp://") {
            let rest = target.dropFirst(7)
            target = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
        }
        lines[0] = "\(method) \(target) HTTP/1.1"
        let rewritten = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        return (rewritten, Request(protocolKind: .rtsp(sequence: sequence), bodyLength: length))
    }
}
