import Foundation

/// A delegate queue that runs each delegate call at once, on the thread that makes it.
///
/// Linux's URLSession (libcurl underneath) hands every chunk of a body to its delegate queue with
/// `addOperation` and goes on reading: nothing waits for the delegate. With an ordinary queue, chunks
/// pile up in it faster than a delegate drains them, and go on arriving after the delegate has asked
/// for the transfer to stop: four endless bodies capped at 64 MiB held 5 GB. Run inline, a chunk is
/// delivered from inside libcurl's write callback, so libcurl reads the next one only after the
/// delegate has kept or dropped this one: what a transfer holds is its own body plus one chunk.
///
/// The delegate then runs on the session's work queue, which `URLSessionTask.cancel()` enters
/// synchronously: a delegate must cancel from another queue (`HTTPTransfer.stop`), never inline.
/// `addOperation(_:)` with a block is the one entry URLSession uses; the test of `inspect --resolve`
/// against endless bodies measures the process's peak memory, so a URLSession that went around it
/// would be seen.
final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}
