// TestSupport is an ordinary target, so a release build of the package (which builds no tests and
// finds no Testing module) compiles it too; the trait exists only where tests are built.
#if canImport(Testing)
import Dispatch
import Testing

/// Runs each test of a suite (or one test) on a thread of its own instead of Swift concurrency's
/// shared pool: `@Suite(.ownThread)`.
///
/// Swift Testing runs every test on the cooperative pool, two threads on a 2-core machine, and a test
/// that computes for seconds without suspending holds one of them. Parsing a 50,000-variant playlist
/// or simulating 30,000 breaks in a debug build does just that: with a few such tests at the start of
/// a run, every other test (and every timer, server handler and continuation they wait for) waited
/// 40 s for a thread, and tests whose servers or deadlines count real time failed. On a thread of its
/// own a long test shares the cores through the kernel's scheduler, which preempts it, so the pool
/// stays free for the rest. Everything the test awaits resumes on its thread too (a task executor
/// preference), so a test marked this way is also immune to a busy pool.
public struct OwnThread: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope has no body to move; its tests get theirs one by one.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(ThreadExecutor()) { try await function() }
    }
}

extension Trait where Self == OwnThread {
    /// Each test on a thread of its own, off the shared pool.
    public static var ownThread: Self { OwnThread() }
}

/// A task executor with one thread: a serial dispatch queue, whose thread is libdispatch's own and
/// never one of the cooperative pool's.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "airlab.tests.own-thread")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
#endif
