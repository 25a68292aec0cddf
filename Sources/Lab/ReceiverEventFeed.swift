import Foundation
import HTTP
import SenderProtocol

/// A receiver's `GET /events`, connected: its server-sent events as `SessionEvent`s.
///
/// Connecting returns once the receiver has answered 200, so a sender that subscribes before `/play`
/// sees every event of the session it starts. The stream ends when the receiver closes it; it fails
/// when the connection breaks or stays silent past three heartbeats; `close()` ends it from any thread.
public final class ReceiverEventFeed: Sendable {
    /// The receiver sends a heartbeat every 15 s; three missed ones mean it is gone.
    public static let silenceLimit: Double = 45

    public let receiver: Receiver
    private let connection: HTTPClientConnection

    private init(receiver: Receiver, connection: HTTPClientConnection) {
        self.receiver = receiver
        self.connection = connection
    }

    static func connect(_ client: ReceiverClient) async throws(ReceiverError) -> ReceiverEventFeed {
        let connection = try await client.connect()
        let head: HTTPClientResponseHead
        let credentials = client.credentials
        do {
            head = try await BlockingCall.run { () throws(HTTPClientError) in
                var request = HTTPClientRequest(method: "GET", target: Route.events.path(), headers: ["Accept": "text/event-stream"])
                credentials?.authorize(&request)
                let head = try connection.open(request)
                guard head.status == 401, let credentials else { return head }
                // A password-protected receiver refuses first: answer its challenge on the same connection.
                let refusal = HTTPClientResponse(head: head, body: try connection.finishBody())
                guard let retry = credentials.answering(refusal, to: request), connection.isReusable else { return head }
                return try connection.open(retry)
            }
        } catch {
            connection.close()
            throw client.failure(.connectionLost("GET /events: \(error)"))
        }
        guard head.status == 200 else {
            let body = (try? await BlockingCall.run { () throws(HTTPClientError) in try connection.readBodyLine() }) ?? nil
            connection.close()
            try client.check(HTTPClientResponse(head: head, body: Data((body ?? "").utf8)))
            throw client.failure(.unexpectedAnswer(status: head.status, message: body ?? ""))
        }
        connection.setTimeout(silenceLimit)
        return ReceiverEventFeed(receiver: client.receiver, connection: connection)
    }

    /// The events, read on a thread of their own; ending the iteration closes the connection.
    public var events: AsyncThrowingStream<SessionEvent, any Error> {
        let connection = connection
        let label = receiver.label
        return AsyncThrowingStream(SessionEvent.self) { continuation in
            let reader = Thread {
                var parser = ServerSentEventParser()
                do throws(HTTPClientError) {
                    while let line = try connection.readBodyLine() {
                        guard let event = parser.consume(line: line) else { continue }
                        // Events that do not read as events are skipped: a sender outlives a receiver's extensions.
                        if let decoded = try? SessionEvent(eventName: event.event, data: event.data) {
                            continuation.yield(decoded)
                        }
                    }
                    continuation.finish()
                } catch {
                    guard error != .closedLocally else { return continuation.finish() }
                    continuation.finish(throwing: ReceiverError(receiver: label, problem: .connectionLost("the event stream: \(error)")))
                }
            }
            reader.start()
            continuation.onTermination = { _ in connection.close() }
        }
    }

    /// Ends the stream; a read waiting on it returns at once.
    public func close() {
        connection.close()
    }
}
