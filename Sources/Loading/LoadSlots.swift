/// A counting semaphore for async code: at most `limit` loads are in flight at once.
///
/// Resolving a playlist with fifty interstitials must not open fifty connections to one ad server at
/// the same instant; waiters are served in the order they asked.
public actor LoadSlots {
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(_ limit: Int) {
        available = max(1, limit)
    }

    /// Runs `body` in a slot, waiting for one to free up first.
    public func run<T: Sendable>(_ body: @Sendable () async throws(LoadingError) -> T) async throws(LoadingError) -> T {
        await acquire()
        do {
            let value = try await body()
            release()
            return value
        } catch {
            release()
            throw error
        }
    }

    private func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            available += 1
        } else {
            // The slot passes straight to the next waiter, so `available` stays as it is.
            waiting.removeFirst().resume()
        }
    }
}
