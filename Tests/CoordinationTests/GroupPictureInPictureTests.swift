@testable import Coordination
import Foundation
@testable import Playback
@testable import Sessions
import Testing

/// Picture in picture in a group (issue 13 with groups): entering it is no group event, and an SDK ad
/// it keeps from starting begins no `playingInterstitial` suspension, so nobody waits for it.
@Suite("Picture in picture in a group")
struct GroupPictureInPictureTests {
    /// A, whose ad SDK has a 15 s mid-roll due at 60 s (in picture in picture from the start when
    /// `pip`), and B without ads; both wait on interstitials.
    static func members(pip: Bool) throws -> [GroupMember] {
        let schedule = try SDKAdSchedule(parsing: Data(#"{"breaks": [{"id": "mid", "time": 60, "ads": [{"duration": 15}]}]}"#.utf8))
        let withAds = PlaybackPlan(primaryDuration: 120, isLive: false)
            .addingSDKPods(schedule.plannedPods(primaryDuration: 120, isLive: false, startPosition: 0))
        let policy = GroupPolicy(waitFor: [.playingInterstitial])
        let script = try SenderScript(parsing: pip ? "at 1 pip on" : "")
        return [
            GroupMember(name: "A", profile: "apple-tv-4k", plan: withAds, ads: GroupAdPlan(interstitials: withAds), policy: policy, script: script),
            GroupMember(name: "B", profile: "apple-tv-4k", plan: PlaybackPlan(primaryDuration: 120, isLive: false), ads: .adFree, policy: policy),
        ]
    }

    @Test("An SDK mid-roll skipped in picture in picture suspends nobody: B does not wait, while without PiP it waits the ad out")
    func skippedSDKAdHoldsNobody() throws {
        let inPiP = GroupSimulation(contentID: "movie", members: try Self.members(pip: true)).run()
        let standard = GroupSimulation(contentID: "movie", members: try Self.members(pip: false)).run()

        #expect(inPiP.participants[0].suspensions.isEmpty, "\(inPiP.participants[0].suspensions)")
        #expect(inPiP.participants[1].waitingSeconds == 0)
        #expect(inPiP.heldSeconds == 0)
        // The control: the same group with A in standard presentation plays the ad, and B waits for it.
        #expect(standard.participants[0].suspensions.map(\.reason) == [.playingInterstitial])
        #expect(standard.participants[1].waitingSeconds >= 15)
        #expect(standard.participants[1].criticalHolder == "A")
    }
}
