/// What reaches a group's coordinator, each at a group time.
public enum GroupInput: Sendable, Hashable {
    /// A participant joins with its own policy and ad plan; mid-play it follows the group position.
    case join(String, policy: GroupPolicy, ads: GroupAdPlan)
    case leave(String)
    /// A participant stops following, leaving primary at `primary`; `expectedEnd` is when it expects
    /// to be back (from its ad plan), for the others' wait commands.
    case beginSuspension(String, reason: SuspensionReason, primary: Double, expectedEnd: Double?)
    /// A participant's suspension ended with primary at `resumePrimary`.
    case endSuspension(String, reason: SuspensionReason, resumePrimary: Double)
    /// A sender's command through a participant (`from`), whose primary position was `primary`.
    case intent(from: String, GroupIntent, primary: Double)
    /// Only time passed: the coordinator has no deadlines of its own, so this changes nothing but `now`.
    case advanceTime
}

/// A transport command a participant's sender gave, which the coordinator applies to the group.
public enum GroupIntent: Sendable, Hashable {
    /// 0 is a pause (see `pause`); other rates play.
    case rate(Double)
    case pause
    /// To a primary position.
    case seek(Double)
}

/// What the coordinator asks its owner to do.
public enum GroupAction: Sendable, Hashable {
    case command(to: String, GroupCommand)
    case event(GroupEvent)
}

/// A command to one participant, in the shape of AVDelegatingPlaybackCoordinator's (docs/groups.md).
public enum GroupCommand: Sendable, Hashable {
    /// Play at `rate` so that primary `primary` plays at group time `atGroupTime` (which may be past:
    /// the participant plays from `primary + rate × (now − atGroupTime)`).
    case play(rate: Double, primary: Double, atGroupTime: Double, originator: String?)
    /// Pause; with `snap`, seek to `primary`, the originator's stop time.
    case pause(primary: Double, snap: Bool, originator: String?)
    /// Seek; playback never resumes on its own after a seek. `originator` is the participant whose
    /// sender asked for it; nil when the coordinator moves a participant to the group (a catch-up, a
    /// release, a join), which does not replay a break the participant has just played there.
    case seek(primary: Double, originator: String?)
    /// Hold at `primary` for `holders` (`waitingForCoordinatedPlayback`), rate kept for the resume.
    case wait(primary: Double, holders: [String], reason: SuspensionReason, expectedEnd: Double?)
}

/// Something the group did, for the report.
public enum GroupEvent: Sendable, Hashable {
    case joined(String, at: Double)
    case left(String, at: Double)
    /// Participants whose policies differ from the first participant's (docs/groups.md: a misconfiguration).
    case mixedPolicy([String], at: Double)
    case suspended(String, reason: SuspensionReason, at: Double, primary: Double)
    case resumed(String, reason: SuspensionReason, at: Double, primary: Double)
    /// The timeline holds at `primary` for `holders`.
    case held(at: Double, primary: Double, holders: [String])
    case released(at: Double, primary: Double)
    /// A wait that is over: who it waited for and how long on each, and the holder that ended last.
    case waited(GroupWait)
    /// A participant whose suspension ended was sent to the group position: `to − from` is content
    /// it missed (negative: it replays).
    case caughtUp(String, at: Double, from: Double, to: Double)
    case followStateChanged(String, FollowState, at: Double)
    case timelineChanged(GroupTimeline, at: Double)
}

/// One participant's wait from `start` to `end` at the held primary `primary`.
public struct GroupWait: Sendable, Hashable, Codable {
    public struct Edge: Sendable, Hashable, Codable {
        public var holder: String
        public var reason: SuspensionReason
        public var seconds: Double

        public init(holder: String, reason: SuspensionReason, seconds: Double) {
            self.holder = holder
            self.reason = reason
            self.seconds = seconds
        }
    }

    public var waiter: String
    public var primary: Double
    public var start: Double
    public var end: Double
    public var edges: [Edge]
    /// The holder whose suspension ended last (ties: the first to join).
    public var criticalHolder: String?

    public var seconds: Double { end - start }
}
