import Playback
import Synchronization

/// One session on a `SessionDriver`: what its owner commands and reads. Commands are applied at the
/// clock's now, after everything due has fired; their outputs reach the owner's callbacks before the
/// call returns (unless it is made from one of this session's own callbacks).
///
/// The driver forgets the session when its last handle goes.
public final class DrivenSession: Sendable {
    public let driver: SessionDriver
    let id: UInt64
    private let outbox: SessionOutbox
    /// The engine as `activeEngineNow` last read it from the driver, kept until the driver's next
    /// change: senders poll many times a second, and between changes only the clock moves.
    private let lastRead = Mutex<LastRead?>(nil)

    /// A class, so that taking it from the lock retains one object: both polling threads of a receiver
    /// read it for every `/playback-info`, and copying the engine's many parts under the lock held it
    /// long enough for them to queue there.
    private final class LastRead: Sendable {
        /// The driver's change count when it was read.
        let changeCount: UInt64
        /// nil once the session has ended.
        let engine: PlaybackEngine?
        /// The clock's time at the session's time 0.
        let origin: Double

        init(changeCount: UInt64, engine: PlaybackEngine?, origin: Double) {
            self.changeCount = changeCount
            self.engine = engine
            self.origin = origin
        }
    }

    init(driver: SessionDriver, id: UInt64, outbox: SessionOutbox) {
        self.driver = driver
        self.id = id
        self.outbox = outbox
    }

    deinit {
        driver.forget(id)
    }

    // MARK: - Commands

    /// Applies a sender's command now and returns what it caused (a refusal among them, if refused);
    /// nil when the session has ended meanwhile.
    public func handle(_ command: PlaybackCommand) -> [PlaybackEvent]? {
        driver.handle(command, in: id)
    }

    /// Ends the session now for a reason of the owner's: replaced, shutdown, the sender left.
    public func end(reason: String) {
        driver.end(id, reason: reason)
    }

    /// Plays on from now with a plan made again, without interrupting playback; ignored once ended.
    public func update(to revision: PlanRevision) {
        driver.update(id, to: revision)
    }

    // MARK: - Reads

    /// The engine as it stands now, on a copy advanced to this moment: reading never changes the session.
    public var engineNow: PlaybackEngine {
        advancedToNow(driver.read(id) { ($0.engine, driver.sessionTime(of: $0)) }!)
    }

    /// `engineNow` while the session plays, nil once it has ended. Read from the driver only after it
    /// changed something; until then the engine last read is advanced to now, as the driver's would be.
    public var activeEngineNow: PlaybackEngine? {
        let changeCount = driver.changeCount
        var read = lastRead.withLock { $0 }
        if read?.changeCount != changeCount {
            let fresh = driver.read(id, counted: { session, count in
                LastRead(changeCount: count, engine: session.report == nil ? session.engine : nil, origin: session.origin)
            })!
            lastRead.withLock { last in
                if last.map({ $0.changeCount < fresh.changeCount }) ?? true { last = fresh }
            }
            read = fresh
        }
        guard let read, let engine = read.engine else { return nil }
        return advancedToNow((engine, driver.sessionTime(of: engine, origin: read.origin)))
    }

    public var isActive: Bool { driver.read(id) { $0.report == nil }! }

    /// The final report once ended; until then the report so far.
    public var report: SessionReport {
        driver.read(id) { $0.report ?? $0.recorder.finish(at: $0.engine.now) }!
    }

    /// The fetches answered so far (all of them once ended); nil for a session that fetches no segments.
    public var fetchTrace: FetchTrace? {
        driver.read(id) { $0.fetches?.trace }!
    }

    /// Runs `body` with the current engine (not advanced) and whether the session is active, while no
    /// output of this session can reach its owner: a listener subscribed in `body` gets this snapshot and
    /// then every later event, none twice and none lost.
    public func withCurrentState<T>(_ body: (PlaybackEngine, Bool) -> T) -> T {
        driver.withCurrentState(id, outbox: outbox, body)
    }

    private func advancedToNow(_ snapshot: (engine: PlaybackEngine, now: Double)) -> PlaybackEngine {
        var engine = snapshot.engine
        _ = engine.advance(to: snapshot.now)
        return engine
    }
}
