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

    /// One member. With `stitched` ranges, the playlist is the participant's stitched item: its
    /// interstitials are not played and the ranges are its ads; with `adFree`, it plays no ads at all.
    public func member(
        _ participant: GroupScenario.Participant, playlist: String, profile: ReceiverProfile, policy: GroupPolicy, seed: UInt64
    ) async throws(Failure) -> GroupMember {
        let request = CastRequest(playlist: playlist, automaticallyHandlesInterstitials: !participant.adFree && participant.stitched == nil)
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
        var plan = cast.plan
        var ads = participant.adFree ? GroupAdPlan.adFree : GroupAdPlan(interstitials: plan)
        if let stitched = participant.stitched, !participant.adFree {
            guard stitched.ranges.last.map({ $0.start + $0.duration <= plan.primaryDuration + InterstitialSchedule.tolerance }) ?? true else {
                throw .unreadable(CastError(input: playlist, reason: "a stitched range of participant '\(participant.name)' ends after the item (\(plan.primaryDuration.plainText) s)"))
            }
            plan = stitched.playbackPlan(itemDuration: plan.primaryDuration, isLive: plan.isLive, startup: plan.startup)
            ads = stitched.adPlan
        }
        return GroupMember(
            name: participant.name, profile: profile.name, plan: plan, ads: ads, stitched: participant.adFree ? nil : participant.stitched,
            policy: policy, script: participant.script, faults: participant.faults)
    }
}
