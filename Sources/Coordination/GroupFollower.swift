import HLS
import Playback

/// One participant's side of its group, wherever the coordinator is: it reads the participant's own
/// engine to tell the coordinator when a suspension begins and ends, and turns the coordinator's
/// commands into commands for that engine (docs/groups.md, receiver-resident participation).
///
/// The one translation between engines and coordinators: the virtual-clock `GroupSimulation` and a
/// receiver in `airlabd` that joined a group both use it, so a group plays by the same rules in a
/// simulation and over HTTP. It reads no clock: the caller says what the group time is.
public struct GroupFollower: Sendable {
    public let name: String
    public let ads: GroupAdPlan
    /// Set for a stitched item: a sender's seek targets are item seconds, mapped to primary through it.
    public let stitched: StitchedAds?
    /// Loaded and playing or paused: a participant that is still loading cannot press play for the group.
    public private(set) var ready = false
    /// Where primary was left, while an ad plays.
    public private(set) var adFrom: Double?
    /// Where its last break was: moving back there to rejoin the group must not play it again.
    public private(set) var lastBreak: Double?
    public private(set) var stalled = false
    /// The stall is the engine's own (its buffer ran dry), not a scripted fault: it ends when the engine
    /// plays again, not at a set time.
    public private(set) var bufferStalled = false
    /// Held for someone else's suspension (`waitingForCoordinatedPlayback`).
    public private(set) var waiting = false
    /// Back from a suspension and not yet told where the group is.
    public private(set) var rejoining = false
    public private(set) var left = false
    /// The rate the group last asked for.
    public private(set) var groupRate = 0.0
    /// Times the coordinator moved it while it followed: the group position corrected for the link's
    /// delay. Catch-up jumps are not counted here, nor the seek of a sender's seek intent.
    public private(set) var corrections = 0
    /// The group timeline as the coordinator's last command gave it: where this participant should be.
    public private(set) var expected: GroupTimeline?

    /// Positions this close count as equal.
    static let tolerance = InterstitialSchedule.tolerance

    public init(name: String, ads: GroupAdPlan, stitched: StitchedAds? = nil) {
        self.name = name
        self.ads = ads
        self.stitched = stitched
    }

    /// What the follower asks of its owner: messages for the coordinator and commands for the engine.
    public struct Reaction: Sendable, Equatable {
        public var inputs: [GroupInput] = []
        public var commands: [PlaybackCommand] = []
        /// The participant has just finished loading.
        public var becameReady = false

        public init() {}
    }

    /// What a sender's command to this participant becomes.
    public enum SenderOutcome: Sendable, Equatable {
        /// The group decides: send it to the coordinator.
        case intent(GroupIntent)
        /// The participant's own (picture in picture): apply it to the engine.
        case local(PlaybackCommand)
        /// The sender ended the session.
        case stop
    }

    // MARK: - The engine's side

    /// Looks at the engine after it changed (or ended, with `ended`): a break beginning is a
    /// `playingInterstitial` suspension, a break over ends it, a buffer run dry is a `stallRecovery`
    /// suspension until the engine plays again, and an ended session leaves the group.
    /// `groupNow` is the group time of `engine.now`.
    public mutating func observe(_ engine: PlaybackEngine, ended: Bool, groupNow: Double) -> Reaction {
        var reaction = Reaction()
        guard !left else { return reaction }
        if ended || !engine.isActive {
            left = true
            reaction.inputs.append(.leave(name))
            return reaction
        }
        if !ready, engine.state != .loading, engine.state != .idle {
            ready = true
            reaction.becameReady = true
        }
        if engine.isInBreak, adFrom == nil {
            let from = engine.position
            adFrom = from
            lastBreak = from
            waiting = false
            let expectedEnd = ads.breakAt(from).map { groupNow + $0.adSeconds }
            reaction.inputs.append(.beginSuspension(name, reason: .playingInterstitial, primary: from, expectedEnd: expectedEnd))
            // A suspended participant plays its ad whatever the group's rate.
            if engine.rate == 0 { reaction.commands.append(.setRate(1)) }
        } else if !engine.isInBreak, adFrom != nil {
            adFrom = nil
            rejoining = true
            reaction.inputs.append(.endSuspension(name, reason: .playingInterstitial, resumePrimary: engine.position))
        }
        if engine.isStalled, !stalled {
            // The engine resumes by itself once enough is buffered; when is not known.
            stalled = true
            bufferStalled = true
            reaction.inputs.append(.beginSuspension(name, reason: .stallRecovery, primary: engine.position, expectedEnd: nil))
        } else if bufferStalled, !engine.isStalled {
            stalled = false
            bufferStalled = false
            rejoining = true
            reaction.inputs.append(.endSuspension(name, reason: .stallRecovery, resumePrimary: engine.position))
        }
        return reaction
    }

    /// A command from the coordinator, as the engine should carry it out now (at group time `groupNow`).
    /// A suspended participant ignores it: it picks up the group when its suspension ends.
    public mutating func apply(_ command: GroupCommand, engine: PlaybackEngine, groupNow: Double) -> [PlaybackCommand] {
        guard !left, adFrom == nil, !stalled, engine.isActive else { return [] }
        let catchingUp = rejoining
        rejoining = false
        var moved = 0
        var commands: [PlaybackCommand] = []
        var rate = engine.rate
        let lastBreak = lastBreak
        /// A move the coordinator makes lands just past the break the participant played there, since
        /// the engine plays a break a seek lands on; a sender's seek plays it again, as the rule says.
        func move(to target: Double, replaying: Bool = false) {
            guard abs(engine.position - target) > Self.tolerance else { return }
            var landing = target
            if !replaying, let lastBreak, abs(target - lastBreak) <= Self.tolerance { landing = lastBreak + 2 * Self.tolerance }
            guard abs(engine.position - landing) > Self.tolerance else { return }
            commands.append(.seek(to: landing))
            if !catchingUp, !replaying { moved += 1 }
        }
        func setRate(_ wanted: Double) {
            if rate != wanted { commands.append(.setRate(wanted)) }
            rate = wanted
        }
        switch command {
        case .seek(let primary, let originator):
            move(to: primary, replaying: originator != nil)
            expected = GroupTimeline(anchorTime: groupNow, anchorPrimary: primary, rate: 0)
        case .play(let newRate, let primary, let at, _):
            waiting = false
            groupRate = newRate
            move(to: primary + newRate * (groupNow - at))
            setRate(newRate)
            expected = GroupTimeline(anchorTime: at, anchorPrimary: primary, rate: newRate)
        case .pause(let primary, let snap, _):
            waiting = false
            groupRate = 0
            setRate(0)
            if snap { move(to: primary) }
            expected = GroupTimeline(anchorTime: groupNow, anchorPrimary: primary, rate: 0)
        case .wait(let primary, _, _, _):
            waiting = true
            setRate(0)
            move(to: primary)
            expected = GroupTimeline(anchorTime: groupNow, anchorPrimary: primary, rate: 0)
        }
        corrections += moved
        return commands
    }

    /// What a sender's command to this participant becomes: transport goes to the group
    /// (AVPlayerPlaybackCoordinator intercepts rate and time), picture in picture stays local.
    public func senderCommand(_ command: PlaybackCommand) -> SenderOutcome {
        switch command {
        case .seek(let target): .intent(.seek(stitched?.primary(ofItem: target) ?? target))
        case .setRate(let rate): .intent(rate > 0 ? .rate(rate) : .pause)
        case .play: .intent(.rate(1))
        case .stop: .stop
        // AVFoundation coordinates rate and time only: every other command plays on this participant.
        default: .local(command)
        }
    }

    // MARK: - Stalls

    /// Playback stops for `seconds` from group time `groupNow`: a `stallRecovery` suspension.
    public mutating func beginStall(_ engine: PlaybackEngine, seconds: Double, groupNow: Double) -> Reaction {
        var reaction = Reaction()
        guard !left, !stalled else { return reaction }
        stalled = true
        reaction.inputs.append(.beginSuspension(name, reason: .stallRecovery, primary: engine.position, expectedEnd: groupNow + seconds))
        if engine.rate > 0 { reaction.commands.append(.setRate(0)) }
        return reaction
    }

    /// The stall is over: the suspension ends where the engine stands, and it plays on at the rate it
    /// had (its ad's, or the group's) until the coordinator says where the group is.
    public mutating func endStall(_ engine: PlaybackEngine) -> Reaction {
        var reaction = Reaction()
        guard !left, stalled else { return reaction }
        stalled = false
        rejoining = true
        reaction.inputs.append(.endSuspension(name, reason: .stallRecovery, resumePrimary: engine.position))
        if rateAfterStall > 0 { reaction.commands.append(.setRate(rateAfterStall)) }
        return reaction
    }

    /// The rate the participant plays at after `endStall`.
    public var rateAfterStall: Double { adFrom != nil ? 1 : groupRate }

    // MARK: - What it shows

    /// e(t): the participant's primary position minus where the coordinator's last command puts the
    /// group at `groupNow`; nil while it does not follow (in its own break, stalled, not yet told where
    /// the group is after one, or before any command).
    public func syncError(_ engine: PlaybackEngine, groupNow: Double) -> Double? {
        guard !left, adFrom == nil, !stalled, !rejoining, engine.isActive, !engine.isInBreak, let expected else { return nil }
        return engine.position - expected.position(at: groupNow)
    }

    /// `AVPlayer.timeControlStatus` and `reasonForWaitingToPlay` as this participant shows them, given
    /// the engine's rate and whether it is loading.
    public func playerStatus(rate: Double, loading: Bool) -> PlayerStatus {
        if stalled { return .waiting(.toMinimizeStalls) }
        if adFrom != nil { return .waiting(.interstitialEvent) }
        if waiting { return .waiting(.waitingForCoordinatedPlayback) }
        if rate == 0 || loading { return .paused }
        return .playing
    }
}
