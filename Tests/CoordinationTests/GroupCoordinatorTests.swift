@testable import Coordination
import TestSupport
import Testing

/// The coordinator's rules, each on a small group driven input by input.
@Suite("Group coordinator rules", .ownThread)
struct GroupCoordinatorTests {
    static let wait = GroupPolicy(waitFor: [.playingInterstitial])

    /// A group of `names` with `policy`, started playing at time 0.
    static func group(_ names: [String], policy: GroupPolicy = wait) -> GroupCoordinator {
        var group = GroupCoordinator(contentID: "movie")
        for name in names { _ = group.handle(.join(name, policy: policy, ads: .adFree), at: 0) }
        _ = group.handle(.intent(from: names[0], .rate(1), primary: 0), at: 0)
        return group
    }

    static func commands(_ actions: [GroupAction], to name: String) -> [GroupCommand] {
        actions.compactMap { if case .command(name, let command) = $0 { command } else { nil } }
    }

    static func waits(_ actions: [GroupAction]) -> [GroupWait] {
        actions.compactMap { if case .event(.waited(let wait)) = $0 { wait } else { nil } }
    }

    @Test("A suspension someone waits on holds the timeline where it began, and the last end plays everyone from there")
    func holdAndRelease() {
        var group = Self.group(["A", "B", "C"])
        let begun = group.handle(.beginSuspension("B", reason: .playingInterstitial, primary: 60, expectedEnd: 90), at: 60)
        #expect(group.hold?.primary == 60)
        #expect(Self.commands(begun, to: "C") == [.wait(primary: 60, holders: ["B"], reason: .playingInterstitial, expectedEnd: 90)])
        #expect(group.position == 60)
        _ = group.handle(.advanceTime, at: 75)
        #expect(group.position == 60)
        let ended = group.handle(.endSuspension("B", reason: .playingInterstitial, resumePrimary: 60), at: 90)
        #expect(group.hold == nil)
        for name in ["A", "B", "C"] {
            #expect(Self.commands(ended, to: name).last == .play(rate: 1, primary: 60, atGroupTime: 90, originator: nil))
        }
        #expect(Self.waits(ended).map(\.seconds) == [30, 30])
        #expect(Self.waits(ended).map(\.criticalHolder) == ["B", "B"])
    }

    @Test("Under catch-up nobody waits, and a returning participant is sent to the group position")
    func catchUp() {
        var group = Self.group(["A", "C"], policy: .catchUp)
        let begun = group.handle(.beginSuspension("A", reason: .playingInterstitial, primary: 60, expectedEnd: 75), at: 60)
        #expect(group.hold == nil)
        #expect(Self.commands(begun, to: "C").isEmpty)
        let ended = group.handle(.endSuspension("A", reason: .playingInterstitial, resumePrimary: 60), at: 75.5)
        #expect(Self.commands(ended, to: "A") == [.seek(primary: 75.5, originator: nil), .play(rate: 1, primary: 75.5, atGroupTime: 75.5, originator: nil)])
        #expect(ended.contains(.event(.caughtUp("A", at: 75.5, from: 60, to: 75.5))))
    }

    @Test("A leaver's suspensions are dropped, and a group it held resumes")
    func leaverReleasesHeldGroup() {
        var group = Self.group(["A", "B"])
        _ = group.handle(.beginSuspension("B", reason: .playingInterstitial, primary: 60, expectedEnd: nil), at: 60)
        #expect(group.hold != nil)
        let left = group.handle(.leave("B"), at: 70)
        #expect(group.hold == nil)
        #expect(Self.commands(left, to: "A").last == .play(rate: 1, primary: 60, atGroupTime: 70, originator: nil))
        #expect(Self.commands(left, to: "B").isEmpty)
        #expect(Self.waits(left).map(\.edges) == [[GroupWait.Edge(holder: "B", reason: .playingInterstitial, seconds: 10)]])
    }

    @Test("Participant limit: in a group larger than the limit for a reason, nobody waits for it")
    func participantLimit() {
        let limited = GroupPolicy(waitFor: [.playingInterstitial], participantLimits: [.playingInterstitial: 2])
        var three = Self.group(["A", "B", "C"], policy: limited)
        _ = three.handle(.beginSuspension("B", reason: .playingInterstitial, primary: 60, expectedEnd: nil), at: 60)
        #expect(three.hold == nil)
        var two = Self.group(["A", "B"], policy: limited)
        _ = two.handle(.beginSuspension("B", reason: .playingInterstitial, primary: 60, expectedEnd: nil), at: 60)
        #expect(two.hold?.primary == 60)
    }

    @Test("pauseSnapsToOriginator: a pause stops the timeline at the originator's position and snapping participants seek there")
    func pauseSnapsToOriginator() {
        var group = GroupCoordinator(contentID: "movie")
        _ = group.handle(.join("A", policy: GroupPolicy(pauseSnapsToOriginator: true), ads: .adFree), at: 0)
        _ = group.handle(.join("B", policy: GroupPolicy(pauseSnapsToOriginator: false), ads: .adFree), at: 0)
        _ = group.handle(.intent(from: "A", .rate(1), primary: 0), at: 0)
        let paused = group.handle(.intent(from: "B", .pause, primary: 41.8), at: 42)
        #expect(group.position == 41.8)
        #expect(Self.commands(paused, to: "A") == [.pause(primary: 41.8, snap: true, originator: "B")])
        #expect(Self.commands(paused, to: "B") == [.pause(primary: 41.8, snap: false, originator: "B")])
        _ = group.handle(.advanceTime, at: 50)
        #expect(group.position == 41.8)
    }

    @Test("Mixed policy: a participant whose policy differs is flagged, and it goes on while the others wait")
    func mixedPolicyFlagged() {
        var group = GroupCoordinator(contentID: "movie")
        _ = group.handle(.join("A", policy: Self.wait, ads: .adFree), at: 0)
        _ = group.handle(.join("B", policy: Self.wait, ads: .adFree), at: 0)
        let joined = group.handle(.join("C", policy: .catchUp, ads: .adFree), at: 0)
        #expect(joined.contains(.event(.mixedPolicy(["C"], at: 0))))
        _ = group.handle(.intent(from: "A", .rate(1), primary: 0), at: 0)
        let begun = group.handle(.beginSuspension("B", reason: .playingInterstitial, primary: 60, expectedEnd: nil), at: 60)
        #expect(group.participant("A")?.follow == .waiting)
        #expect(group.participant("C")?.follow == .following)
        #expect(Self.commands(begun, to: "C").isEmpty)
    }

    @Test("A seek onto a participant's break lands everyone on that break's position")
    func seekSnapsToBreak() {
        var group = GroupCoordinator(contentID: "movie")
        let live = GroupAdPlan(breaks: [.init(id: "ad", position: 300, adSeconds: 30, resumeOffset: 30)])
        _ = group.handle(.join("A", policy: .catchUp, ads: live), at: 0)
        _ = group.handle(.join("C", policy: .catchUp, ads: .adFree), at: 0)
        _ = group.handle(.intent(from: "A", .rate(1), primary: 0), at: 0)
        let seeked = group.handle(.intent(from: "C", .seek(312), primary: 40), at: 40)
        #expect(Self.commands(seeked, to: "A").first == .seek(primary: 300, originator: "C"))
        #expect(Self.commands(seeked, to: "C").first == .seek(primary: 300, originator: "C"))
        let elsewhere = group.handle(.intent(from: "C", .seek(500), primary: 300), at: 41)
        #expect(Self.commands(elsewhere, to: "A").first == .seek(primary: 500, originator: "C"))
    }

    @Test("A participant joining mid-play is sent to the group position")
    func joinFollowsGroup() {
        var group = Self.group(["A"], policy: .catchUp)
        let joined = group.handle(.join("D", policy: .catchUp, ads: .adFree), at: 100)
        #expect(Self.commands(joined, to: "D") == [.seek(primary: 100, originator: nil), .play(rate: 1, primary: 100, atGroupTime: 100, originator: nil)])
    }

    @Test("stallRecovery holds only participants that list it; a suspended participant's intents are ignored")
    func stallWaitingAndSuspendedIntents() {
        var group = Self.group(["A", "B"], policy: GroupPolicy(waitFor: [.stallRecovery]))
        _ = group.handle(.beginSuspension("A", reason: .playingInterstitial, primary: 10, expectedEnd: nil), at: 10)
        #expect(group.hold == nil)
        #expect(group.handle(.intent(from: "A", .pause, primary: 10), at: 11).isEmpty)
        _ = group.handle(.beginSuspension("B", reason: .stallRecovery, primary: 12, expectedEnd: nil), at: 12)
        #expect(group.hold == nil, "A is suspended itself, so nobody follows to wait on B")
        _ = group.handle(.endSuspension("A", reason: .playingInterstitial, resumePrimary: 10), at: 20)
        #expect(group.hold?.primary == 12)
        #expect(group.participant("A")?.follow == .waiting)
    }
}
