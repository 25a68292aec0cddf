import Foundation
import Testing
import TestSupport

@Suite("airlab validate, run as a user runs it")
struct ValidateCommandTests {
    private func playlist(_ fixture: SegmentFixture) async throws -> String {
        try await fixture.folder().appendingPathComponent("index.m3u8").path
    }

    @Test("A clean stream exits 0 and says it found nothing")
    func clean() async throws {
        let result = try await BlockingWork.airlab(["validate", try await playlist(.clean)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("no findings") && result.stdout.contains("0 error(s), 0 warning(s)"), "\(result.stdout)")
    }

    @Test("A stream with an error exits 1 and names the code, the measured and the allowed value, and the rule")
    func errors() async throws {
        let result = try await BlockingWork.airlab(["validate", try await playlist(.gap)])
        #expect(result.status == 1)
        #expect(result.stdout.contains("error SEG-TS-GAP segment 3 (discontinuity 0)"), "\(result.stdout)")
        #expect(result.stdout.contains("measured 0.05 s; allowed ≤ 0.033 s (1 frame); HLS Authoring Spec 7.1–7.3"), "\(result.stdout)")
    }

    @Test("Warnings alone exit 0")
    func warningsOnly() async throws {
        let result = try await BlockingWork.airlab(["validate", try await playlist(.sparseIDR)])
        #expect(result.status == 0)
        #expect(result.stdout.contains("warning SEG-IDR-INTERVAL"))
    }

    @Test("--json prints the report as JSON with every diagnostic's fields")
    func json() async throws {
        let result = try await BlockingWork.airlab(["validate", try await playlist(.continuityBreak), "--json"])
        #expect(result.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let diagnostics = object?["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.map { $0["code"] as? String } == ["SEG-TS-CC"])
        let first = diagnostics.first ?? [:]
        for key in ["severity", "url", "mediaSequence", "discontinuitySequence", "role", "measured", "allowed", "rule", "message"] {
            #expect(first[key] != nil, "\(key) in \(first)")
        }
        #expect(first["role"] as? String == "primary")
    }

    @Test("--junit writes a case per role and check family, the failing family failed")
    func junit() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = scratch.url.appendingPathComponent("validate.xml")
        let result = try await BlockingWork.airlab(["validate", try await playlist(.noIDR), "--junit", file.path])
        #expect(result.status == 1)
        let xml = try String(contentsOf: file, encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"primary\" tests=\"20\" failures=\"1\""), "\(xml)")
        #expect(xml.contains("name=\"SEG-IDR\" time=\"0\">\n      <failure message="), "\(xml)")
    }

    @Test("Over HTTP, a segment answered 404 is SEG-HTTP with the status; an unreadable playlist exits 2 naming it")
    func http() async throws {
        let folder = try await SegmentFixture.missingSegment.folder()
        let server = try await BlockingWork.server(serving: folder)
        defer { server.stop() }
        let result = try await BlockingWork.airlab(["validate", server.url("index.m3u8").absoluteString, "--json"])
        #expect(result.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let diagnostics = object?["diagnostics"] as? [[String: Any]] ?? []
        let http = diagnostics.filter { $0["code"] as? String == "SEG-HTTP" }
        #expect(http.count == 1 && http.first?["measured"] as? String == "HTTP 404", "\(diagnostics)")
        #expect(diagnostics.allSatisfy { ["SEG-HTTP", "SEG-MIME"].contains($0["code"] as? String ?? "") }, "\(diagnostics)")

        let missing = try await BlockingWork.airlab(["validate", server.url("nothing.m3u8").absoluteString])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nothing.m3u8") && missing.stderr.contains("404"), "\(missing.stderr)")
    }

    @Test("--variant and --profile together are a usage error")
    func usage() async throws {
        let result = try await BlockingWork.airlab(["validate", "x.m3u8", "--variant", "0", "--profile", "apple-tv-4k"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("give --variant or --profile, not both"))
    }
}
