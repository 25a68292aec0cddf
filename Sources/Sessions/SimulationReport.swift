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
    public var sessions: [SessionReport]
    public var failures: [Failure]

    public init(playlist: String, seed: UInt64, sessions: [SessionReport], failures: [Failure]) {
        self.playlist = playlist
        self.seed = seed
        self.sessions = sessions
        self.failures = failures
    }
}
