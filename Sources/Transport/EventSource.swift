import Foundation
import ServerSentEvents
import Synchronization

/// A `text/event-stream` response read on the transfer loop as it arrives: the client's side of
/// server-sent events.
///
/// Opening returns once the server has answered: with a 2xx head the stream is open and its events
/// wait in `events` until they are read; any other final answer comes back with the start of its
/// body. The stream ends when the server ends the body, fails when the transfer does (a timeout of
/// the request's, such as its low-speed limit for a stream that went silent, or a broken
/// connection), and `close()` ends it from any thread. No thread is started for it: its bytes arrive
/// on the loop's thread and are parsed there.
public final class EventSource: Sendable {
    public enum Opening: Sendable {
        case open(EventSource)
        /// The server's final answer was not 2xx: its status, headers and the first bytes of its body.
        case refused(status: Int, headers: [TransferResult.HeaderField], body: Data)
        case failed(EventStreamError)
    }

    /// Longest line the stream may send, and most bytes one event may gather, unless the opener says
    /// otherwise: a server cannot make the client hold more than this.
    public static let maximumEventBytes = 1 << 20
    /// Bytes of a refusal's body kept; the transfer ends there.
    public static let maximumRefusalBytes = 64 * 1024
    /// Events that may wait unread. A server that outpaces its reader by more fails the stream instead
    /// of growing the client's memory: with `maximumEventBytes`, what one stream can hold is bounded.
    public static let maximumWaitingEvents = 256

    public let head: TransferHead
    /// The events in order; iterate once. Ending the iteration closes the stream.
    public let events: AsyncThrowingStream<ServerSentEvent, any Error>
    private let fetch: StreamFetch

    private init(head: TransferHead, events: AsyncThrowingStream<ServerSentEvent, any Error>, fetch: StreamFetch) {
        self.head = head
        self.events = events
        self.fetch = fetch
    }

    /// Sends `request` (a GET, with `Accept: text/event-stream` added) and waits for the answer's head.
    ///
    /// - Parameter maximumEventBytes: the longest line, and the most bytes one event may gather; past
    ///   it the stream fails with `EventStreamError.eventTooLarge`.
    public static func open(_ request: TransferRequest, maximumEventBytes: Int = maximumEventBytes, on loop: TransferLoop = .shared) async -> Opening {
        var request = request
        if !request.headers.contains(where: { $0.name.lowercased() == "accept" }) { request.headers.append(("Accept", "text/event-stream")) }
        let (events, continuation) = AsyncThrowingStream.makeStream(
            of: ServerSentEvent.self, bufferingPolicy: .bufferingOldest(maximumWaitingEvents))
        let reader = EventStreamReader(events: continuation, maximumEventBytes: max(1, maximumEventBytes))
        let fetch = StreamFetch()
        continuation.onTermination = { _ in fetch.cancel() }
        let sent = request
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (opened: CheckedContinuation<Opening, Never>) in
                reader.whenOpen { head in
                    opened.resume(returning: .open(EventSource(head: head, events: events, fetch: fetch)))
                }
                let task = Task {
                    let result = await loop.fetch(sent, receiver: reader)
                    reader.finished(result) { opening in opened.resume(returning: opening) }
                }
                fetch.started(task)
            }
        } onCancel: {
            // The opening then ends `failed(.transfer(.cancelled))`.
            fetch.cancel()
        }
    }

    /// Ends the stream and its transfer; a reader waiting on `events` sees its end.
    public func close() {
        fetch.cancel()
    }

    deinit {
        close()
    }
}

/// The task that runs a stream's transfer, cancelled by whichever comes first: `close()`, the end of
/// the iteration, or the opener's cancellation (which may come before the task exists).
private final class StreamFetch: Sendable {
    private let state = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

    func started(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.task
        }?.cancel()
    }
}

/// Why an event stream could not be opened or did not end cleanly.
public enum EventStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    case transfer(TransferError)
    /// A line or an event longer than the stream's cap (`EventSource.maximumEventBytes` unless its opener set another).
    case eventTooLarge(limit: Int)
    /// More events than `EventSource.maximumWaitingEvents` arrived that the reader had not read.
    case readerFellBehind(limit: Int)

    public var description: String {
        switch self {
        case .transfer(let error): error.description
        case .eventTooLarge(let limit): "the event stream sent an event larger than \(limit) bytes"
        case .readerFellBehind(let limit): "the event stream sent more than \(limit) events faster than they were read"
        }
    }
}

/// The stream's `TransferReceiver`: on the loop's thread it splits the body into lines, parses them
/// and hands each event to the stream; before a 2xx head it keeps the start of a refusal's body.
final class EventStreamReader: TransferReceiver, Sendable {
    private struct State {
        var openHandler: (@Sendable (TransferHead) -> Void)?
        var open = false
        var tooLarge = false
        var fellBehind = false
        var refusal = Data()
        var decoder: EventStreamDecoder
    }

    private let state: Mutex<State>
    private let events: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation
    private let maximumEventBytes: Int

    init(events: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation, maximumEventBytes: Int) {
        self.events = events
        self.maximumEventBytes = maximumEventBytes
        state = Mutex(State(decoder: EventStreamDecoder(maximumEventBytes: maximumEventBytes)))
    }

    func whenOpen(_ handler: @escaping @Sendable (TransferHead) -> Void) {
        state.withLock { $0.openHandler = handler }
    }

    func receive(head: TransferHead) -> Bool {
        let handler = state.withLock { state -> (@Sendable (TransferHead) -> Void)? in
            // A head before the final one (a Digest challenge libcurl answers, a redirect) brings a body
            // that is not this one's.
            state.refusal = Data()
            guard (200..<300).contains(head.status), !state.open else { return nil }
            state.open = true
            defer { state.openHandler = nil }
            return state.openHandler
        }
        handler?(head)
        return true
    }

    func receive(body: UnsafeRawBufferPointer) -> Bool {
        var ready: [ServerSentEvent] = []
        let keepGoing = state.withLock { state -> Bool in
            guard state.open else {
                state.refusal.append(contentsOf: body.prefix(EventSource.maximumRefusalBytes - state.refusal.count))
                return state.refusal.count < EventSource.maximumRefusalBytes
            }
            ready = state.decoder.decode(body)
            state.tooLarge = state.decoder.tooLarge
            return !state.tooLarge
        }
        for event in ready {
            if case .dropped = events.yield(event) {
                state.withLock { $0.fellBehind = true }
                return false
            }
        }
        return keepGoing
    }

    /// The transfer ended: the stream finishes, or, when it never opened, the opening learns why.
    func finished(_ result: TransferResult, unopened: (EventSource.Opening) -> Void) {
        let (open, tooLarge, fellBehind, body) = state.withLock { ($0.open, $0.tooLarge, $0.fellBehind, $0.refusal) }
        guard open else {
            events.finish()
            if let status = result.status, result.error == nil || result.error == .endedByReceiver {
                unopened(.refused(status: status, headers: result.headers, body: body))
            } else {
                unopened(.failed(.transfer(result.error ?? .partialBody("no answer"))))
            }
            return
        }
        switch result.error {
        case nil, .cancelled?: events.finish()
        case _ where tooLarge: events.finish(throwing: EventStreamError.eventTooLarge(limit: maximumEventBytes))
        case _ where fellBehind: events.finish(throwing: EventStreamError.readerFellBehind(limit: EventSource.maximumWaitingEvents))
        case let error?: events.finish(throwing: EventStreamError.transfer(error))
        }
    }
}
