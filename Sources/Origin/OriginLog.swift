import Foundation
import Synchronization

/// The test origin's request log: the newest rows in memory (for `GET /_origin/log`), every row in a
/// JSON Lines file when one is given.
public final class OriginLog: Sendable {
    /// Rows kept in memory; older ones are dropped from memory (never from the file), so a long run
    /// does not grow the origin without end.
    public static let memoryLimit = 100_000

    private struct State {
        var rows: [OriginLogRow] = []
        var dropped = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())
    private let file: FileHandle?
    /// Appends happen here, off libmicrohttpd's polling thread.
    private let writer = DispatchQueue(label: "airlab.origin.log")

    /// - Parameter file: created or truncated.
    public init(file: URL?) throws {
        if let file {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: file.path])
            }
            self.file = try FileHandle(forWritingTo: file)
        } else {
            self.file = nil
        }
    }

    func append(_ row: OriginLogRow) {
        let waiters = state.withLock { state in
            state.rows.append(row)
            if state.rows.count > Self.memoryLimit {
                let excess = state.rows.count - Self.memoryLimit / 2
                state.rows.removeFirst(excess)
                state.dropped += excess
            }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
        if let file {
            let line = Data((row.jsonLine + "\n").utf8)
            writer.async { try? file.write(contentsOf: line) }
        }
    }

    /// The rows in memory, oldest first.
    public var rows: [OriginLogRow] {
        state.withLock { $0.rows }
    }

    /// The rows once at least `count` are in memory, or whatever is there when `timeout` has passed: a
    /// client's response can end a moment before the origin logs it.
    public func rows(count: Int, within timeout: Duration) async -> [OriginLogRow] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let rows = self.rows
            if rows.count >= count || ContinuousClock.now >= deadline { return rows }
            await nextAppend(after: rows.count, before: deadline)
        }
    }

    private func nextAppend(after seen: Int, before deadline: ContinuousClock.Instant) async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
        await withCheckedContinuation { continuation in
            // A row that came, or a deadline that passed, since the caller looked ends the wait at once.
            let waits = state.withLock { state in
                guard state.rows.count == seen, ContinuousClock.now < deadline else { return false }
                state.waiters[id] = continuation
                return true
            }
            if !waits { continuation.resume() }
        }
        timer.cancel()
    }

    /// Waits until every row appended so far is in the file.
    public func flush() {
        writer.sync {}
    }

    /// The body of `GET /_origin/log`: the rows as a JSON array, with how many were dropped from memory.
    var json: Data {
        let (rows, dropped) = state.withLock { ($0.rows, $0.dropped) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        struct Document: Encodable {
            let dropped: Int
            let requests: [OriginLogRow]
        }
        return (try? encoder.encode(Document(dropped: dropped, requests: rows))) ?? Data("{}".utf8)
    }
}
