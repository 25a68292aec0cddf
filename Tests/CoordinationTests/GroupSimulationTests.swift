@testable import Coordination
@testable import Playback
@testable import Profiles
import Sessions
import Testing
import TestSupport

/// The seeds' example (docs/groups.md): VOD, one break at 60 s, A a 15 s ad, B a 30 s ad, C none, on
/// Apple TV 4K transitions drawn with a fixed seed; expected numbers come from the drawn transitions.
@Suite("Group simulation")
struct GroupSimulationTests {
    static let position = 60.0
    static let primary = ProbedMedia.make()
    static let model = TransitionModel(profile: try! ProfileCatalog().profile("apple-tv-4k"), seed: 7)

    /// A participant's interstitial plan: its ad at 60 s (if any), with the model's transitions.
    static func interstitialPlan(_ id: String?, ad seconds: Double, live: Bool = false) -> PlaybackPlan {
        guard let id else { return PlaybackPlan(primaryDuration: 120, isLive: live) }
        let ad = PlannedBreak(
            eventID: id, position: position, resumeOffset: live ? seconds : 0, assets: [PlannedAsset(uri: "\(id).m3u8", duration: seconds)],
            transitionIn: model.transition("\(id)/in", from: primary, to: ProbedMedia.mismatchingAd),
            transitionOut: model.transition("\(id)/out", from: ProbedMedia.mismatchingAd, to: primary))
        return PlaybackPlan(primaryDuration: 120, isLive: live, breaks: [ad])
    }

    /// How long a participant is away from primary for its break: transitions in and out and the ad.
    static func away(_ plan: PlaybackPlan) -> Double {
        plan.breaks.reduce(0) { $0 + $1.transitionIn.seconds + $1.playedDuration + $1.transitionOut.seconds }
    }

    static func members(policy: GroupPolicy, live: Bool = false) -> [GroupMember] {
        [("A", "ad-a", 15.0), ("B", "ad-b", 30.0), ("C", nil, 0.0)].map { name, id, seconds in
            let plan = interstitialPlan(id, ad: seconds, live: live)
            return GroupMember(name: name, profile: "apple-tv-4k", plan: plan, ads: GroupAdPlan(interstitials: plan), policy: policy)
        }
    }

    static func stitchedMembers(policy: GroupPolicy) throws -> [GroupMember] {
        try [("A", 15.0), ("B", 30.0), ("C", 0.0)].map { name, seconds in
            let stitched = try StitchedAds(ranges: seconds > 0 ? [.init(id: "ad-\(name)", start: position, duration: seconds)] : [])
            return GroupMember(
                name: name, profile: "apple-tv-4k", plan: stitched.playbackPlan(itemDuration: 120 + seconds), ads: stitched.adPlan,
                stitched: stitched, policy: policy)
        }
    }

    static func near(_ value: Double, _ expected: Double) -> Bool { abs(value - expected) < 1e-6 }

    @Test("Wait: A waits for B the difference of their breaks, C all of B's, B none; nobody misses content; all resume at 60 together")
    func waitPolicy() {
        let members = Self.members(policy: GroupPolicy(waitFor: [.playingInterstitial]))
        let report = GroupSimulation(contentID: "movie", members: members).run()
        let (a, b, c) = (report.participants[0], report.participants[1], report.participants[2])
        let awayA = Self.away(members[0].plan), awayB = Self.away(members[1].plan)
        #expect(awayB - awayA > 15, "the drawn transitions are not instant")
        #expect(Self.near(a.waitingSeconds, awayB - awayA))
        #expect(Self.near(c.waitingSeconds, awayB))
        #expect(b.waitingSeconds == 0)
        #expect(a.waitedFor.map(\.holder) == ["B"] && a.criticalHolder == "B")
        #expect(c.waitedFor.map(\.holder) == ["A", "B"] && c.criticalHolder == "B")
        #expect(Self.near(c.waitedFor[1].seconds, awayB) && Self.near(c.waitedFor[0].seconds, awayA))
        #expect(report.participants.allSatisfy { $0.missedByCatchUp == 0 && $0.catchUpJumps.isEmpty })
        let resumes = report.participants.map { $0.timeControlStatus.last { $0.status == .playing }!.at }
        #expect(resumes.allSatisfy { Self.near($0, Self.position + awayB) })
        #expect(report.participants.allSatisfy { $0.syncError.max < 1e-6 })
        #expect(Self.near(report.heldSeconds, awayB))
        #expect(c.timeControlStatus.contains { $0.reason == .waitingForCoordinatedPlayback })
    }

    @Test("Catch-up: A misses its 15 s and its transitions, B its 30 s and transitions, C nothing; nobody waits")
    func catchUpPolicy() {
        let members = Self.members(policy: .catchUp)
        let report = GroupSimulation(contentID: "movie", members: members).run()
        let (a, b, c) = (report.participants[0], report.participants[1], report.participants[2])
        #expect(Self.near(a.missedByCatchUp, Self.away(members[0].plan)))
        #expect(Self.near(b.missedByCatchUp, Self.away(members[1].plan)))
        #expect(c.missedByCatchUp == 0)
        #expect(Self.near(a.breaks[0].missedByCatchUp, a.missedByCatchUp))
        #expect(report.participants.allSatisfy { $0.waitingSeconds == 0 })
        #expect(report.heldSeconds == 0)
        #expect(report.participants.allSatisfy { $0.syncError.max < 1e-6 })
    }

    @Test("Stitched ranges instead of interstitials: the same waits and misses, exactly the ads' lengths")
    func stitched() throws {
        let waited = GroupSimulation(contentID: "movie", members: try Self.stitchedMembers(policy: GroupPolicy(waitFor: [.playingInterstitial]))).run()
        #expect(waited.participants.map(\.waitingSeconds) == [15, 0, 30])
        #expect(waited.participants.allSatisfy { $0.missedByCatchUp == 0 })
        let caught = GroupSimulation(contentID: "movie", members: try Self.stitchedMembers(policy: .catchUp)).run()
        #expect(caught.participants.map(\.missedByCatchUp) == [15, 30, 0])
        #expect(caught.participants.allSatisfy { $0.waitingSeconds == 0 })
    }

    @Test("Live under catch-up: primary moves on by the ad, so the ad replaced 15 s and 30 s and the jumps are only the transitions")
    func liveCatchUp() {
        let members = Self.members(policy: .catchUp, live: true)
        let report = GroupSimulation(contentID: "channel", members: members, until: 150).run()
        let (a, b) = (report.participants[0], report.participants[1])
        #expect(Self.near(a.replacedByAd, 15) && Self.near(b.replacedByAd, 30))
        let transitions = members.map { $0.plan.breaks.reduce(0) { $0 + $1.transitionIn.seconds + $1.transitionOut.seconds } }
        #expect(Self.near(a.missedByCatchUp, transitions[0]))
        #expect(Self.near(b.missedByCatchUp, transitions[1]))
        #expect(a.catchUpJumps.count == 1 && b.catchUpJumps.count == 1)
        #expect(report.participants[2].replacedByAd == 0)
    }

    @Test("A link delay shows as sync error (the others play on until the wait reaches them); the same seed gives the same run")
    func linkDelay() {
        let members = Self.members(policy: GroupPolicy(waitFor: [.playingInterstitial]))
        let link = GroupLink(delaySeconds: 0.2, jitterSeconds: 0.05)
        let first = GroupSimulation(contentID: "movie", members: members, link: link, seed: 3).run()
        let second = GroupSimulation(contentID: "movie", members: members, link: link, seed: 3).run()
        #expect(first == second)
        #expect(first.participants[2].syncError.max > 0.1)
        #expect(first.participants[2].syncError.max < 0.3)
    }

    @Test("A stall under stallRecovery waiting holds the others for its length; a leave releases them")
    func faults() {
        var members = Self.members(policy: GroupPolicy(waitFor: [.stallRecovery])).map { member in
            var plain = member
            plain.plan = PlaybackPlan(primaryDuration: 120)
            plain.ads = .adFree
            return plain
        }
        members[0].faults = [.stall(at: 10, seconds: 4)]
        members[1].faults = [.stall(at: 30, seconds: 50), .leave(at: 40)]
        let report = GroupSimulation(contentID: "movie", members: members).run()
        #expect(report.participants[2].waitingSeconds == 4 + 10)
        #expect(report.participants[2].waitedFor == [.init(holder: "A", reason: .stallRecovery, seconds: 4), .init(holder: "B", reason: .stallRecovery, seconds: 10)])
        #expect(report.participants[0].waitingSeconds == 10)
    }

    @Test("A participant whose buffer runs dry on a network slower than its media suspends the group with stallRecovery until it plays again, and the others wait for it")
    func realStallSuspendsTheGroup() throws {
        let plain = GroupMember(name: "B", profile: "apple-tv-4k", plan: PlaybackPlan(primaryDuration: 60), ads: .adFree, policy: GroupPolicy(waitFor: [.stallRecovery]))
        // 1 MB segments of 6 s (1.33 Mbit/s) over 1 Mbit/s: the buffer runs dry after the start.
        var slow = plain
        slow.name = "A"
        slow.plan = PlaybackPlan(primaryDuration: 60)
        let primary = SegmentList((0..<10).map { PlannedSegment(uri: "https://cdn.example/p/\($0).ts", duration: 6, bytes: 1_000_000) })
        slow.plan.fetching = FetchPlan(primary: primary, buffer: BufferModel(
            family: "test", forwardTarget: .init(12, source: "test"), startupBuffer: .init(6, source: "test"),
            rebufferResume: .init(6, source: "test"), preloadLead: .init(0, source: "test"),
            retry: RetryPolicy(retries: 2, firstDelaySeconds: 1, growth: 2, maximumDelaySeconds: 8, timeoutSeconds: 20, retriesClientErrors: false, source: "test")))
        slow.delivery = .modelled(SegmentNetworkModel(roundTripSeconds: 0, bitsPerSecond: 1e6))

        let report = GroupSimulation(contentID: "movie", members: [slow, plain]).run()

        let waits = report.participants[1].waitedFor
        #expect(!waits.isEmpty, "\(report.participants[0])")
        #expect(waits.allSatisfy { $0.holder == "A" && $0.reason == .stallRecovery && $0.seconds > 0 }, "\(waits)")
        #expect(report.participants[0].waitedFor.isEmpty, "\(report.participants[0])")
    }
}
