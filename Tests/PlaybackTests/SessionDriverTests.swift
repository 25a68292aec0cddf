import Dispatch
import HLS
@testable import Playback
@testable import Sessions
import Synchronization
import Testing

/// The one session driver, on a virtual clock: many sessions on one clock, reloads that hold it,
/// outputs handed over outside the lock, commands at the clock's now.
@Suite("Session driver", .timeLimit(.minutes(1)))
struct SessionDriverTests {
    /// What the callbacks of every session saw, in the order they were called, from any thread.
    final class OutputLog: Sendable {
        enum Entry: Sendable, Equatable {
            case published(session: String, kind: PlaybackEvent.Kind, time: Double)
            case stored(session: String, endReason: String?)
            case ended(session: String)
        }

        private let entries = Mutex<[Entry]>([])

        var all: [Entry] { entries.withLock { $0 } }

        func append(_ entry: Entry) {
            entries.withLock { $0.append(entry) }
        }

        func callbacks(_ session: String, then extra: SessionCallbacks = SessionCallbacks()) -> SessionCallbacks {
            SessionCallbacks(
                publish: { events in
                    for event in events { self.append(.published(session: session, kind: event.kind, time: event.time)) }
                    extra.publish(events)
                },
                store: { report in
                    self.append(.stored(session: session, endReason: report.endReason))
                    extra.store(report)
                },
                ended: {
                    self.append(.ended(session: session))
                    extra.ended()
                })
        }

        /// The published events of `session`, as (kind, session time).
        func events(of session: String) -> [(kind: PlaybackEvent.Kind, time: Double)] {
            all.compactMap { entry in
                guard case .published(session, let kind, let time) = entry else { return nil }
                return (kind, time)
            }
        }
    }

    /// A handle set after the session has started, for callbacks that need their own session.
    final class Handle: Sendable {
        private let session = Mutex<DrivenSession?>(nil)
        var value: DrivenSession? { session.withLock { $0 } }
        func set(_ value: DrivenSession) { session.withLock { $0 = value } }
    }

    static func recorder(_ name: String) -> SessionRecorder {
        SessionRecorder(profile: name, playlist: "\(name).m3u8", seed: 1, startPosition: 0)
    }

    // MARK: - Many sessions

    @Test("Sessions on one virtual clock fire in global time order, each on its own timeline, and play exactly as each would alone")
    func manySessionsInGlobalOrder() throws {
        let plans: [String: (plan: PlaybackPlan, script: String)] = [
            "a": (Engine.plan([Engine.ad("a-ad", at: 10, duration: 5, transitionIn: 300, transitionOut: 200)], duration: 30, startup: 500), ""),
            "b": (Engine.plan([Engine.ad("b-ad", at: 4, duration: 8, assets: 2, transitionIn: 1200)], duration: 20, startup: 900), ""),
            "c": (Engine.plan([Engine.ad("c-ad", at: 12, duration: 6)], duration: 45, startup: 250), "at 7 pause; at 9 play; at 20 seek 30"),
        ]
        func setup(_ name: String) throws -> SessionSetup {
            Simulation.setup(plan: plans[name]!.plan, script: try SenderScript(parsing: plans[name]!.script), recorder: Self.recorder(name))
        }
        let log = OutputLog()
        let clock = VirtualClock()
        let driver = SessionDriver(clock: clock)
        let a = driver.start(try setup("a"), callbacks: log.callbacks("a"))
        let b = driver.start(try setup("b"), callbacks: log.callbacks("b"))
        // The third cast arrives 3 s later: its own time starts at 0 then.
        let c = Handle()
        let setupC = try setup("c")
        _ = clock.schedule(at: 3) { c.set(driver.start(setupC, callbacks: log.callbacks("c"))) }
        #expect(clock.fireUntilHeld() == false)

        let origins = ["a": 0.0, "b": 0, "c": 3]
        let clockTimes = log.all.compactMap { entry -> Double? in
            guard case .published(let session, _, let time) = entry else { return nil }
            return origins[session]! + time
        }
        #expect(clockTimes == clockTimes.sorted(), "every event reached its owner in the order of the shared clock")
        #expect(Set(log.events(of: "c").map(\.time)).contains(0), "c's timeline starts at its own 0")
        for (name, session) in [("a", a), ("b", b), ("c", try #require(c.value))] {
            let alone = Simulation.report(
                plan: plans[name]!.plan, script: try SenderScript(parsing: plans[name]!.script), recorder: Self.recorder(name))
            #expect(session.report == alone, "\(name) played as it does alone")
            #expect(!session.isActive)
        }
    }

    // MARK: - Reloads

    /// Reloads that wait for the test: each call says when it started, then waits for its outcome.
    final class GatedReloads: LiveReloadSource {
        let reloadInterval: Double? = 4
        let clock: VirtualClock
        private let pending = Mutex<[CheckedContinuation<ReloadOutcome, Never>]>([])
        let started: AsyncStream<Double>
        private let startedContinuation: AsyncStream<Double>.Continuation

        init(clock: VirtualClock) {
            self.clock = clock
            (started, startedContinuation) = AsyncStream.makeStream(of: Double.self)
        }

        func reload() async -> ReloadOutcome {
            await withCheckedContinuation { continuation in
                pending.withLock { $0.append(continuation) }
                startedContinuation.yield(clock.now)
            }
        }

        func answer(_ outcome: ReloadOutcome) {
            pending.withLock { $0.removeFirst() }.resume(returning: outcome)
        }

        func finish() {
            startedContinuation.finish()
        }
    }

    @Test("A reload's fetch holds the virtual clock: no session moves until its plan is adopted, at the time the reload was due")
    func reloadHoldsTheVirtualClock() async throws {
        let live = PlaybackPlan(primaryDuration: 60, isLive: true)
        let reloaded = PlaybackPlan(primaryDuration: 60, isLive: true, breaks: [Engine.ad("late-ad", at: 6, duration: 3)])
        let clock = VirtualClock()
        let reloads = GatedReloads(clock: clock)
        let log = OutputLog()
        let driver = SessionDriver(clock: clock)
        let liveSession = driver.start(
            Simulation.setup(plan: live, until: 12, recorder: Self.recorder("live"), reloads: reloads), callbacks: log.callbacks("live"))
        // Another session on the clock, whose content ends at 5: after the first reload was due.
        let other = driver.start(Simulation.setup(plan: Engine.plan([], duration: 5), recorder: Self.recorder("vod")), callbacks: log.callbacks("vod"))

        async let running: Void = clock.run()
        var answers: [ReloadOutcome] = [.revised(PlanRevision(plan: reloaded)), .failed(reason: "the origin timed out")]
        var startTimes: [Double] = []
        for await time in reloads.started {
            startTimes.append(time)
            // Held: the clock is where the reload was due, and nothing later has happened on any session.
            #expect(clock.now == time)
            #expect(log.all.allSatisfy { entry in
                guard case .published(_, _, let at) = entry else { return true }
                return at <= time
            })
            reloads.answer(answers.removeFirst())
            if answers.isEmpty { reloads.finish() }
        }
        await running

        #expect(startTimes == [4, 8], "every 4 s of session time; the one due at 12 meets the horizon first")
        let report = liveSession.report
        #expect(report.timeline.contains { $0.kind == .interstitial && $0.eventID == "late-ad" }, "the reloaded plan was adopted and played")
        #expect(report.errors == ["reload at 8 s: the origin timed out"])
        #expect(report.endReason == "the simulation reached --until 12")
        #expect(other.report.endReason == "the primary content played to its end" && other.report.totals.sessionSeconds == 5)
    }

    // MARK: - Outputs

    @Test("Outputs reach the owner outside the driver's lock: a store callback reads its own session, a callback commands sessions; the report is stored before the end is published")
    func outputsOutsideTheLock() throws {
        let clock = VirtualClock()
        let driver = SessionDriver(clock: clock)
        let log = OutputLog()
        let short = Handle()
        let long = Handle()
        let readInStore = Mutex<(report: SessionReport?, active: Bool?, otherState: PlaybackState?)>((nil, nil, nil))
        let shortCallbacks = log.callbacks("short", then: SessionCallbacks(
            store: { report in
                // Reading under the lock that the store was called with would deadlock here.
                readInStore.withLock { $0 = (short.value?.report, short.value?.isActive, long.value?.engineNow.state) }
                #expect(short.value?.report == report)
            },
            ended: { long.value?.end(reason: "the short one ended") }))
        let longCallbacks = log.callbacks("long", then: SessionCallbacks(
            publish: { events in
                // Its own session, commanded from its own callback: delivered right after this one returns.
                if events.contains(where: { $0.kind == .stateChanged && $0.state == .playingPrimary && $0.rate == 1 }) {
                    _ = long.value?.handle(.setRate(2))
                }
            }))
        short.set(driver.start(Simulation.setup(plan: Engine.plan([], duration: 10, startup: 400), recorder: Self.recorder("short")), callbacks: shortCallbacks))
        long.set(driver.start(Simulation.setup(plan: Engine.plan([], duration: 100, startup: 400), recorder: Self.recorder("long")), callbacks: longCallbacks))
        clock.fireUntilHeld()

        let read = readInStore.withLock { $0 }
        #expect(read.report?.endReason == "the primary content played to its end")
        #expect(read.active == false)
        #expect(read.otherState == .playingPrimary)
        let shortEntries = log.all.filter { entry in
            switch entry {
            case .published("short", .ended, _), .stored("short", _), .ended("short"): true
            default: false
            }
        }
        #expect(shortEntries == [
            .stored(session: "short", endReason: "the primary content played to its end"),
            .published(session: "short", kind: .ended, time: 10.4), .ended(session: "short"),
        ])
        let longReport = try #require(long.value?.report)
        #expect(longReport.endReason == "the short one ended")
        #expect(longReport.totals.sessionSeconds == 10.4, "ended at the clock's now, when the short one ended")
        #expect(longReport.events.contains { $0.kind == .rateChanged && $0.rate == 2 && $0.time == 0.4 })
        #expect(log.events(of: "long").map(\.kind).filter { $0 == .rateChanged }.count == 1, "the command's events were delivered once")
    }

    // MARK: - Commands

    @Test("A command from outside is applied at the clock's now, on the session's own timeline")
    func commandsAtNow() throws {
        let clock = VirtualClock()
        let driver = SessionDriver(clock: clock)
        let session = Handle()
        let refused = Mutex<[PlaybackEvent]?>(nil)
        _ = clock.schedule(at: 2) {
            session.set(driver.start(Simulation.setup(plan: Engine.plan([], duration: 60), recorder: Self.recorder("late"))))
        }
        _ = clock.schedule(at: 12) { _ = session.value?.handle(.seek(to: 40)) }
        _ = clock.schedule(at: 13) { refused.withLock { $0 = session.value?.handle(.setRate(-1)) } }
        clock.fireUntilHeld()

        let report = try #require(session.value?.report)
        let seek = try #require(report.events.first { $0.kind == .seeked })
        #expect(seek.time == 10 && seek.position == 40, "clock 12 is 10 s into a session that started at clock 2")
        #expect(refused.withLock { $0 }?.map(\.kind) == [.commandRefused], "a command returns what it caused")
        #expect(report.refusals.map(\.time) == [11])
        #expect(report.endReason == "the primary content played to its end" && report.totals.sessionSeconds == 30)
        #expect(session.value?.handle(.setRate(1)) == nil, "an ended session takes no command")
    }

    // MARK: - Listeners

    @Test("A listener subscribing while other threads command the session hears its snapshot and then every later event, none twice, none lost")
    func subscribersMissNothing() throws {
        let driver = SessionDriver(clock: VirtualClock())
        /// Listeners by number: the rate their snapshot showed, and the rates they heard afterwards.
        let listeners = Mutex<[Int: (snapshot: Double, heard: [Double])]>([:])
        let session = driver.start(
            SessionSetup(plan: Engine.plan([], duration: 600), recorder: Self.recorder("busy")),
            callbacks: SessionCallbacks(publish: { events in
                let rates = events.filter { $0.kind == .rateChanged }.map(\.rate)
                listeners.withLock { listeners in
                    for key in listeners.keys { listeners[key]!.heard += rates }
                }
            }))
        // Every command sets a rate of its own, so a snapshot's rate says exactly which commands it reflects.
        let commanders = 4, commands = 250, subscribers = 4, subscriptions = 100
        DispatchQueue.concurrentPerform(iterations: commanders + subscribers) { worker in
            if worker < commanders {
                for index in 0..<commands { _ = session.handle(.setRate(1 + Double(worker * commands + index + 1) / 1000)) }
            } else {
                for index in 0..<subscriptions {
                    session.withCurrentState { engine, _ in
                        listeners.withLock { $0[(worker - commanders) * subscriptions + index] = (engine.rate, []) }
                    }
                }
            }
        }
        let order = session.report.events.filter { $0.kind == .rateChanged }.map(\.rate)
        #expect(order.count == commanders * commands)
        for (number, listener) in listeners.withLock({ $0 }) {
            let reflected = order.firstIndex(of: listener.snapshot).map { $0 + 1 } ?? 0
            #expect(listener.heard == Array(order[reflected...]), "listener \(number) joined at rate \(listener.snapshot)")
        }
    }
}
