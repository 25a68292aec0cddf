import Foundation
import TestSupport
import Testing

/// `airlab profile list|show|diff` on the shipped profiles, as a user runs them.
@Suite("airlab profile")
struct ProfileCommandTests {
    func json(_ result: CommandResult) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    @Test("list names every shipped profile with its version and its numbers by basis, in text and JSON")
    func list() async throws {
        let text = try await BlockingWork.airlab(["profile", "list"])
        #expect(text.status == 0, "stderr: \(text.stderr)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("NAME") == true && lines.first?.contains("ASSUMED") == true)
        let version = try ShippedProfiles.version("apple-tv-4k")
        #expect(lines.contains { $0.hasPrefix("apple-tv-4k ") && $0.contains(" \(version) ") })
        #expect(lines.contains { $0.hasPrefix("samsung-tizen-tv ") })
        #expect(lines.count == 15)

        let listed = try #require(try json(try await BlockingWork.airlab(["profile", "list", "--json"])) as? [[String: Any]])
        #expect(listed.count == 14)
        let roku = try #require(listed.first { $0["name"] as? String == "roku-airplay" })
        let rokuVersion = try ShippedProfiles.version("roku-airplay")
        #expect(roku["version"] as? String == rokuVersion)
        let numbers = try #require(roku["numbers"] as? [String: Int])
        #expect((numbers["assumed"] ?? 0) > 0 && numbers.keys.sorted() == ["assumed", "derived", "measured", "published"])
    }

    @Test("show prints each value with its basis and source, in text and JSON")
    func show() async throws {
        let text = try await BlockingWork.airlab(["profile", "show", "sony-bravia-android-tv"])
        #expect(text.status == 0, "stderr: \(text.stderr)")
        let sonyVersion = try ShippedProfiles.version("sony-bravia-android-tv")
        #expect(text.stdout.hasPrefix("sony-bravia-android-tv version \(sonyVersion): Sony Bravia"))
        #expect(text.stdout.contains("  transitions.resolution.p50Milliseconds = 250\n  transitions.resolution.p95Milliseconds = 400\n    derived: "))
        #expect(text.stdout.contains("androidx/media#2035"))

        let sheet = try #require(try json(try await BlockingWork.airlab(["profile", "show", "smart-tv-low", "--json"])) as? [String: Any])
        let lowVersion = try ShippedProfiles.version("smart-tv-low")
        #expect(sheet["name"] as? String == "smart-tv-low" && sheet["version"] as? String == lowVersion)
        let values = try #require(sheet["values"] as? [[String: Any]])
        let splice = try #require(values.first { $0["key"] as? String == "transitions.splice.p50Milliseconds" })
        #expect(splice["value"] as? Double == 250 && splice["basis"] as? String == "assumed" && splice["path"] as? String == "$.transitions.splice.p50Milliseconds")
        #expect((splice["source"] as? String)?.isEmpty == false)
        #expect(values.filter { $0["isNumber"] as? Bool == true }.allSatisfy { $0["basis"] != nil && $0["source"] != nil })
    }

    @Test("diff compares two profiles number by number, a shipped name against a file path, in text and JSON, and exits 0")
    func diff() async throws {
        let text = try await BlockingWork.airlab(["profile", "diff", "apple-tv-4k", "smart-tv-low"])
        #expect(text.status == 0, "stderr: \(text.stderr)")
        let appleTVVersion = try ShippedProfiles.version("apple-tv-4k")
        #expect(text.stdout.hasPrefix("A: apple-tv-4k version \(appleTVVersion): "))
        let width = try #require(text.stdout.split(separator: "\n").first { $0.hasPrefix("video.codecs[h264].maxWidth ") })
        #expect(width.split(separator: " ", omittingEmptySubsequences: true) == ["video.codecs[h264].maxWidth", "3840", "1920", "-1920", "derived", "derived"])
        #expect(text.stdout.contains(" values differ ("))

        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = scratch.url.appendingPathComponent("my-tv.json")
        try Data(contentsOf: ShippedProfiles.directory.appendingPathComponent("smart-tv-low.json")).write(to: file)
        let comparison = try #require(try json(try await BlockingWork.airlab(["profile", "diff", "smart-tv-low", file.path, "--json"])) as? [String: Any])
        let rows = try #require(comparison["rows"] as? [[String: Any]])
        #expect(!rows.isEmpty && rows.allSatisfy { $0["a"] as? NSObject == $0["b"] as? NSObject })
        #expect((comparison["b"] as? [String: Any])?["name"] as? String == "smart-tv-low")
    }

    @Test("An unknown profile or a file without provenance is an error naming it, the path and the reason, exit 2")
    func refusals() async throws {
        let unknown = try await BlockingWork.airlab(["profile", "show", "toaster"])
        #expect(unknown.status == 2 && unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains("airlab profile show: toaster: $: no shipped profile has this name"))

        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = scratch.url.appendingPathComponent("old-tv.json")
        let original = try String(contentsOf: ShippedProfiles.directory.appendingPathComponent("smart-tv-low.json"), encoding: .utf8)
        try original.replacingOccurrences(of: "\"basis\": \"assumed\"", with: "\"note\": \"none\"").write(to: file, atomically: true, encoding: .utf8)
        let refused = try await BlockingWork.airlab(["profile", "diff", "smart-tv-low", file.path])
        #expect(refused.status == 2)
        #expect(
            refused.stderr.contains("airlab profile diff: \(file.path): $.airplay: the required member \"basis\" is missing: every number needs"),
            "stderr: \(refused.stderr)")

        let missing = try await BlockingWork.airlab(["profile", "diff", "smart-tv-low"])
        #expect(missing.status == 2)
    }
}
