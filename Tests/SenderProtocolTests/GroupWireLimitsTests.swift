import Coordination
import Foundation
@testable import SenderProtocol
import Testing

/// The bounds a group's host puts on what a join declares, and the small view an input is answered
/// with, as both ends read them.
@Suite("Group wire limits")
struct GroupWireLimitsTests {
    static func plan(_ count: Int, id: (Int) -> String = { "b\($0)" }) -> GroupAdPlan {
        GroupAdPlan(breaks: (0..<count).map { GroupAdPlan.Break(id: id($0), position: Double($0) * 10, adSeconds: 5, resumeOffset: 0) })
    }

    static func join(_ ads: GroupAdPlan) -> GroupInputMessage {
        var join = GroupInputMessage(participant: "A", op: .join)
        join.ads = ads
        return join
    }

    @Test("A join declaring up to 1,000 breaks is taken; one more is refused with 413 naming the limit and the count")
    func breakLimit() throws {
        let limit = GroupInputMessage.maximumBreaks
        #expect(limit == 1_000)
        _ = try Self.join(Self.plan(limit)).input(defaultPolicy: .catchUp)
        #expect(throws: GroupInputMessage.Failure.self) { try Self.join(Self.plan(limit + 1)).input(defaultPolicy: .catchUp) }
        do {
            _ = try Self.join(Self.plan(limit + 1)).input(defaultPolicy: .catchUp)
        } catch {
            #expect(error.status == 413 && error.reason.contains("1001") && error.reason.contains("1000"), "\(error)")
        }
    }

    @Test("A declared break's id longer than 256 bytes is refused with 413 naming its length")
    func breakIDLimit() {
        do {
            _ = try Self.join(Self.plan(1) { _ in String(repeating: "i", count: 257) }).input(defaultPolicy: .catchUp)
            Issue.record("a 257-byte id was taken")
        } catch {
            #expect(error.status == 413 && error.reason.contains("257"), "\(error)")
        }
    }

    @Test("An input's answer shows the caller's state and counts, not the participants' plans, and reads back as written")
    func standingLeavesPlansOut() throws {
        var coordinator = GroupCoordinator(contentID: "show")
        _ = coordinator.handle(.join("A", policy: .catchUp, ads: .adFree), at: 0)
        _ = coordinator.handle(.join("B", policy: .catchUp, ads: Self.plan(1_000)), at: 1)
        _ = coordinator.handle(.leave("B"), at: 2)
        let standing = GroupStanding(id: "g", coordinator: coordinator, groupTime: 3, caller: "A")
        #expect(standing.participant == "A" && standing.follow == .following && standing.suspensions == [])
        #expect(standing.participants == 2 && standing.active == 1 && standing.path == "/groups/g")
        let bytes = WireJSON.data(standing)
        #expect(bytes.count < 1024 && !String(decoding: bytes, as: UTF8.self).contains("b999"))
        #expect(try WireJSON.decoder.decode(GroupStanding.self, from: bytes) == standing)
        let observer = GroupStanding(id: "g", coordinator: coordinator, groupTime: 3)
        #expect(observer.participant == nil && observer.follow == nil)
    }
}
