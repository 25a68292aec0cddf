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

    static func run<Value: Sendable>(_ work: @escaping @Sendable () throws(MediaError) -> Value) async throws(MediaError) -> Value {
        let result: Result<Value, MediaError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(MediaError) -> Value in try work() })
            }
        }
        return try result.get()
    }
}
