import Foundation

/// What the server knows about one request while libmicrohttpd calls back about it; its address is
/// the request's `con_cls`.
///
/// Only the polling thread touches it, except `response`, which a handler's task sets while the
/// connection is suspended and which both sides read and write under `ServerCore`'s lock.
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
    var response: HTTPResponse?
    var stream: SSEStream?
    var upgrade: UpgradedConnection?

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

    var request: HTTPRequest {
        HTTPRequest(
            method: method, path: path, query: query, headers: headers, body: body, version: version,
            connection: connectionID)
    }
}
