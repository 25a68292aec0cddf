import CMicroHTTPD
import Foundation

/// What the server sends back for one request.
///
/// libmicrohttpd writes the status line and `Content-Length` itself: the reason phrase is always its
/// standard one for the status (never empty), and a `Content-Length` or `Transfer-Encoding` set here
/// is ignored so the length on the wire can never disagree with the body.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes(Data)
        /// A `text/event-stream` that stays open; events are pushed later through the stream.
        case eventStream(SSEStream)
        /// `101 Switching Protocols`, after which the connection carries raw bytes both ways.
        case upgrade(UpgradedConnection)
        /// Bytes produced while they are sent, by a source that may pace, pause or cut them.
        case stream(StreamedBody)
    }

    /// 100…999; anything else is sent as 500.
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// The phrase libmicrohttpd puts on the status line.
    public var reasonPhrase: String {
        guard (100...999).contains(status), let phrase = MHD_get_reason_phrase_for(UInt32(status)) else {
            return "Internal Server Error"
        }
        return String(cString: phrase)
    }

    /// A UTF-8 text body; a one-line reason for an error status reads well in curl and logs alike.
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: Data(text.utf8))
    }

    /// A server-sent event stream; `stream` may already hold events, which are sent first.
    public static func eventStream(_ stream: SSEStream, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers.set("Content-Type", "text/event-stream")
        headers.set("Cache-Control", "no-cache")
        var response = HTTPResponse(status: 200, headers: headers)
        response.body = .eventStream(stream)
        return response
    }

    /// A body produced by `source` as it is sent; `length` is the `Content-Length` to declare (nil:
    /// none, chunked on HTTP/1.1).
    public static func streamed(
        status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), length: UInt64?, source: any BodySource
    ) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: headers)
        response.body = .stream(StreamedBody(length: length, source: source))
        return response
    }

    /// Switches the connection to `protocolName` (`PTTH/1.0`); bytes written to `connection` before
    /// the switch completes are sent right after the 101.
    public static func upgrade(to protocolName: String, _ connection: UpgradedConnection, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers.set("Upgrade", protocolName)
        var response = HTTPResponse(status: 101, headers: headers)
        response.body = .upgrade(connection)
        return response
    }
}
