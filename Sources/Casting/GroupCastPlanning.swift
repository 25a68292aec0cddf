import Emulation
import HLS

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
        let ranges = StitchedRanges(playlist: prepared.media, selector: selector)
        if let error = ranges.diagnostics.first(where: { $0.severity == .error }) {
            throw .unreadable(CastError(input: playlist, reason: "participant '\(participant.name)': \(error.message)"))
        }
        var plan = cast.plan
        var ads = participant.adFree ? GroupAdPlan.adFree : GroupAdPlan(interstitials: plan)
        var stitched: StitchedAds?
        if selector != nil {
            let derived = StitchedAds(ranges)
            plan = derived.playbackPlan(itemDuration: plan.primaryDuration, isLive: plan.isLive, startup: plan.startup)
            ads = derived.adPlan
            stitched = derived
        }
        let member = GroupMember(
            name: participant.name, profile: profile.name, plan: plan, ads: ads, stitched: stitched,
            policy: policy, script: participant.script, faults: participant.faults)
        return Planned(member: member, ranges: ranges, isLive: plan.isLive)
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
