import Foundation
import TestSupport
import Testing

/// The receiver beside one under attack, in the same `airlabd`: it casts `CastFixture`'s stream with a
/// fixed seed and is heard from the cast's start to its end. Its routes answer, its events arrive whole
/// and in order, and its session is the one `airlab simulate` gives for the same cast: an attack on a
/// neighbour may cost it time, never a different session.
enum NeighbourCast {
    static let seed = 7

    /// `airlab simulate`'s session of the fixture's cast on `profile` with `seed`: what a neighbour must play.
    static func simulated(_ media: CastFixture, profile: String) async throws -> [String: Any] {
        let run = try await BlockingWork.airlab(["simulate", media.playlist, "--profile", profile, "--seed", String(seed), "--json"])
        try #require(run.status == 0, "airlab simulate: \(run.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return try #require((document?["sessions"] as? [[String: Any]])?.first, "airlab simulate gave no session: \(run.stdout.prefix(300))")
    }

    /// Casts on `port`, checks `/groups` and `/playback-info` answer while it plays, and the events
    /// and the report once it ends; compares the report with `simulated` when given.
    static func playsNormally(port: UInt16, media: CastFixture, simulated: [String: Any]? = nil) async throws {
        let stream = try await EventStreamListener.connect(port: port)
        let cast = try await HTTPTestClient.send(port: port, "POST", "/play", json: ["url": media.playlist, "detached": true, "seed": seed])
        try #require(cast.status == 200, "\(cast)")
        let id = try #require((cast.json as? [String: Any])?["sessionID"] as? String, "\(cast)")
        let groups = try await HTTPTestClient.send(port: port, "GET", "/groups")
        #expect(groups.status == 200 && (groups.json as? [String: Any])?["groups"] as? [Any] != nil, "\(groups)")
        #expect(try await HTTPTestClient.send(port: port, "GET", "/playback-info").status == 200)

        // The greeting (the idle state, before the cast) may or may not be among them: keep the session's own.
        let events = try await stream.eventsUntilEnded().filter { $0["session"] as? String == id }
        let kinds = events.map { $0["kind"] as? String ?? "?" }
        #expect(kinds.first == "state-changed" && kinds.last == "ended", "\(kinds)")
        let started = events.filter { $0["kind"] as? String == "interstitial-started" }.compactMap { $0["eventID"] as? String }
        #expect(started == ["ad-matching", "ad-mismatching"])
        let times = events.compactMap { $0["time"] as? Double }
        #expect(times == times.sorted())

        guard let simulated else { return }
        let played = try await DaemonMatchesSimulationTests.reportWhenEnded(id, on: port)
        let differences = DaemonMatchesSimulationTests.differences(
            DaemonMatchesSimulationTests.withoutOrigin(played), simulated, at: "neighbour")
        #expect(differences.isEmpty, "\(differences.prefix(10).joined(separator: "; "))")
        // The streamed events are the report's, one for one.
        #expect(kinds == (played["events"] as? [[String: Any]] ?? []).map { $0["kind"] as? String ?? "?" })
    }
}
