import Foundation
import HTTP
import Synchronization

/// The bytes of one origin response on their way out: a `BodyDelivery` decides how many go when, the
/// clock is read here, and the request's log row is written once the response is over.
final class ServedBody: BodySource, @unchecked Sendable {
    private struct State {
        var delivery: BodyDelivery
        var firstRead: ContinuousClock.Instant?
    }

    private let bytes: Data
    private let state: Mutex<State>
    private let started: ContinuousClock.Instant
    private let row: OriginLogRow
    private let log: OriginLog

    /// - Parameters:
    ///   - bytes: the body to serve, already cut to the requested range.
    ///   - row: the request's row so far; times and bytes are filled in here.
    ///   - started: the origin's time zero.
    init(bytes: Data, faults: BodyFaults, row: OriginLogRow, started: ContinuousClock.Instant, log: OriginLog) {
        self.bytes = bytes
        self.state = Mutex(State(delivery: BodyDelivery(size: bytes.count, faults: faults)))
        self.row = row
        self.started = started
        self.log = log
    }

    var declaredLength: UInt64 {
        state.withLock { UInt64($0.delivery.declaredLength) }
    }

    func next(capacity: Int) -> BodyChunk {
        let now = ContinuousClock.now
        return state.withLock { state in
            let first = state.firstRead ?? now
            state.firstRead = first
            switch state.delivery.next(capacity: capacity, elapsed: first.duration(to: now)) {
            case .send(let count):
                let start = bytes.startIndex + state.delivery.sentBytes
                state.delivery.sent(count)
                return .bytes(bytes.subdata(in: start..<(start + count)))
            case .wait(let delay): return .wait(delay)
            case .end: return .end
            case .abort: return .abort
            case .reset: return .reset
            }
        }
    }

    func finished(delivered: Bool) {
        let now = ContinuousClock.now
        var row = row
        state.withLock { state in
            row.firstByte = state.firstRead.map { Self.seconds(started.duration(to: $0)) }
            row.bytes = state.delivery.sentBytes
        }
        row.lastByte = Self.seconds(started.duration(to: now))
        row.completed = delivered
        log.append(row)
    }

    static func seconds(_ duration: Duration) -> Double {
        BodyDelivery.seconds(duration)
    }
}
