import Foundation

/// What the server knows about one request while libmicrohttpd calls back about it; its address is
/// the request's `con_cls`.
///
/// Only its connection's polling thread touches it, except `response`, which a handler's task sets
/// while the connection is suspended and which both sides read and write under `ServerCore`'s lock.
final class RequestContext: @unchecked Sendable {
    let connection: OpaquePointer
    let connectionID: HTTPConnectionID
    let method: String
    let path: String
    let version: String
    let headers: HTTPHeaders
    let query: [String: String]
    var body = Data()
    /// Bytes thrown away after the body went over the cap; past a bound the connection is dropped.
    var discarded = 0
    var overflowed = false
    /// Credentials were missing or wrong on a request without a body: the challenge waits for the
    /// final call, which keeps the connection open for the client's retry.
    var refusal: CredentialVerdict?
    /// Left by a handler's task (or a stopping server) under the server's lock, before it resumes
    /// the connection.
    var response: HTTPResponse?
    /// Suspended for a handler's task, on the polling thread that owns the connection; only such a
    /// request has a response to collect and a place in the server's waiting list.
    var handedToTask = false
    var stream: SSEStream?
    var streamedBody: StreamedBody?
    var upgrade: UpgradedConnection?
    /// The relay's channel, for a connection a front relays.
    var channel: SecureChannel?

    init(
        connection: OpaquePointer, connectionID: HTTPConnectionID, method: String, path: String, version: String,
        headers: HTTPHeaders, query: [String: String]
    ) {
        self.connection = connection
        self.connectionID = connectionID
        self.method = method
        self.path = path
        self.version = version
        self.headers = headers
        self.query = query
    }

    /// Whether the headers promise body bytes; HTTP/1.1 has no other way to send any.
    var announcesBody: Bool {
        if headers["Transfer-Encoding"] != nil { return true }
        return headers["Content-Length"].flatMap(Int.init).map { $0 > 0 } ?? false
    }

    var request: HTTPRequest {
        HTTPRequest(
            method: method, path: path, query: query, headers: headers, body: body, version: version,
            connection: connectionID, channel: channel)
    }
}
