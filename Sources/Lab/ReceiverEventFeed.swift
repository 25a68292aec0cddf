import Foundation
import SenderProtocol
import Transport

/// A receiver's `GET /events`, connected: its server-sent events as `SessionEvent`s.
///
/// Connecting returns once the receiver has answered 200, so a sender that subscribes before `/play`
/// sees every event of the session it starts. The stream ends when the receiver closes it; it fails
/// when the connection breaks or stays silent past three heartbeats; `close()` ends it from any thread.
/// It is read on the transfer loop, with no thread of its own.
public final class ReceiverEventFeed: Sendable {
    /// The receiver sends a heartbeat every 15 s; three missed ones mean it is gone.
    public static let silenceLimit = 45

    public let receiver: Receiver
    private let source: EventSource

    private init(receiver: Receiver, source: EventSource) {
        self.receiver = receiver
        self.source = source
    }

    static func connect(_ client: ReceiverClient) async throws(ReceiverError) -> ReceiverEventFeed {
        var request = client.request(.get, Route.events.path(), wait: client.timeout)
        // A stream has no end to wait for: only silence ends it. libcurl's low-speed rule measures over
        // seconds, so a heartbeat's few bytes keep it above a byte a second for a while after each one.
        request.totalTimeout = nil
        request.lowSpeed = TransferRequest.LowSpeed(bytesPerSecond: 1, seconds: silenceLimit)
        switch await EventSource.open(request) {
        case .open(let source):
            guard source.head.status == 200 else {
                source.close()
                throw client.failure(.unexpectedAnswer(status: source.head.status, message: "GET /events"))
            }
            return ReceiverEventFeed(receiver: client.receiver, source: source)
        case .refused(let status, let headers, let body):
            let answer = ReceiverAnswer(status: status, headers: headers.map { ($0.name, $0.value) }, body: body)
            try client.check(answer)
            throw client.failure(.unexpectedAnswer(status: status, message: answer.text))
        case .failed(.transfer(let error)):
            throw client.failure(ReceiverClient.problem(error, during: "GET /events"))
        case .failed(let error):
            throw client.failure(.connectionLost("GET /events: \(error)"))
        }
    }

    /// The events; ending the iteration closes the stream. Read it once.
    public var events: AsyncThrowingStream<SessionEvent, any Error> {
        let source = source
        let label = receiver.label
        return AsyncThrowingStream(SessionEvent.self) { continuation in
            let reading = Task {
                do {
                    for try await event in source.events {
                        // Events that do not read as events are skipped: a sender outlives a receiver's extensions.
                        if let decoded = try? SessionEvent(eventName: event.event, data: event.data) {
                            continuation.yield(decoded)
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: ReceiverError(receiver: label, problem: .connectionLost("the event stream: \(error)")))
                }
            }
            continuation.onTermination = { _ in
                reading.cancel()
                source.close()
            }
        }
    }

    /// Ends the stream; a read waiting on it returns at once.
    public func close() {
        source.close()
    }
}
