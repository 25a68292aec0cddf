import Playback
/// What a group run did (docs/groups.md): per participant, how long it waited and for whom, what it
/// missed, its catch-up jumps, its `timeControlStatus` changes and its sync error. JSON is the source;
/// the text table and JUnit views are made from it.
public struct GroupReport: Sendable, Codable, Hashable {
    public struct Participant: Sendable, Codable, Hashable {
        public var name: String
        public var profile: String
        public var policy: GroupPolicy
        public var waitingSeconds: Double
        /// Each wait, in the order they ended.
        public var waits: [GroupWait]
        /// Summed over the run, by holder and reason, in the order first waited for.
        public var waitedFor: [GroupWait.Edge]
        /// The holder of this participant's longest wait that let go last.
        public var criticalHolder: String?
        /// Primary skipped by jumps to the group position.
        public var missedByCatchUp: Double
        /// Primary a break moved past while its ad played (live breaks, resume offset > 0).
        public var replacedByAd: Double
        public var catchUpJumps: [Jump]
        /// Times the coordinator moved it while it followed: the group position corrected for the
        /// link's delay (a wait reaching it after it played on, a play reaching it late). Catch-up
        /// jumps are not counted here, nor the seek of a sender's seek intent (the content moved).
        public var corrections: Int
        public var breaks: [Break]
        public var suspensions: [Suspension]
        public var timeControlStatus: [StatusChange]
        public var syncError: SyncError
    }

    /// One group break (a position where some participant has an ad) as one participant lived it.
    public struct Break: Sendable, Codable, Hashable {
        public var position: Double
        /// Its own ad there; 0 for none.
        public var adSeconds: Double
        public var waitingSeconds: Double
        public var waitedFor: [GroupWait.Edge]
        public var criticalHolder: String?
        public var missedByCatchUp: Double
        public var replacedByAd: Double
    }

    public struct Jump: Sendable, Codable, Hashable {
        public var at: Double
        public var from: Double
        public var to: Double
        public var seconds: Double { to - from }

        public init(at: Double, from: Double, to: Double) {
            self.at = at
            self.from = from
            self.to = to
        }
    }

    public struct Suspension: Sendable, Codable, Hashable {
        public var reason: SuspensionReason
        public var start: Double
        public var end: Double?
        /// Where primary was left and where it resumed.
        public var primary: Double
        public var resumePrimary: Double?

        public init(reason: SuspensionReason, start: Double, end: Double? = nil, primary: Double, resumePrimary: Double? = nil) {
            self.reason = reason
            self.start = start
            self.end = end
            self.primary = primary
            self.resumePrimary = resumePrimary
        }
    }

    /// AVPlayer's `timeControlStatus` and `reasonForWaitingToPlay`, at a group time.
    public struct StatusChange: Sendable, Codable, Hashable {
        public var at: Double
        public var status: PlayerStatus.TimeControl
        public var reason: PlayerStatus.WaitingReason?

        public init(at: Double, _ status: PlayerStatus) {
            self.at = at
            self.status = status.timeControl
            reason = status.waitingReason
        }
    }

    public var contentID: String
    public var seed: UInt64
    /// Participants whose policy differs from the first's.
    public var mixedPolicy: [String]
    /// Group seconds the timeline was held.
    public var heldSeconds: Double
    public var participants: [Participant]
    public var errors: [String]
}
