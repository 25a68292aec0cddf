import Foundation
import TestSupport
import Testing

/// One receiver of a fleet in one `airlabd` under a group attack, its neighbour casting as usual.
/// The rules are asserted, not durations: slow listeners are dropped and counted, answers stay small
/// whatever the other participants declared, plans past their bounds are refused, and the neighbour's
/// routes answer while its session's events arrive complete and in order. (How fast the neighbour
/// answers meanwhile is measured by `make bench`'s `isolation`, not asserted.)
@Suite("A receiver's group traffic does not stall its neighbours", .serialized, .ownThread)
struct GroupIsolationTests {
    static let fleet = ["--profile", "apple-tv-4k*2", "--port", "0", "--time-scale", "4"]
    static let stalledListeners = 200

    @Test("Relayed 64 KiB messages to 200 listeners that never read drop every one of them, counted in /metrics and closed, while the neighbour casts with its events in order and answers /play, /groups and /playback-info")
    func relayedMessagesToStalledListeners() async throws {
        _ = OpenFileLimit.raiseToHard()
        try await CastFixture.with { media in
            try await withDaemon(Self.fleet) { daemon in
                let (victim, neighbour) = (daemon.receivers[0].port, daemon.receivers[1].port)
                let reply = try await HTTPTestClient.send(port: victim, "POST", "/groups", json: ["id": "g", "contentID": "show"])
                try #require(reply.status == 201, "\(reply)")
                let stalled = try await BlockingWork.run {
                    try (0..<Self.stalledListeners).map { _ in
                        // A small window: what the kernels hold for a listener that never reads stays far below its queue's limit.
                        let socket = try RawSocket(port: victim, receiveBuffer: 4096)
                        try socket.send("GET /groups/g/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                        return socket
                    }
                }
                defer { stalled.forEach { $0.close() } }

                async let attack = Self.relayUntilDropped(port: victim, listeners: Self.stalledListeners)
                try await NeighbourCast.playsNormally(port: neighbour, media: media, simulated: try await NeighbourCast.simulated(media, profile: "apple-tv-4k"))
                let dropped = try await attack
                #expect(dropped == Self.stalledListeners, "listeners dropped for falling behind")
                let closed = try await BlockingWork.run {
                    stalled.map { socket in
                        _ = socket.readToEnd()
                        return socket.peerClosed()
                    }
                }
                #expect(closed.allSatisfy { $0 }, "\(closed.count { !$0 }) dropped listeners' connections are still open")
                // The attacked receiver itself still answers.
                #expect(try await HTTPTestClient.send(port: victim, "GET", "/groups").status == 200)
            }
        }
    }

    @Test("Joins with the largest plans fill a group's budget and no more: past 1,000 breaks a participant, or 16,384 a group, a join is refused with 413 naming the limit and the count; every input's answer stays small and free of plans; the neighbour casts with its events in order")
    func joinsWithHugePlans() async throws {
        try await CastFixture.with { media in
            try await withDaemon(Self.fleet) { daemon in
                let (victim, neighbour) = (daemon.receivers[0].port, daemon.receivers[1].port)
                let reply = try await HTTPTestClient.send(port: victim, "POST", "/groups", json: ["id": "g", "contentID": "show"])
                try #require(reply.status == 201, "\(reply)")
                async let attack = Self.joinWithHugePlans(port: victim)
                try await NeighbourCast.playsNormally(port: neighbour, media: media, simulated: try await NeighbourCast.simulated(media, profile: "apple-tv-4k"))
                try await attack
            }
        }
    }

    // MARK: - The attacks

    /// Posts 64 KiB messages, three at a time, until the receiver's metrics count `listeners` dropped
    /// (each needs at most its 1 MiB queue plus what the kernels hold; 200 rounds are far more);
    /// returns the count.
    static func relayUntilDropped(port: UInt16, listeners: Int) async throws -> Int {
        let padding = String(repeating: "x", count: 64 * 1024 - 32)
        let message = Data("{\"note\": \"\(padding)\"}".utf8)
        try #require(message.count <= 64 * 1024)
        var dropped = 0
        for _ in 0..<200 where dropped < listeners {
            async let first = HTTPTestClient.send(port: port, "POST", "/groups/g/messages", headers: ["Content-Type": "application/json"], body: message)
            async let second = HTTPTestClient.send(port: port, "POST", "/groups/g/messages", headers: ["Content-Type": "application/json"], body: message)
            async let third = HTTPTestClient.send(port: port, "POST", "/groups/g/messages", headers: ["Content-Type": "application/json"], body: message)
            for answer in try await [first, second, third] { #expect(answer.status == 202, "\(answer)") }
            dropped = try await droppedListeners(port: port)
        }
        return dropped
    }

    static func droppedListeners(port: UInt16) async throws -> Int {
        let metrics = try await HTTPTestClient.send(port: port, "GET", "/metrics").text
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("airlab_group_listeners_dropped_total ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
    }

    /// A participant's plan of `count` breaks, ten seconds apart.
    static func plan(_ count: Int) -> [String: Any] {
        ["breaks": (0..<count).map { ["id": "break-\($0)", "position": Double($0) * 10, "adSeconds": 5.0, "resumeOffset": 0.0] }]
    }

    static func joinWithHugePlans(port: UInt16) async throws {
        func input(_ body: [String: Any]) async throws -> HTTPReply {
            try await HTTPTestClient.send(port: port, "POST", "/groups/g/inputs", json: body)
        }
        let first = try await input(["participant": "p0", "op": "join"])
        try #require(first.status == 200, "\(first)")
        let limit = 1_000
        for index in 1...16 {
            let joined = try await input(["participant": "p\(index)", "op": "join", "ads": plan(limit)])
            #expect(joined.status == 200, "\(joined)")
        }
        let later = try await input(["participant": "p0", "op": "pause", "primary": 0])
        try #require(later.status == 200, "\(later)")
        for answer in [first, later] {
            let shown = try #require(answer.json as? [String: Any])
            #expect(shown["participant"] as? String == "p0" && shown["ads"] == nil, "\(answer)")
            #expect(answer.body.count < 1024, "an input's answer is \(answer.body.count) bytes")
        }
        #expect((later.json as? [String: Any])?["participants"] as? Int == 17)
        #expect(Set(((first.json as? [String: Any]) ?? [:]).keys) == Set(((later.json as? [String: Any]) ?? [:]).keys))

        let tooMany = try await input(["participant": "big", "op": "join", "ads": plan(limit + 1)])
        #expect(tooMany.status == 413 && tooMany.text.contains("1001") && tooMany.text.contains("1000"), "\(tooMany)")
        let overBudget = try await input(["participant": "p17", "op": "join", "ads": plan(limit)])
        #expect(overBudget.status == 413 && overBudget.text.contains("16000") && overBudget.text.contains("16384"), "\(overBudget)")

        let whole = try #require(try await HTTPTestClient.send(port: port, "GET", "/groups/g").json as? [String: Any])
        let members = whole["participants"] as? [[String: Any]] ?? []
        let declared = members.map { (($0["ads"] as? [String: Any])?["breaks"] as? [Any])?.count ?? 0 }.reduce(0, +)
        #expect(members.count == 17 && declared == 16 * limit)
        let listing = try await HTTPTestClient.send(port: port, "GET", "/groups")
        #expect(listing.status == 200 && !listing.text.contains("\"ads\"") && listing.body.count < 1024, "\(listing)")
    }
}
