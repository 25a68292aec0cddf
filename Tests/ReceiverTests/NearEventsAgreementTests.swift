import Foundation
import TestSupport
import Testing

/// Two interstitials 0.4 ms apart with X-RESUME-OFFSET=0 are one group everywhere: in the schedule
/// `airlab playlist inspect` prints, in the timeline `airlab simulate` plays, and in the session the
/// real `airlabd` plays. None shows a zero-length primary between them, and the low-end TV switches
/// three times (into the first, into the second, back to primary), not four.
@Suite("Near-coincident events agree across inspect, simulate and airlabd")
struct NearEventsAgreementTests {
    /// The ad-supported stream's 12 s primary with the matching ad twice, at 4 s and 4.0004 s.
    static func writeNearPlaylist(in scratch: Scratch, assetBase: String) throws -> String {
        let index = try String(contentsOf: scratch.url.appendingPathComponent("primary/index.m3u8"), encoding: .utf8)
        let segments = index.split(separator: "\n").drop { !$0.hasPrefix("#EXTINF") }.filter { $0 != "#EXT-X-ENDLIST" }
            .map { $0.hasPrefix("#") ? String($0) : "primary/\($0)" }
        func event(_ id: String, at date: String) -> String {
            #"#EXT-X-DATERANGE:ID="\#(id)",CLASS="com.apple.hls.interstitial",START-DATE="\#(date)",X-ASSET-URI="\#(assetBase)ad1/index.m3u8",X-RESUME-OFFSET=0"#
        }
        let lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD",
            "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z",
            event("near-1", at: "2026-01-01T00:00:04.000Z"), event("near-2", at: "2026-01-01T00:00:04.0004Z")]
            + segments + ["#EXT-X-ENDLIST", ""]
        try scratch.write("near.m3u8", lines.joined(separator: "\n"))
        return "near.m3u8"
    }

    /// The timeline of a session report as "P0-4", "T", "I:near-1", …, without loading.
    static func shape(_ timeline: [[String: Any]]) -> [String] {
        timeline.compactMap { entry in
            switch entry["kind"] as? String {
            case "primary":
                let start = (entry["positionStart"] as? Double) ?? -1
                let end = (entry["positionEnd"] as? Double) ?? -1
                return "P\(Int(start.rounded()))-\(Int(end.rounded()))"
            case "interstitial": return "I:\(entry["eventID"] as? String ?? "?")"
            case "transition": return "T"
            default: return nil
            }
        }
    }

    static let expected = ["P0-4", "T", "I:near-1", "T", "I:near-2", "T", "P4-12"]

    @Test("inspect, simulate and airlabd all play the two events as one group with three switches")
    func oneGroupEverywhere() async throws {
        let scratch = try await AdSupportedStream.stage()
        defer { scratch.remove() }
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }
        let url = server.url(try Self.writeNearPlaylist(in: scratch, assetBase: server.baseURL.absoluteString)).absoluteString

        // The schedule.
        let inspected = try await BlockingWork.airlab(["playlist", "inspect", url, "--json"])
        #expect(inspected.status == 0, "stderr: \(inspected.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any])
        let schedule = try #require(report["schedule"] as? [[String: Any]])
        let scheduled = schedule.map { entry in
            entry["type"] as? String == "primary"
                ? "P\(Int(((entry["start"] as? Double) ?? -1).rounded()))-\(Int(((entry["end"] as? Double) ?? -1).rounded()))"
                : "I:\(entry["eventID"] as? String ?? "?")"
        }
        #expect(scheduled == ["P0-4", "I:near-1", "I:near-2", "P4-12"])
        let scheduledPrimary = schedule.filter { $0["type"] as? String == "primary" }
        #expect(scheduledPrimary.allSatisfy { ($0["end"] as? Double ?? 0) - ($0["start"] as? Double ?? 0) > 0.001 })

        // The simulation.
        let simulated = try await BlockingWork.airlab(["simulate", url, "--profile", "smart-tv-low", "--seed", "5", "--json"])
        #expect(simulated.status == 0, "stderr: \(simulated.stderr)")
        let simulation = try #require(try JSONSerialization.jsonObject(with: Data(simulated.stdout.utf8)) as? [String: Any])
        let session = try #require((simulation["sessions"] as? [[String: Any]])?.first)
        #expect(Self.shape(session["timeline"] as? [[String: Any]] ?? []) == Self.expected)
        #expect((session["totals"] as? [String: Any])?["transitions"] as? Int == 3)

        // The real daemon, sped up.
        try await withDaemon(["--profile", "smart-tv-low", "--port", "0", "--time-scale", "40", "--seed", "5"]) { daemon in
            let id = try await daemon.cast(url)
            let played = try await daemon.reportWhenEnded(id)
            #expect(Self.shape(played["timeline"] as? [[String: Any]] ?? []) == Self.expected)
            #expect((played["totals"] as? [String: Any])?["transitions"] as? Int == 3)
            let primaries = (played["timeline"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "primary" }
            #expect(primaries.allSatisfy { ($0["positionEnd"] as? Double ?? 0) - ($0["positionStart"] as? Double ?? 0) > 0.001 })
        }
    }
}
