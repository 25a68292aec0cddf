import Foundation
import SenderProtocol
import Synchronization
import Transport

/// The inputs one participant sends its group, posted one at a time in the order they were made, by
/// one task, on the transfer loop (libcurl keeps the connection between posts and, when the host had
/// closed it, sends the post again on a new one).
///
/// The coordinator's rules assume a participant's inputs arrive in order (a suspension ends after it
/// began); one queue per participant is what keeps that true over HTTP.
final class GroupOutbox: Sendable {
    private let queue: AsyncStream<GroupInputMessage>.Continuation
    private let then = Mutex<(@Sendable () -> Void)?>(nil)

    /// At most this many inputs wait: a host that stopped answering cannot make the queue grow without end.
    static let limit = 1024

    init(url: String, timeout: Double) {
        let (messages, queue) = AsyncStream.makeStream(of: GroupInputMessage.self, bufferingPolicy: .bufferingOldest(Self.limit))
        self.queue = queue
        let request = TransferRequest(
            url: url, method: .post, headers: [("Content-Type", "application/json")], connectTimeout: .seconds(timeout),
            firstByteTimeout: .seconds(timeout), lowSpeed: TransferRequest.LowSpeed(bytesPerSecond: 1, seconds: Int(timeout.rounded(.up))),
            totalTimeout: .seconds(6 * timeout), bodyLimit: 64 * 1024)
        // Holds the outbox until its queue is finished and sent: `finish(then:)` is always called.
        Task { [self] in
            for await message in messages {
                var post = request
                post.body = WireJSON.data(message)
                // An input the host cannot take is dropped (the host is gone, or refused it), as a network would.
                _ = await TransferLoop.shared.fetch(post)
            }
            then.withLock { $0 }?()
        }
    }

    func post(_ message: GroupInputMessage) {
        queue.yield(message)
    }

    /// Sends what is queued, then runs `then` and stops.
    func finish(then: @escaping @Sendable () -> Void) {
        self.then.withLock { $0 = then }
        queue.finish()
    }
}
