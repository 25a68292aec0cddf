import Coordination
import Foundation
import HLS

/// The group protocol under `/groups` on the receiver that hosts a group (docs/groups.md), as messages
/// both sides encode and decode: the host in `airlabd`, the participants in other receivers, and the
/// tests. Every position is primary seconds; every time is the group clock's, in media seconds at
/// the host's `--time-scale`.

/// `POST /groups`: a group to host.
public struct GroupCreation: Sendable, Equatable, Codable {
    /// The group's name in its URL; the host picks one when absent.
    public var id: String?
    /// What the participants watch, whatever URL each one plays (per-viewer SSAI gives each its own).
    public var contentID: String
    /// The policy of a participant that names none.
    public var policy: GroupPolicy?
    /// The equal-length rule's tolerance, one frame at this rate (30 when absent).
    public var framesPerSecond: Int?
    /// A coordinated start: the group starts playing once this many participants have joined. Without
    /// it, the first participant's cast starts the group (a `/play` means play).
    public var startWith: Int?

    public init(id: String? = nil, contentID: String, policy: GroupPolicy? = nil, framesPerSecond: Int? = nil, startWith: Int? = nil) {
        self.id = id
        self.contentID = contentID
        self.policy = policy
        self.framesPerSecond = framesPerSecond
        self.startWith = startWith
    }

    /// Why `name`, a group id or participant name called `field`, is refused; nil when it is a name.
    public static func nameRefusal(_ field: String, _ name: String) -> String? {
        isValidName(name) ? nil : "\(field) '\(name.prefix(64))' is not a name of 1 to 64 letters, digits, '.', '-' or '_'"
    }

    /// Why a policy's participant limits are refused (each must be 1 or more); nil when they are not.
    public static func limitsRefusal(_ policy: GroupPolicy?, field: String) -> String? {
        policy?.participantLimits.values.first { $0 < 1 }.map { "\(field) must be 1 or more, not \($0)" }
    }

    /// Group ids and participant names: what fits in a path segment and a log line.
    public static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F || byte == 0x2E
        }
    }
}

/// A group as its host shows it, every participant's declared plan included: `GET /groups/ID`, and
/// the answer to `POST /groups`. Its size is bounded by the group's limits (participants, and
/// declared breaks per participant and per group).
public struct GroupSummary: Sendable, Equatable, Codable {
    public struct Member: Sendable, Equatable, Codable {
        public var name: String
        public var follow: FollowState
        public var suspensions: [SuspensionReason]
        public var policy: GroupPolicy
        /// Its ad breaks as it declared them when it joined.
        public var ads: GroupAdPlan
    }

    public var id: String
    public var contentID: String
    /// The path of the group on its host.
    public var path: String
    public var timeline: GroupTimeline
    /// The rate the group plays at once nobody holds it.
    public var rate: Double
    /// Where the timeline is held, while someone holds it.
    public var heldAt: Double?
    public var position: Double
    /// The group clock now.
    public var groupTime: Double
    public var participants: [Member]
    /// Participants still awaited before a coordinated start (0 once started or without one).
    public var awaiting: Int

    public init(id: String, coordinator: GroupCoordinator, groupTime: Double, awaiting: Int = 0) {
        self.awaiting = awaiting
        self.id = id
        contentID = coordinator.contentID
        path = "/groups/\(id)"
        timeline = coordinator.timeline
        rate = coordinator.desiredRate
        heldAt = coordinator.hold?.primary
        position = coordinator.timeline.position(at: groupTime)
        self.groupTime = groupTime
        participants = coordinator.participants.map {
            Member(name: $0.name, follow: $0.follow, suspensions: $0.suspensions.map(\.reason), policy: $0.policy, ads: $0.ads)
        }
    }
}

/// `GET /groups/ID/clock`: the group clock when the request arrived and when the answer left, for the
/// four-timestamp exchange of NTP.
public struct GroupClockReading: Sendable, Equatable, Codable {
    public var receivedAt: Double
    public var sentAt: Double

    public init(receivedAt: Double, sentAt: Double) {
        self.receivedAt = receivedAt
        self.sentAt = sentAt
    }

    /// The offset from the asker's clock to the group clock, and the round trip's delay, given when the
    /// asker sent (`sent`) and received (`received`) on its own clock.
    public func offset(sent: Double, received: Double) -> (offset: Double, delay: Double) {
        ((receivedAt - sent + sentAt - received) / 2, max(0, (received - sent) - (sentAt - receivedAt)))
    }
}

/// What a participant's primary is made of, for the equal-length rule: its item's length and its
/// stitched ranges, in whole nanoseconds so that the host compares exactly what the participant derived.
public struct GroupLengths: Sendable, Equatable, Codable {
    public struct Range: Sendable, Equatable, Codable {
        public var id: String
        public var startNanoseconds: Int64
        public var durationNanoseconds: Int64
    }

    public var itemNanoseconds: Int64
    public var ranges: [Range]
    public var live: Bool

    public init(_ ranges: StitchedRanges, live: Bool) {
        itemNanoseconds = ranges.itemLength.nanoseconds
        self.ranges = ranges.ranges.map { Range(id: $0.id, startNanoseconds: $0.start.nanoseconds, durationNanoseconds: $0.duration.nanoseconds) }
        self.live = live
    }

    /// The ranges as HLS checks them; nil when a number is out of range or the ranges do not fit the item.
    public var stitchedRanges: StitchedRanges? {
        let limit = Int64(NumericRange.maximumSeconds) * 1_000_000_000
        guard (0...limit).contains(itemNanoseconds), ranges.count <= StitchedSelector.maximumDeclaredRanges else { return nil }
        var read: [StitchedRange] = []
        var end: Int64 = 0
        for range in ranges {
            guard (end...itemNanoseconds).contains(range.startNanoseconds), (1...itemNanoseconds).contains(range.durationNanoseconds),
                range.startNanoseconds <= itemNanoseconds - range.durationNanoseconds
            else { return nil }
            end = range.startNanoseconds + range.durationNanoseconds
            read.append(StitchedRange(
                id: range.id, start: ExactSeconds(nanoseconds: range.startNanoseconds), duration: ExactSeconds(nanoseconds: range.durationNanoseconds),
                segments: 0..<0))
        }
        return StitchedRanges(itemLength: ExactSeconds(nanoseconds: itemNanoseconds), ranges: read)
    }
}

/// `POST /groups/ID/inputs`: what a participant tells its group, one `GroupInput` as JSON.
public struct GroupInputMessage: Sendable, Equatable, Codable {
    public enum Operation: String, Sendable, Codable {
        case join, leave, begin, end, rate, pause, seek
        /// The participant has loaded and can play: a coordinated start waits for every participant's.
        case ready
    }

    /// The fastest a group plays: a rate beyond it is refused.
    public static let maximumRate = 64.0
    /// The most ad breaks one participant may declare when it joins: a plan is kept for as long as
    /// the group lives and shown by `GET /groups/ID`, so it must stay small whatever a join sends.
    public static let maximumBreaks = 1_000
    /// The longest id of a declared break, in bytes of UTF-8.
    public static let maximumBreakIDBytes = 256

    public var participant: String
    public var op: Operation
    /// join: its policy (the group's default when absent), its ads, its time scale and its lengths.
    public var policy: GroupPolicy?
    public var ads: GroupAdPlan?
    public var timeScale: Double?
    public var lengths: GroupLengths?
    /// join: the content the participant means to watch, checked against the group's.
    public var contentID: String?
    /// begin, end: the suspension's reason.
    public var reason: SuspensionReason?
    /// begin: where it left primary; end: where it resumes; rate, pause, seek: the participant's position.
    public var primary: Double?
    /// begin: when it expects to be back, on the group clock.
    public var expectedEnd: Double?
    /// rate: the rate asked for.
    public var rate: Double?
    /// seek: the primary position asked for.
    public var target: Double?

    public init(participant: String, op: Operation) {
        self.participant = participant
        self.op = op
    }

    /// The message of `input`; nil for one that is not sent (`advanceTime`).
    public init?(_ input: GroupInput) {
        switch input {
        case .join(let name, let policy, let ads):
            self.init(participant: name, op: .join)
            self.policy = policy
            self.ads = ads
        case .leave(let name):
            self.init(participant: name, op: .leave)
        case .beginSuspension(let name, let reason, let primary, let expectedEnd):
            self.init(participant: name, op: .begin)
            self.reason = reason
            self.primary = primary
            self.expectedEnd = expectedEnd
        case .endSuspension(let name, let reason, let resume):
            self.init(participant: name, op: .end)
            self.reason = reason
            primary = resume
        case .intent(let from, let intent, let primary):
            switch intent {
            case .rate(let rate):
                self.init(participant: from, op: .rate)
                self.rate = rate
            case .pause:
                self.init(participant: from, op: .pause)
            case .seek(let target):
                self.init(participant: from, op: .seek)
                self.target = target
            }
            self.primary = primary
        case .advanceTime:
            return nil
        }
    }

    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        /// The HTTP status that refuses it: 400, or 413 for a plan past its limit.
        public var status = 400
        public var description: String { reason }
    }

    /// The input, with every number range-checked; `defaultPolicy` stands in for a join without one.
    public func input(defaultPolicy: GroupPolicy) throws(Failure) -> GroupInput {
        if let refusal = GroupCreation.nameRefusal("participant", participant) { throw Failure(reason: refusal) }
        func position(_ value: Double?, _ field: String) throws(Failure) -> Double {
            guard let value else { throw Failure(reason: "\(op.rawValue) needs \(field)") }
            guard NumericRange.timeline.contains(value) else {
                throw Failure(reason: "\(field) \(value) is outside \(NumericRange.timeline)")
            }
            return value
        }
        func suspension() throws(Failure) -> SuspensionReason {
            guard let reason else { throw Failure(reason: "\(op.rawValue) needs reason (\(SuspensionReason.allCases.map(\.rawValue).joined(separator: ", ")))") }
            return reason
        }
        switch op {
        case .join:
            let policy = policy ?? defaultPolicy
            if let refusal = GroupCreation.limitsRefusal(policy, field: "participantLimits") { throw Failure(reason: refusal) }
            let ads = ads ?? .adFree
            guard ads.breaks.count <= Self.maximumBreaks else {
                throw Failure(reason: "participant '\(participant)' declares \(ads.breaks.count) ad breaks; a participant may declare at most \(Self.maximumBreaks)", status: 413)
            }
            for adBreak in ads.breaks {
                guard adBreak.id.utf8.count <= Self.maximumBreakIDBytes else {
                    throw Failure(reason: "ad break '\(adBreak.id.prefix(64))…' has an id of \(adBreak.id.utf8.count) bytes; at most \(Self.maximumBreakIDBytes)", status: 413)
                }
                guard NumericRange.timeline.contains(adBreak.position), NumericRange.duration.contains(adBreak.adSeconds),
                    NumericRange.duration.contains(adBreak.resumeOffset)
                else { throw Failure(reason: "ad break '\(adBreak.id.prefix(64))' has a position or duration outside \(NumericRange.timeline)") }
            }
            return .join(participant, policy: policy, ads: ads)
        case .leave:
            return .leave(participant)
        case .ready:
            // The host's business (its coordinated start), not the coordinator's: only time passed.
            return .advanceTime
        case .begin:
            let expected = try expectedEnd.map { value throws(Failure) -> Double in
                guard value.isFinite, abs(value) <= 1e12 else { throw Failure(reason: "expectedEnd \(value) is not a group time") }
                return value
            }
            return .beginSuspension(participant, reason: try suspension(), primary: try position(primary, "primary"), expectedEnd: expected)
        case .end:
            return .endSuspension(participant, reason: try suspension(), resumePrimary: try position(primary, "primary"))
        case .rate:
            guard let rate, rate.isFinite, (0...GroupInputMessage.maximumRate).contains(rate) else {
                throw Failure(reason: "rate needs a rate from 0 to \(GroupInputMessage.maximumRate)")
            }
            return .intent(from: participant, .rate(rate), primary: try position(primary, "primary"))
        case .pause:
            return .intent(from: participant, .pause, primary: try position(primary, "primary"))
        case .seek:
            return .intent(from: participant, .seek(try position(target, "target")), primary: try position(primary, "primary"))
        }
    }
}

/// What the host streams on `GET /groups/ID/events`: to a participant (`?participant=A`) the commands
/// for it, to anyone else every command and event, each as one SSE event named by `kind`.
public struct GroupStreamMessage: Sendable, Equatable, Codable {
    /// `command` or the event's name (`joined`, `suspended`, `held`, `waited`, …).
    public var kind: String
    public var at: Double
    /// command: whom it is for and what it says.
    public var to: String?
    public var command: GroupCommandMessage?
    /// events: the participant it is about, and its details.
    public var participant: String?
    public var reason: SuspensionReason?
    public var primary: Double?
    public var holders: [String]?
    public var follow: FollowState?
    public var from: Double?
    public var seconds: Double?
    public var timeline: GroupTimeline?
    /// waited: the whole wait, edges and critical holder.
    public var wait: GroupWait?

    public init(kind: String, at: Double) {
        self.kind = kind
        self.at = at
    }

    public init(command: GroupCommand, to name: String, at: Double) {
        self.init(kind: "command", at: at)
        to = name
        self.command = GroupCommandMessage(command)
    }

    public init(_ event: GroupEvent) {
        switch event {
        case .joined(let name, let at):
            self.init(kind: "joined", at: at)
            participant = name
        case .left(let name, let at):
            self.init(kind: "left", at: at)
            participant = name
        case .mixedPolicy(let names, let at):
            self.init(kind: "mixed-policy", at: at)
            holders = names
        case .suspended(let name, let reason, let at, let primary):
            self.init(kind: "suspended", at: at)
            participant = name
            self.reason = reason
            self.primary = primary
        case .resumed(let name, let reason, let at, let primary):
            self.init(kind: "resumed", at: at)
            participant = name
            self.reason = reason
            self.primary = primary
        case .held(let at, let primary, let holders):
            self.init(kind: "held", at: at)
            self.primary = primary
            self.holders = holders
        case .released(let at, let primary):
            self.init(kind: "released", at: at)
            self.primary = primary
        case .waited(let wait):
            self.init(kind: "waited", at: wait.end)
            participant = wait.waiter
            primary = wait.primary
            seconds = wait.seconds
            holders = wait.edges.map(\.holder)
            self.wait = wait
        case .caughtUp(let name, let at, let from, let to):
            self.init(kind: "caught-up", at: at)
            participant = name
            self.from = from
            primary = to
        case .followStateChanged(let name, let state, let at):
            self.init(kind: "follow", at: at)
            participant = name
            follow = state
        case .timelineChanged(let timeline, let at):
            self.init(kind: "timeline", at: at)
            self.timeline = timeline
        }
    }
}

extension GroupStreamMessage {
    /// The coordinator's event this message carries; nil for a command, or a message that lacks a member.
    public var event: GroupEvent? {
        switch kind {
        case "joined": participant.map { .joined($0, at: at) }
        case "left": participant.map { .left($0, at: at) }
        case "mixed-policy": holders.map { .mixedPolicy($0, at: at) }
        case "suspended":
            participant.flatMap { name in reason.flatMap { reason in primary.map { .suspended(name, reason: reason, at: at, primary: $0) } } }
        case "resumed":
            participant.flatMap { name in reason.flatMap { reason in primary.map { .resumed(name, reason: reason, at: at, primary: $0) } } }
        case "held": primary.map { .held(at: at, primary: $0, holders: holders ?? []) }
        case "released": primary.map { .released(at: at, primary: $0) }
        case "waited": wait.map { .waited($0) }
        case "caught-up": participant.flatMap { name in from.flatMap { from in primary.map { .caughtUp(name, at: at, from: from, to: $0) } } }
        case "follow": participant.flatMap { name in follow.map { .followStateChanged(name, $0, at: at) } }
        case "timeline": timeline.map { .timelineChanged($0, at: at) }
        default: nil
        }
    }
}

/// One `GroupCommand` on the wire.
public struct GroupCommandMessage: Sendable, Equatable, Codable {
    public enum Name: String, Sendable, Codable {
        case play, pause, seek, wait
    }

    public var cmd: Name
    public var primary: Double
    public var rate: Double?
    public var atGroupTime: Double?
    public var originator: String?
    public var snap: Bool?
    public var holders: [String]?
    public var reason: SuspensionReason?
    public var expectedEnd: Double?

    public init(_ command: GroupCommand) {
        switch command {
        case .play(let rate, let primary, let at, let originator):
            cmd = .play
            self.primary = primary
            self.rate = rate
            atGroupTime = at
            self.originator = originator
        case .pause(let primary, let snap, let originator):
            cmd = .pause
            self.primary = primary
            self.snap = snap
            self.originator = originator
        case .seek(let primary, let originator):
            cmd = .seek
            self.primary = primary
            self.originator = originator
        case .wait(let primary, let holders, let reason, let expectedEnd):
            cmd = .wait
            self.primary = primary
            self.holders = holders
            self.reason = reason
            self.expectedEnd = expectedEnd
        }
    }

    /// The command, or nil when a number is out of range or a member is missing.
    public var command: GroupCommand? {
        guard NumericRange.timeline.contains(primary) else { return nil }
        switch cmd {
        case .play:
            guard let rate, rate.isFinite, rate > 0, rate <= GroupInputMessage.maximumRate, let atGroupTime, atGroupTime.isFinite else { return nil }
            return .play(rate: rate, primary: primary, atGroupTime: atGroupTime, originator: originator)
        case .pause:
            return .pause(primary: primary, snap: snap ?? false, originator: originator)
        case .seek:
            return .seek(primary: primary, originator: originator)
        case .wait:
            guard let reason else { return nil }
            return .wait(primary: primary, holders: holders ?? [], reason: reason, expectedEnd: expectedEnd.flatMap { $0.isFinite ? $0 : nil })
        }
    }
}
