import HLS
import Profiles
import Sessions

/// Plays one prepared cast on each profile, all on one virtual clock.
public struct CastSimulation: Sendable {
    public var planner: CastPlanner
    public var script: SenderScript
    public var until: Double?
    /// Fetches recorded once, played again instead of the modelled network where they say.
    public var trace: FetchTrace?

    public init(planner: CastPlanner, script: SenderScript = SenderScript(), until: Double? = nil, trace: FetchTrace? = nil) {
        self.planner = planner
        self.script = script
        self.until = until
        self.trace = trace
    }

    /// Plans the cast for every profile, then plays every plan on one shared virtual clock; a profile
    /// that cannot play it is a failure in the report, not the end of the run. Sessions and failures
    /// are reported in the profiles' order.
    ///
    /// Live content is reloaded every target duration of session time: date ranges merge, new
    /// interstitials are resolved and planned, and the engine continues on the new plan.
    public func run(_ cast: PreparedCast, profiles: [ReceiverProfile], seed: UInt64) async -> SimulationReport {
        var report = SimulationReport(playlist: cast.request.playlist, seed: seed, profiles: Self.summaries(of: profiles), sessions: [], failures: [])
        var plans: [CastPlan] = []
        for profile in profiles {
            do throws(CastError) {
                plans.append(try await planner.plan(cast, profile: profile, seed: seed))
            } catch {
                report.failures.append(.init(profile: profile.name, reason: error.reason))
            }
        }
        let clock = VirtualClock()
        let driver = SessionDriver(clock: clock)
        let sessions = plans.map { driver.start(setup($0, prepared: cast)) }
        await clock.run()
        report.sessions = sessions.map(\.report)
        return report
    }

    /// Every profile asked for, once: the ones that could not play the cast were used too.
    static func summaries(of profiles: [ReceiverProfile]) -> [ProfileSummary] {
        var seen = Set<ProfileSummary>()
        return profiles.map(\.summary).filter { seen.insert($0).inserted }
    }

    /// Plays one plan alone, on a virtual clock of its own, to its end (or `until`) and returns its report.
    public func play(_ plan: CastPlan, prepared: PreparedCast) async -> SessionReport {
        let clock = VirtualClock()
        let session = SessionDriver(clock: clock).start(setup(plan, prepared: prepared))
        await clock.run()
        return session.report
    }

    /// One receiver's simulated session of the cast, reloading it when it is live.
    private func setup(_ plan: CastPlan, prepared: PreparedCast) -> SessionSetup {
        var recorder = SessionRecorder(
            profile: plan.profile.name, playlist: prepared.request.playlist, seed: plan.seed, startPosition: plan.startPosition ?? 0,
            profileSummary: plan.profile.summary)
        recorder.describe(variant: plan.variant?.variant.uri, diagnostics: plan.diagnostics)
        return Simulation.setup(
            plan: plan.plan, script: script, startPosition: plan.startPosition, until: until, recorder: recorder,
            reloads: PlayingCast(prepared: prepared, cast: plan, planner: planner), delivery: plan.segmentDelivery(trace: trace))
    }
}
