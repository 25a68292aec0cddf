import Foundation

/// A request as the client side sends it.
public struct HTTPClientRequest: Sendable {
    public var method: String
    /// The path and query, as they go on the request line (`/scrub?position=12`).
    public var target: String
    public var headers: HTTPHeaders
    public var body: Data

    public init(method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The request line, the headers and the body as bytes. `Host` and `Content-Length` are always
    /// written: strict in what we send, whatever the peer would tolerate.
    func serialized(host: String) -> Data {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if headers["Host"] == nil { head += "Host: \(host)\r\n" }
        for field in headers.fields where !field.name.caseInsensitiveEquals("Content-Length") {
            head += "\(field.name): \(field.value)\r\n"
        }
        if !body.isEmpty || !["GET", "HEAD"].contains(method) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return Data(head.utf8) + body
    }
}

/// A status line and headers, as read before the body.
public struct HTTPClientResponseHead: Sendable {
    public var version: String
    public var status: Int
    public var reason: String
    public var headers: HTTPHeaders

    public init(version: String = "HTTP/1.1", status: Int, reason: String = "", headers: HTTPHeaders = HTTPHeaders()) {
        self.version = version
        self.status = status
        self.reason = reason
        self.headers = headers
    }

    /// Whether the connection may carry another request after this response.
    var keepsAlive: Bool {
        let connection = headers["Connection"]?.lowercased() ?? ""
        if connection.contains("close") { return false }
        return version == "HTTP/1.1" || connection.contains("keep-alive")
    }

    var isChunked: Bool {
        headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true
    }

    var contentLength: Int? {
        headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}

/// A whole response: head and body.
public struct HTTPClientResponse: Sendable {
    public var head: HTTPClientResponseHead
    public var body: Data

    public init(head: HTTPClientResponseHead, body: Data = Data()) {
        self.head = head
        self.body = body
    }

    public var status: Int { head.status }
    public var headers: HTTPHeaders { head.headers }

    /// The body as UTF-8 text, invalid bytes replaced.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
