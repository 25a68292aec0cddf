import Foundation

/// One HTTP response as a test reads it off the wire.
public struct HTTPReply: Sendable, CustomStringConvertible {
    public var status: Int
    public var reasonPhrase: String
    /// Header names lowercased; a repeated header keeps its last value.
    public var headers: [String: String]
    public var body: Data

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a property list dictionary, when it is one.
    public var plist: [String: Any]? {
        (try? PropertyListSerialization.propertyList(from: body, format: nil)) as? [String: Any]
    }

    public var json: Any? { try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }

    public var description: String { "\(status) \(reasonPhrase): \(text.prefix(300))" }

    /// Reads one response from `data` (head and a body of Content-Length bytes); nil until complete.
    public static func parse(_ data: Data) -> HTTPReply? {
        guard let headEnd = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: data[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = head[0].split(separator: " ", maxSplits: 2).map(String.init)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let body = data[headEnd.upperBound...]
        guard body.count >= length else { return nil }
        return HTTPReply(status: status, reasonPhrase: statusLine.count > 2 ? statusLine[2] : "", headers: headers, body: Data(body.prefix(length)))
    }
}

/// A keep-alive HTTP/1.1 connection on 127.0.0.1 that a test controls: which requests go on it and
/// when it closes (the receiver's connection-close rule depends on exactly that). Blocking: use it
/// through `BlockingWork.run`, or the async `HTTPTestClient.send`.
public final class HTTPTestConnection: Sendable {
    public let socket: RawSocket

    public init(port: UInt16, host: String = "127.0.0.1", receiveTimeoutSeconds: Int = 20) throws {
        socket = try RawSocket(port: port, host: host, receiveTimeoutSeconds: receiveTimeoutSeconds)
    }

    /// Sends one request and reads its response; throws when the connection closes first.
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    public func send(_ method: String, _ target: String, headers: [String: String] = [:], body: Data = Data()) throws -> HTTPReply {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || ["POST", "PUT"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        try socket.send(Data((head + "\r\n").utf8) + body)
        let data = socket.read { HTTPReply.parse($0) != nil }
        guard let reply = HTTPReply.parse(data) else {
            throw RawSocketError("no complete response to \(method) \(target); received: \(String(decoding: data, as: UTF8.self))")
        }
        return reply
    }

    public func close() {
        socket.close()
    }
}

/// One request on a connection of its own, closed afterwards.
public enum HTTPTestClient {
    /// - Parameter patience: seconds to wait for the answer; requests whose answer takes long by design
    ///   (a cast of a 60 MB playlist on a loaded machine) give more than the usual 20.
    public static func send(
        port: UInt16, _ method: String, _ target: String, headers: [String: String] = [:], body: Data = Data(), patience: Int = 20
    ) async throws -> HTTPReply {
        try await BlockingWork.run {
            let connection = try HTTPTestConnection(port: port, receiveTimeoutSeconds: patience)
            defer { connection.close() }
            return try connection.send(method, target, headers: headers, body: body)
        }
    }

    public static func send(port: UInt16, _ method: String, _ target: String, json: Any, patience: Int = 20) async throws -> HTTPReply {
        let body = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .withoutEscapingSlashes])
        return try await send(port: port, method, target, headers: ["Content-Type": "application/json"], body: body, patience: patience)
    }
}
