import Foundation
import TestSupport
import Testing

/// `airlabd` and `airlab simulate` drive the engine with one session driver, on a real scaled clock and
/// on a virtual one: the same cast, profile, seed and script must give the same session.
@Suite("airlabd plays a cast as airlab simulate does")
struct DaemonMatchesSimulationTests {
    static let profiles = ["apple-tv-4k", "smart-tv-low"]
    /// A pause and a play (inside the first ad on both profiles), and a forward seek across or inside the second ad.
    static let script = "at 7 pause; at 7.5 play; at 13 seek 11"
    static let seed = 3

    @Test("airlabd at --time-scale 50 and airlab simulate give the same session, entry by entry with the same latencies, for each profile")
    func sameTimelineOnBothClocks() async throws {
        try await CastFixture.with { media in
            let arguments = Self.profiles.flatMap { ["--profile", $0] } + ["--port", "0", "--time-scale", "50"]
            let played = try await withDaemon(arguments) { daemon in
                var reports: [String: [String: Any]] = [:]
                for receiver in daemon.receivers {
                    let id = try await Self.cast(media.playlist, on: receiver.port)
                    reports[receiver.profile] = try await Self.reportWhenEnded(id, on: receiver.port)
                }
                return reports
            }
            let simulated = try await BlockingWork.airlab(
                ["simulate", media.playlist] + Self.profiles.flatMap { ["--profile", $0] }
                    + ["--seed", String(Self.seed), "--do", Self.script, "--json"])
            #expect(simulated.status == 0, "stderr: \(simulated.stderr)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(simulated.stdout.utf8)) as? [String: Any])
            let sessions = try #require(document["sessions"] as? [[String: Any]])
            #expect(sessions.compactMap { $0["profile"] as? String } == Self.profiles)

            for session in sessions {
                let profile = try #require(session["profile"] as? String)
                let daemon = try #require(played[profile], "the daemon has no report for \(profile)")
                // The cast must exercise the driver: breaks, switches, a pause and a refused seek.
                let timeline = try #require(session["timeline"] as? [[String: Any]])
                #expect(timeline.contains { $0["kind"] as? String == "interstitial" }, "\(profile)")
                #expect(timeline.contains { $0["kind"] as? String == "paused" }, "\(profile)")
                #expect((session["refusals"] as? [Any])?.count == 1, "\(profile)")
                #expect((session["events"] as? [Any])?.count ?? 0 > 10, "\(profile)")
                let differences = Self.differences(Self.withoutOrigin(daemon), session, at: profile)
                #expect(differences.isEmpty, "\(profile): \(differences.prefix(10).joined(separator: "; "))")
            }
            // The profiles differ, so the comparison compares something.
            #expect(Self.differences(sessions[0]["timeline"] ?? [], sessions[1]["timeline"] ?? [], at: "profiles").isEmpty == false)
        }
    }

    /// A daemon's report without `origin`, which says how the cast reached the receiver: a simulation
    /// has no sender.
    static func withoutOrigin(_ report: Any) -> Any {
        guard var document = report as? [String: Any] else { return report }
        document.removeValue(forKey: "origin")
        return document
    }

    /// Where two JSON values differ: every number within 1 µs (of a second or a millisecond; a scaled
    /// real clock that woke late must not show at all, since the engine stamps events at their
    /// deadlines), everything else exactly: entries, kinds, event IDs, assets, reasons, latencies.
    static func differences(_ lhs: Any, _ rhs: Any, at path: String) -> [String] {
        switch (lhs, rhs) {
        case (let left as [String: Any], let right as [String: Any]):
            guard Set(left.keys) == Set(right.keys) else {
                return ["\(path): keys \(left.keys.sorted()) against \(right.keys.sorted())"]
            }
            return left.keys.sorted().flatMap { differences(left[$0]!, right[$0]!, at: "\(path).\($0)") }
        case (let left as [Any], let right as [Any]):
            guard left.count == right.count else { return ["\(path): \(left.count) items against \(right.count)"] }
            return zip(left, right).enumerated().flatMap { differences($1.0, $1.1, at: "\(path)[\($0)]") }
        case (let left as String, let right as String):
            return left == right ? [] : ["\(path): '\(left)' against '\(right)'"]
        case (let left as NSNumber, let right as NSNumber):
            return abs(left.doubleValue - right.doubleValue) <= 1e-6 ? [] : ["\(path): \(left) against \(right)"]
        default:
            return ["\(path): \(lhs) against \(rhs)"]
        }
    }

    /// A detached JSON cast with the test's seed and script; returns the session id.
    static func cast(_ url: String, on port: UInt16) async throws -> String {
        let reply = try await HTTPTestClient.send(
            port: port, "POST", "/play", json: ["url": url, "detached": true, "seed": seed, "script": script])
        try #require(reply.status == 200, "POST /play: \(reply)")
        return try #require((reply.json as? [String: Any])?["sessionID"] as? String)
    }

    /// Polls `GET /sessions/{id}` until the session has ended; returns its report. The sessions tests
    /// cast last seconds; five minutes is only there so that a session that never ends fails the test.
    static func reportWhenEnded(_ id: String, on port: UInt16) async throws -> [String: Any] {
        let patience = ContinuousClock.now + .seconds(300)
        while ContinuousClock.now < patience {
            let reply = try await HTTPTestClient.send(port: port, "GET", "/sessions/\(id)")
            if let report = reply.json as? [String: Any], report["endReason"] is String { return report }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("session \(id) did not end within 300 s")
        return [:]
    }
}
