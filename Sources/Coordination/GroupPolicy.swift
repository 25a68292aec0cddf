/// Why a participant has stopped following its group, in AVFoundation's spelling
/// (`AVCoordinatedPlaybackSuspension.Reason`).
public enum SuspensionReason: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// An HLS interstitial or a stitched ad range is playing.
    case playingInterstitial
    /// Playback stalled (an injected stall, a buffer that missed its due time).
    case stallRecovery
    /// A sender is scrubbing.
    case userIsChangingCurrentTime

    public static func < (lhs: SuspensionReason, rhs: SuspensionReason) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How one participant's coordinator behaves (docs/groups.md): the policy is a property of each
/// coordinator, not of the group, so participants may differ, which the report flags.
public struct GroupPolicy: Sendable, Hashable, Codable {
    /// `suspensionReasonsThatTriggerWaiting`: a suspension for one of these reasons holds the group
    /// for this participant (the wait policy); empty is catch-up, the default.
    public var waitFor: Set<SuspensionReason>
    /// `setParticipantLimit(_:forWaitingOutSuspensionsWithReason:)`: in a group larger than this, the
    /// participant no longer waits for that reason. Absent means no limit.
    public var participantLimits: [SuspensionReason: Int]
    /// `pauseSnapsToMediaTimeOfOriginator`: after a pause everyone seeks to where the originator stopped.
    public var pauseSnapsToOriginator: Bool

    public init(waitFor: Set<SuspensionReason> = [], participantLimits: [SuspensionReason: Int] = [:], pauseSnapsToOriginator: Bool = false) {
        self.waitFor = waitFor
        self.participantLimits = participantLimits
        self.pauseSnapsToOriginator = pauseSnapsToOriginator
    }

    /// Catch-up: nobody is waited for.
    public static let catchUp = GroupPolicy()

    enum CodingKeys: String, CodingKey {
        case waitFor, participantLimits, pauseSnapsToOriginator
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Members left out keep their defaults, so a wire policy says only what it changes.
        waitFor = Set(try container.decodeIfPresent([SuspensionReason].self, forKey: .waitFor) ?? [])
        participantLimits = try container.decodeIfPresent([SuspensionReason: Int].self, forKey: .participantLimits) ?? [:]
        pauseSnapsToOriginator = try container.decodeIfPresent(Bool.self, forKey: .pauseSnapsToOriginator) ?? false
    }

    /// `waitFor` in order, so that one run always writes the same report.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(waitFor.sorted(), forKey: .waitFor)
        try container.encode(participantLimits, forKey: .participantLimits)
        try container.encode(pauseSnapsToOriginator, forKey: .pauseSnapsToOriginator)
    }

    /// Whether a suspension for `reason` makes this participant wait, in a group of `size` participants.
    public func waits(for reason: SuspensionReason, groupSize size: Int) -> Bool {
        waitFor.contains(reason) && size <= (participantLimits[reason] ?? Int.max)
    }
}

/// Where a participant stands with its group (docs/groups.md).
public enum FollowState: String, Sendable, Hashable, Codable {
    /// Playing (or paused) with the group timeline.
    case following
    /// Held with the group for someone else's suspension: `waitingToPlayAtSpecifiedRate`,
    /// `waitingForCoordinatedPlayback`.
    case waiting
    /// Holding a suspension of its own: it ignores the group's commands.
    case suspended
    case left
}

/// The group timeline in primary seconds: at group time `t` the group is at
/// `anchorPrimary + rate × (t − anchorTime)`.
public struct GroupTimeline: Sendable, Hashable, Codable {
    public var anchorTime: Double
    public var anchorPrimary: Double
    public var rate: Double

    public init(anchorTime: Double, anchorPrimary: Double, rate: Double) {
        self.anchorTime = anchorTime
        self.anchorPrimary = anchorPrimary
        self.rate = rate
    }

    public func position(at time: Double) -> Double {
        anchorPrimary + rate * (time - anchorTime)
    }
}

/// Participant limits are written as an object keyed by reason.
extension SuspensionReason: CodingKeyRepresentable {}
