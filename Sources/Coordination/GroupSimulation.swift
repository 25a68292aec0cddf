import Playback
import Sessions
/// One participant of a simulated group: its receiver's plan, its ads as the group sees them, its
/// policy, its scripted sender and the faults injected into it.
public struct GroupMember: Sendable {
    public var name: String
    public var profile: String
    public var plan: PlaybackPlan
    public var ads: GroupAdPlan
    /// Set for a stitched item: the script's seek targets are item seconds, mapped to primary through it.
    public var stitched: StitchedAds?
    public var policy: GroupPolicy
    /// The sender's commands, which become intents to the group (`at 40 seek 300`).
    public var script: SenderScript
    public var faults: [GroupFault]
    /// How its segments arrive, when its plan fetches them (a modelled network); nil plays on the
    /// latency model alone.
    public var delivery: SegmentDelivery?

    public init(
        name: String, profile: String, plan: PlaybackPlan, ads: GroupAdPlan, stitched: StitchedAds? = nil, policy: GroupPolicy = .catchUp,
        script: SenderScript = SenderScript(), faults: [GroupFault] = [], delivery: SegmentDelivery? = nil
    ) {
        self.name = name
        self.profile = profile
        self.plan = plan
        self.ads = ads
        self.stitched = stitched
        self.policy = policy
        self.script = script
        self.faults = faults
        self.delivery = delivery
    }
}

/// Something injected into a participant at a group time.
public enum GroupFault: Sendable, Hashable {
    /// Playback stops for `seconds` (a `stallRecovery` suspension).
    case stall(at: Double, seconds: Double)
    case leave(at: Double)
}

/// Plays a group on one virtual clock: each participant is a real `PlaybackEngine` session on the
/// shared `SessionDriver`, the coordinator's commands are applied to the engines, and the engines'
/// breaks become suspensions. Every message between a participant and the coordinator crosses the
/// seeded `GroupLink`, so one seed gives one run.
///
/// The group starts paused; once every participant has loaded, the first one's sender presses play
/// (a coordinated start). The run ends when every participant has left or ended, when nothing is left
/// to happen, or at `until`.
public struct GroupSimulation: Sendable {
    public var contentID: String
    public var members: [GroupMember]
    public var link: GroupLink
    public var seed: UInt64
    /// |e| above this counts as out of sync (Jellyfin's 500 ms).
    public var syncTolerance: Double
    /// How often, in group seconds, the run looks whether anything is left to happen; it ends at the
    /// first look after everything has settled. (The sync error is exact, not sampled: see
    /// `GroupReport.SyncError`.)
    public var sampleInterval: Double
    public var until: Double?

    public init(
        contentID: String, members: [GroupMember], link: GroupLink = .instant, seed: UInt64 = 1, syncTolerance: Double = 0.5,
        sampleInterval: Double = 0.1, until: Double? = nil
    ) {
        self.contentID = contentID
        self.members = members
        self.link = link
        self.seed = seed
        self.syncTolerance = syncTolerance
        self.sampleInterval = sampleInterval
        self.until = until
    }

    /// Runs the group to its end and reports it.
    public func run() -> GroupReport {
        let clock = VirtualClock()
        let run = GroupRun(simulation: self, clock: clock)
        run.start()
        clock.fireUntilHeld()
        return run.finish()
    }
}
