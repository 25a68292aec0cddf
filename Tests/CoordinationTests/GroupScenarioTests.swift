@testable import Coordination
import Foundation
import HLS
@testable import Playback
import Testing

/// GROUP.json: what it may hold, and the path and reason of every refusal.
@Suite("Group file decoding")
struct GroupScenarioTests {
    static func parse(_ text: String) throws(GroupScenario.Failure) -> GroupScenario {
        try GroupScenario(parsing: Data(text.utf8))
    }

    static func refusal(_ text: String) -> GroupScenario.Failure? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    static let participant = #"{"name": "A", "profile": "apple-tv-4k", "playlist": "a.m3u8"}"#

    @Test("A full file decodes into the policy, the link, stitched ranges, scripts and faults")
    func fullFile() throws {
        let scenario = try Self.parse("""
            {"contentID": "movie", "policy": {"waitFor": ["playingInterstitial"], "participantLimits": {"playingInterstitial": 8},
             "pauseSnapsToOriginator": true}, "link": {"delayMs": 40, "jitterMs": 10},
             "participants": [{"name": "A", "profile": "apple-tv-4k", "playlist": "a.m3u8",
                               "stitched": [{"start": 300, "duration": 15, "id": "ad-a1"}], "script": ["at 40 seek 300"],
                               "faults": ["stall at 30 for 5", "leave at 90"], "policy": {"waitFor": []}},
                              {"name": "B", "profile": "smart-tv-low", "playlist": "b.m3u8", "adFree": true}]}
            """)
        #expect(scenario.policy == GroupPolicy(waitFor: [.playingInterstitial], participantLimits: [.playingInterstitial: 8], pauseSnapsToOriginator: true))
        #expect(scenario.link == GroupLink(delaySeconds: 0.04, jitterSeconds: 0.01))
        let a = scenario.participants[0]
        #expect(a.stitched == .explicit([.init(id: "ad-a1", start: ExactSeconds(wholeSeconds: 300), duration: ExactSeconds(wholeSeconds: 15))]))
        #expect(a.script.steps.map(\.command) == [.seek(to: 300)])
        #expect(a.faults == [.stall(at: 30, seconds: 5), .leave(at: 90)])
        #expect(a.policy == .catchUp)
        #expect(scenario.participants[1].adFree && scenario.participants[1].policy == nil)
    }

    @Test("Every refusal names the member and the reason", arguments: [
        (#"{"participants": []}"#, "$.contentID"),
        (#"{"contentID": "x", "participants": []}"#, "$.participants"),
        (#"{"contentID": "x", "extra": 1, "participants": [\#(participant)]}"#, "$.extra"),
        (#"{"contentID": "x", "participants": [{"name": "A", "profile": "p"}]}"#, "$.participants[0].playlist"),
        (#"{"contentID": "x", "participants": [\#(participant), \#(participant)]}"#, "$.participants[1].name"),
        (#"{"contentID": "x", "policy": {"waitFor": ["ads"]}, "participants": [\#(participant)]}"#, "$.policy.waitFor[0]"),
        (#"{"contentID": "x", "policy": {"participantLimits": {"stallRecovery": 0}}, "participants": [\#(participant)]}"#, "$.policy.participantLimits.stallRecovery"),
        (#"{"contentID": "x", "link": {"delayMs": -1}, "participants": [\#(participant)]}"#, "$.link.delayMs"),
        (#"{"contentID": "x", "link": {"delayMs": 1e300}, "participants": [\#(participant)]}"#, "$.link.delayMs"),
        (#"{"contentID": "x", "participants": [{"name": "A", "profile": "p", "playlist": "a", "adFree": 1}]}"#, "$.participants[0].adFree"),
        (#"{"contentID": "x", "participants": [{"name": "A", "profile": "p", "playlist": "a", "stitched": [{"start": 10}]}]}"#, "$.participants[0].stitched[0].duration"),
        (#"{"contentID": "x", "participants": [{"name": "A", "profile": "p", "playlist": "a", "stitched": "pattern:*"}]}"#, "$.participants[0].stitched"),
        (#"{"contentID": "x", "participants": [{"name": "A", "profile": "p", "playlist": "a", "stitched": [{"start": 10, "duration": 0}]}]}"#, "$.participants[0].stitched[0].duration"),
        (#"{"contentID": "x", "participants": [{"name": "A", "profile": "p", "playlist": "a", "script": ["at x seek 3"]}]}"#, "$.participants[0].script"),
        (#"{"contentID": "x", "participants": [{"name": "A", "profile": "p", "playlist": "a", "faults": ["stall at 3"]}]}"#, "$.participants[0].faults[0]"),
        (#"{"contentID": "x", "participants": [{"name": "A", "profile": "p", "playlist": "a", "faults": ["leave at 1e308"]}]}"#, "$.participants[0].faults[0]"),
        ("[1, 2", "$"),
    ])
    func refusals(text: String, path: String) {
        let failure = Self.refusal(text)
        #expect(failure?.path == path, "\(failure.map(String.init(describing:)) ?? "accepted")")
        #expect(failure?.reason.isEmpty == false)
    }

    @Test("Stitched ranges map item time to primary: inside a range to its start, after it less its length")
    func stitchedMapping() throws {
        let ads = try StitchedAds(ranges: [.init(id: "b", start: 100, duration: 30), .init(id: "a", start: 40, duration: 15)])
        #expect(ads.ranges.map(\.id) == ["a", "b"])
        #expect([30, 40, 47, 55, 100, 120, 130, 200].map(ads.primary(ofItem:)) == [30, 40, 40, 40, 85, 85, 85, 155])
        #expect(ads.adPlan.breaks.map(\.position) == [40, 85])
        #expect(ads.playbackPlan(itemDuration: 245).primaryDuration == 200)
    }

    @Test("A policy writes its reasons in order, so that one run always writes the same report")
    func policyEncodesInOrder() throws {
        let policy = GroupPolicy(waitFor: [.userIsChangingCurrentTime, .stallRecovery, .playingInterstitial], participantLimits: [.stallRecovery: 3])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(policy), as: UTF8.self)
        #expect(text == #"{"participantLimits":{"stallRecovery":3},"pauseSnapsToOriginator":false,"waitFor":["playingInterstitial","stallRecovery","userIsChangingCurrentTime"]}"#)
        #expect(try JSONDecoder().decode(GroupPolicy.self, from: Data(text.utf8)) == policy)
    }
}
