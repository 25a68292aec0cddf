import Emulation
import HLS

/// What `airlab simulate` reports: one session per receiver profile, and the profiles that could not
/// play the cast at all.
public struct SimulationReport: Sendable, Codable {
    public struct Failure: Sendable, Codable, Hashable {
        public var profile: String
        public var reason: String

        public init(profile: String, reason: String) {
            self.profile = profile
            self.reason = reason
        }
    }

    public var playlist: String
    public var seed: UInt64
    public var sessions: [SessionReport]
    public var failures: [Failure]

    public init(playlist: String, seed: UInt64, sessions: [SessionReport], failures: [Failure]) {
        self.playlist = playlist
        self.seed = seed
        self.sessions = sessions
        self.failures = failures
    }
}

/// Plays one prepared cast on each profile on a virtual clock.
public struct CastSimulation: Sendable {
    public var planner: CastPlanner
    public var script: SenderScript
    public var until: Double?

    public init(planner: CastPlanner, script: SenderScript = SenderScript(), until: Double? = nil) {
        self.planner = planner
        self.script = script
        self.until = until
    }

    /// Plans and plays the cast on every profile, in order; a profile that cannot play it is a failure
    /// in the report, not the end of the run.
    public func run(_ cast: PreparedCast, profiles: [ReceiverProfile], seed: UInt64) async -> SimulationReport {
        var report = SimulationReport(playlist: cast.request.playlist, seed: seed, sessions: [], failures: [])
        for profile in profiles {
            do throws(CastError) {
                let plan = try await planner.plan(cast, profile: profile, seed: seed)
                report.sessions.append(await play(plan, prepared: cast))
            } catch {
                report.failures.append(.init(profile: profile.name, reason: error.reason))
            }
        }
        return report
    }

    /// Plays one plan to its end (or `until`) and returns its report.
    ///
    /// Live content is reloaded every target duration of session time: date ranges merge, new
    /// interstitials are resolved and planned, and the engine continues on the new plan.
    public func play(_ cast: CastPlan, prepared: PreparedCast) async -> SessionReport {
        var recorder = SessionRecorder(
            profile: cast.profile.name, playlist: prepared.request.playlist, seed: cast.seed, startPosition: cast.startPosition ?? 0)
        recorder.describe(variant: cast.variant?.variant.uri, diagnostics: cast.diagnostics)
        var simulation = Simulation(plan: cast.plan, script: script, startPosition: cast.startPosition, until: until, recorder: recorder)
        guard cast.plan.isLive, let interval = prepared.media.targetDuration, interval > 0 else {
            simulation.run(until: .infinity)
            return simulation.finish()
        }
        var window = LiveWindow()
        var current = prepared
        current.media = window.absorb(prepared.media).playlist
        var reloadAt = interval
        while simulation.isActive {
            simulation.run(until: reloadAt)
            guard simulation.isActive else { break }
            do throws(CastError) {
                current = try await planner.reload(current, window: &window)
                simulation.update(try await planner.plan(current, profile: cast.profile, seed: cast.seed).plan)
                simulation.note(current.diagnostics.filter { $0.severity != .info })
            } catch {
                // A reload that fails leaves the receiver on the window it has, as a player keeps playing.
                simulation.noteError("reload at \(PlaybackCommand.format(reloadAt)) s: \(error.reason)")
            }
            reloadAt += interval
        }
        return simulation.finish()
    }
}
