import Foundation
import TestSupport
import Testing

/// A fleet's threads do not grow with its receivers: every receiver's HTTP server runs on the process's
/// shared loop, with one sweeper for all of them, and every realtime fetch on the one transfer loop.
/// Before the shared loop, 1,000 receivers took 2,005 threads: a polling thread and a sweeper each.
@Suite("A fleet's threads", .serialized, .ownThread)
struct FleetThreadsTests {
    static let receivers = 1_000

    @Test("An airlabd of 1,000 receivers, two of them playing realtime from an origin in a group one of them hosts, runs on fewer than 100 threads: at most four loop threads, one sweeper, one transfer loop")
    func threadsOfAThousandReceivers() async throws {
        try await RealtimeOriginTests.withOrigin(plan: #"{"rules": []}"#) { origin in
            let fleet = ["--profile", "apple-tv-4k*\(Self.receivers)", "--port", "0", "--time-scale", "2", "--media", "realtime"]
            try await withDaemon(fleet) { daemon in
                try #require(daemon.receivers.count == Self.receivers)
                let (host, member) = (daemon.receivers[0].port, daemon.receivers[Self.receivers - 1].port)
                let created = try await HTTPTestClient.send(port: host, "POST", "/groups", json: ["id": "g1", "contentID": "show"])
                try #require(created.status == 201, "\(created)")
                for (port, participant) in [(host, "A"), (member, "B")] {
                    let membership = ["url": "http://127.0.0.1:\(host)/groups/g1", "participant": participant, "contentID": "show"]
                    let joined = try await HTTPTestClient.send(
                        port: port, "POST", "/play", json: ["url": origin.baseURL + "/show.m3u8", "detached": true, "group": membership])
                    try #require(joined.status == 200, "\(joined)")
                }
                // Both receivers fetch their own segments once they play.
                var fetchers: Set<String> = []
                for _ in 0..<1_500 where fetchers.count < 2 {
                    fetchers = Set(origin.log.rows.compactMap { $0.path.hasSuffix(".ts") ? $0.client : nil })
                    try await Task.sleep(for: .milliseconds(20))
                }
                try #require(fetchers.count == 2, "receivers fetching from the origin: \(fetchers)")

                let names = try Self.threadNames(of: daemon.process.pid)
                #expect(names.count < 100, "\(names.count) threads: \(Self.tally(names))")
                #expect(names.filter { $0.hasPrefix("airlab.loop.") }.count <= 4, "\(Self.tally(names))")
                #expect(names.filter { $0 == "airlab.sweep" }.count == 1, "\(Self.tally(names))")
                #expect(names.filter { $0 == "airlab.curl" }.count == 1, "\(Self.tally(names))")
            }
        }
    }

    /// Each thread's name as the kernel keeps it (15 characters at most).
    static func threadNames(of pid: Int32) throws -> [String] {
        let tasks = URL(fileURLWithPath: "/proc/\(pid)/task")
        return try FileManager.default.contentsOfDirectory(atPath: tasks.path).compactMap { task in
            try? String(contentsOf: tasks.appendingPathComponent(task).appendingPathComponent("comm"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    static func tally(_ names: [String]) -> [String: Int] {
        names.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }
}
