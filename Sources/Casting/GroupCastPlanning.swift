import Coordination
import HLS
import Playback
import Profiles

/// Turns a group file's participants into the members a `GroupSimulation` plays: each participant's
/// own playlist read and planned for its own profile, and its ads as the group sees them.
public struct GroupCastPlanning: Sendable {
    public var planner: CastPlanner

    public init(planner: CastPlanner) {
        self.planner = planner
    }

    /// Why a participant cannot take part: its playlist cannot be read (a usage error, as for
    /// `simulate`), or its receiver cannot play the cast.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case unreadable(CastError)
        case unplayable(CastError)

        public var description: String {
            switch self {
            case .unreadable(let error), .unplayable(let error): error.description
            }
        }
    }

    /// One participant as planned: the member the simulation plays, and its ads as the playlist gives
    /// them, for the equal-length rule.
    public struct Planned: Sendable {
        public var member: GroupMember
        /// Its stitched ranges (none without a selector: then the primary length is the playlist's).
        public var ranges: StitchedRanges
        public var isLive: Bool
    }

    /// One member. With a `stitched` selector, the playlist is the participant's stitched item: the
    /// ranges come from its segments (`HLS.StitchedRanges`), its interstitials are not played and the
    /// ranges are its ads; with `adFree`, it plays no ads at all.
    public func member(
        _ participant: GroupScenario.Participant, playlist: String, profile: ReceiverProfile, policy: GroupPolicy, seed: UInt64
    ) async throws(Failure) -> Planned {
        let selector = participant.adFree ? nil : participant.stitched
        let request = CastRequest(playlist: playlist, automaticallyHandlesInterstitials: !participant.adFree && selector == nil)
        let prepared: PreparedCast
        do throws(CastError) {
            prepared = try await planner.prepare(request)
        } catch {
            throw .unreadable(error)
        }
        let cast: CastPlan
        do throws(CastError) {
            cast = try await planner.plan(prepared, profile: profile, seed: seed)
        } catch {
            throw .unplayable(error)
        }
        let grouped: Grouped
        do throws(CastError) {
            grouped = try Self.grouped(cast, prepared: prepared, selector: selector, adFree: participant.adFree, name: participant.name)
        } catch {
            throw .unreadable(error)
        }
        let member = GroupMember(
            name: participant.name, profile: profile.name, plan: grouped.plan, ads: grouped.ads, stitched: grouped.stitched,
            policy: policy, script: participant.script, faults: participant.faults)
        return Planned(member: member, ranges: grouped.ranges, isLive: grouped.plan.isLive)
    }

    /// A cast as a participant plays it in a group: its plan (with a selector, the stitched ranges are
    /// its breaks), its ads as the group sees them, and the ranges for the equal-length rule.
    public struct Grouped: Sendable {
        public var plan: PlaybackPlan
        public var ads: GroupAdPlan
        public var stitched: StitchedAds?
        public var ranges: StitchedRanges
    }

    /// How `cast`, planned from `prepared`, takes part in a group: the one place a group simulation
    /// and a receiver joining a group over `/play` make a participant's plan. A selector's error
    /// diagnostics refuse it, naming `name`.
    public static func grouped(
        _ cast: CastPlan, prepared: PreparedCast, selector: StitchedSelector?, adFree: Bool, name: String
    ) throws(CastError) -> Grouped {
        let ranges = StitchedRanges(playlist: prepared.media, selector: adFree ? nil : selector)
        if let error = ranges.diagnostics.first(where: { $0.severity == .error }) {
            throw CastError(input: prepared.request.playlist, reason: "participant '\(name)': \(error.message)")
        }
        guard !adFree, selector != nil else {
            return Grouped(plan: cast.plan, ads: adFree ? .adFree : GroupAdPlan(interstitials: cast.plan), ranges: ranges)
        }
        let derived = StitchedAds(ranges)
        let plan = derived.playbackPlan(itemDuration: cast.plan.primaryDuration, isLive: cast.plan.isLive, startup: cast.plan.startup)
        return Grouped(plan: plan, ads: derived.adPlan, stitched: derived, ranges: ranges)
    }

    /// The equal-length rule over a group: every participant's primary (its item minus its stitched
    /// ads) must last as long as the first participant's, within `check`'s tolerance; in a live group
    /// each stitched break must last as long as the first participant's. The refusals, one a participant.
    public static func lengthRefusals(_ participants: [Planned], check: PrimaryLengthCheck = PrimaryLengthCheck()) -> [Diagnostic] {
        guard let reference = participants.first else { return [] }
        return participants.dropFirst().flatMap { participant -> [Diagnostic] in
            let verdict = participant.isLive || reference.isLive
                ? check.checkLiveBreaks(group: reference.ranges.ranges, participant: participant.ranges.ranges, participantID: participant.member.name)
                : check.check(groupPrimaryLength: reference.ranges.primaryLength, participant: participant.ranges, participantID: participant.member.name)
            return verdict.diagnostics.filter { $0.severity == .error }
        }
    }
}
