@testable import Coordination
@testable import Playback
@testable import Profiles
@testable import Sessions
import TestSupport
import Testing

/// The group's invariants over seeded random plans (stitched ads, instant switches): a fixed number
/// of cases, each from its own seed, named in every failure.
@Suite("Group invariants", .ownThread)
struct GroupPropertyTests {
    static let cases: [UInt64] = Array(1...40)

    /// 2–4 participants, 1–3 breaks; at each break each participant has an ad of 1–40 s or none.
    static func scenario(seed: UInt64, policy: GroupPolicy) throws -> (members: [GroupMember], positions: [Double]) {
        var generator = SeededGenerator(seed: seed)
        let count = Int.random(in: 2...4, using: &generator)
        let positions = (0..<Int.random(in: 1...3, using: &generator)).map { 20 + 50 * Double($0) + Double(Int.random(in: 0...20, using: &generator)) }
        var members: [GroupMember] = []
        for index in 0..<count {
            var ranges: [StitchedAds.Range] = []
            var removed = 0.0
            for (number, position) in positions.enumerated() where Double.random(in: 0..<1, using: &generator) < 0.6 {
                let seconds = Double(Int.random(in: 2...80, using: &generator)) / 2
                ranges.append(.init(id: "ad-\(index)-\(number)", start: position + removed, duration: seconds))
                removed += seconds
            }
            let stitched = try StitchedAds(ranges: ranges)
            members.append(GroupMember(
                name: "P\(index)", profile: "test", plan: stitched.playbackPlan(itemDuration: 200 + removed), ads: stitched.adPlan,
                stitched: stitched, policy: policy))
        }
        return (members, positions)
    }

    static func ad(_ member: GroupMember, at position: Double) -> Double {
        member.ads.breakAt(position)?.adSeconds ?? 0
    }

    @Test("Under wait nobody misses content and each waits the longest ad minus its own at each break", arguments: cases)
    func waitInvariant(seed: UInt64) throws {
        let (members, positions) = try Self.scenario(seed: seed, policy: GroupPolicy(waitFor: [.playingInterstitial]))
        let report = GroupSimulation(contentID: "c", members: members, seed: seed).run()
        for (member, participant) in zip(members, report.participants) {
            #expect(participant.missedByCatchUp == 0, "seed \(seed): \(member.name) missed content")
            for position in positions {
                let longest = members.map { Self.ad($0, at: position) }.max() ?? 0
                let waited = participant.breaks.first { abs($0.position - position) < 0.001 }?.waitingSeconds ?? 0
                #expect(abs(waited - (longest - Self.ad(member, at: position))) < 1e-6, "seed \(seed): \(member.name) at \(position) waited \(waited)")
            }
            #expect(participant.syncError.max < 1e-6, "seed \(seed): \(member.name) out of sync on a zero-delay link")
        }
    }

    @Test("Under catch-up nobody waits on playingInterstitial, each misses its own ads, and a zero-delay link keeps everyone in sync", arguments: cases)
    func catchUpInvariant(seed: UInt64) throws {
        let (members, _) = try Self.scenario(seed: seed, policy: .catchUp)
        let report = GroupSimulation(contentID: "c", members: members, seed: seed).run()
        for (member, participant) in zip(members, report.participants) {
            #expect(participant.waitingSeconds == 0 && participant.waitedFor.isEmpty, "seed \(seed): \(member.name) waited")
            let own = member.ads.breaks.reduce(0) { $0 + $1.adSeconds }
            #expect(abs(participant.missedByCatchUp - own) < 1e-6, "seed \(seed): \(member.name) missed \(participant.missedByCatchUp), its ads last \(own)")
            #expect(participant.syncError.max < 1e-6, "seed \(seed): \(member.name) out of sync on a zero-delay link")
        }
    }

    @Test("A seek into a stitched range lands every participant on that break's start: into its own ad there, or, ad-free, in sync at it", arguments: cases)
    func seekIntoRange(seed: UInt64) throws {
        var (members, _) = try Self.scenario(seed: seed, policy: .catchUp)
        guard let originator = members.firstIndex(where: { $0.stitched?.ranges.isEmpty == false }) else { return }
        var generator = SeededGenerator(seed: seed ^ 0x5EE)
        let ranges = members[originator].stitched!.ranges
        let range = ranges[Int.random(in: 0..<ranges.count, using: &generator)]
        let target = range.start + range.duration / 2
        let position = members[originator].stitched!.primary(ofItem: target)
        members[originator].script = try SenderScript(parsing: "at 5 seek \(target)")
        let report = GroupSimulation(contentID: "c", members: members, seed: seed).run()
        for (member, participant) in zip(members, report.participants) where member.ads.breakAt(position) != nil {
            let landed = participant.suspensions.contains { $0.reason == .playingInterstitial && $0.start == 5 && abs($0.primary - position) < 1e-9 }
            #expect(landed, "seed \(seed): \(member.name) did not start its ad at \(position) after the seek to item \(target)")
        }
        for (member, participant) in zip(members, report.participants) {
            #expect(participant.syncError.max < 1e-6, "seed \(seed): \(member.name) is off the group after the seek")
        }
    }
}
