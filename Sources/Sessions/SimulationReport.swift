import Profiles

/// What `airlab simulate` and `airlab lab run` report: one session per receiver, and the receivers
/// that could not play the cast at all.
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
    /// The profiles the run used, each once, with its version and how its numbers are sourced.
    public var profiles: [ProfileSummary]
    public var sessions: [SessionReport]
    public var failures: [Failure]

    public init(playlist: String, seed: UInt64, profiles: [ProfileSummary] = [], sessions: [SessionReport], failures: [Failure]) {
        self.playlist = playlist
        self.seed = seed
        self.profiles = profiles
        self.sessions = sessions
        self.failures = failures
    }

    /// The profiles named by the sessions' summaries, each once, in the sessions' order: what a run on
    /// receivers it did not load itself can say.
    public static func profiles(of sessions: [SessionReport]) -> [ProfileSummary] {
        var seen = Set<ProfileSummary>()
        return sessions.compactMap(\.profileSummary).filter { seen.insert($0).inserted }
    }
}
