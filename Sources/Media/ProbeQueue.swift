import Dispatch

/// Where blocking probes run: threads of their own, never Swift's cooperative pool.
///
/// A probe can block for its whole timeout in a read; on the cooperative pool (one thread per core,
/// two here) two such probes would stall every task in the process.
enum ProbeQueue {
    private static let marker = DispatchSpecificKey<Bool>()
    private static let queue: DispatchQueue = {
        let queue = DispatchQueue(label: "airlab.media.probe", attributes: .concurrent)
        queue.setSpecific(key: marker, value: true)
        return queue
    }()

    /// True on a probe thread: what tests check to see that probing left the cooperative pool.
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
