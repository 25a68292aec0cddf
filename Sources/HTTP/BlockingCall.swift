import Foundation

/// Runs blocking socket work (an `HTTPClientConnection` call) on a thread of its own.
///
/// Swift's cooperative pool has one thread per core (two here); a read that waits for a receiver's
/// next event would hold one for the whole cast. libdispatch's global queues grow only about once a
/// second when busy, so a fresh thread per call is both simpler and faster for a sender's few calls.
public enum BlockingCall {
    public static func run<Value: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> Value) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(Failure) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        return try result.get()
    }
}
