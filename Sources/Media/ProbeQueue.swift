import Dispatch

/// Where blocking probes run: threads of their own, never Swift's cooperative pool.
///
/// A probe can block for its whole timeout in a read; on the cooperative pool (one thread per core,
/// two here) two such probes would stall every task in the process.
enum ProbeQueue {
    private static let queue = DispatchQueue(label: "airlab.media.probe", attributes: .concurrent)

    static func run<Value: Sendable>(_ work: @escaping @Sendable () throws(MediaError) -> Value) async throws(MediaError) -> Value {
        let result: Result<Value, MediaError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(MediaError) -> Value in try work() })
            }
        }
        return try result.get()
    }
}
