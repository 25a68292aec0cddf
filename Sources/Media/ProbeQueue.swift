import Dispatch
import MediaValues

/// Where demuxing runs: threads of its own, never Swift's cooperative pool.
///
/// libavformat blocks the thread it runs on until it has read stream info (or the deadline passes);
/// on the cooperative pool (one thread per core, two here) two such calls would stall every task in
/// the process.
enum ProbeQueue {
    private static let marker = DispatchSpecificKey<Bool>()
    private static let queue: DispatchQueue = {
        let queue = DispatchQueue(label: "airlab.media.probe", attributes: .concurrent)
        queue.setSpecific(key: marker, value: true)
        return queue
    }()

    /// True on a probe thread: what tests check to see that demuxing left the cooperative pool.
    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: marker) ?? false
    }

    /// Runs `work` on a probe thread, handing it the deadline it has there.
    ///
    /// The time spent waiting for a probe thread is not the input's doing: when many receivers probe at
    /// once, or the machine is loaded, the queue can hold work for seconds. So `work` gets `deadline`
    /// moved on by that wait, and only its own reading of the bytes counts against it.
    static func run<Value: Sendable>(
        by deadline: ContinuousClock.Instant, _ work: @escaping @Sendable (ContinuousClock.Instant) throws(MediaError) -> Value
    ) async throws(MediaError) -> Value {
        let queued = ContinuousClock.now
        let result: Result<Value, MediaError> = await withCheckedContinuation { continuation in
            queue.async {
                let waited = ContinuousClock.now - queued
                continuation.resume(returning: Result { () throws(MediaError) -> Value in try work(deadline + waited) })
            }
        }
        return try result.get()
    }
}
