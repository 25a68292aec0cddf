import Foundation

/// Runs blocking work (waiting for a child process, say) on a thread of its own.
///
/// Swift's cooperative pool has one thread per core (two here); a call that waits for seconds would
/// hold one all that time. libdispatch's global queues grow only about once a second when busy, so a
/// fresh thread per call is both simpler and faster for the few such calls a command makes.
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
