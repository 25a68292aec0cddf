import Foundation
import Testing
@testable import HLS

/// Repeated diagnostics of one kind are kept in full up to a cap and counted after it, and the count
/// is a diagnostic of its own, so a playlist of millions of faults costs what its segments cost.
@Suite("Diagnostics capped per code, counted after the cap")
struct DiagnosticLogTests {
    /// A VOD of `count` 7-second segments under a target duration of 6: every segment exceeds it.
    static func overlongSegments(_ count: Int) -> String {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n"
        text.reserveCapacity(count * 20)
        for index in 0..<count { text += "#EXTINF:7,\ns\(index).ts\n" }
        return text + "#EXT-X-ENDLIST\n"
    }

    @Test("A playlist of 100,000 segments that each exceed the target duration keeps five warnings and one summary counting the other 99,995")
    func hundredThousandOverlongSegments() throws {
        let (playlist, diagnostics) = try mediaPlaylist(Self.overlongSegments(100_000))
        #expect(playlist.segments.count == 100_000)
        let exceeding = diagnostics.filter { $0.code == .segmentExceedsTargetDuration }
        #expect(exceeding.count == DiagnosticLog.limitPerCode + 1)
        let listed = exceeding.filter { $0.suppressed == nil }
        #expect(listed.map(\.line) == [3, 5, 7, 9, 11])
        let summary = try #require(exceeding.last)
        #expect(summary.suppressed == 99_995)
        #expect(summary.severity == .warning && summary.line == 13)
        #expect(summary.message.contains("99995 more like this"))
        #expect(summary.message.contains("the first of them on line 13"))
        #expect(diagnostics.count == exceeding.count)
    }

    @Test("Past the cap a message is never built: the log counts without evaluating it")
    func messagesPastTheCapAreNotBuilt() {
        var log = DiagnosticLog()
        var built = 0
        func message() -> String {
            built += 1
            return "segment"
        }
        for line in 1...10_000 {
            log.append(.warning, line: line, .segmentExceedsTargetDuration, message())
        }
        log.append(.error, line: 1, .tagMalformed, "other")
        #expect(built == DiagnosticLog.limitPerCode)
        #expect(log.diagnostics.map(\.code) == Array(repeating: .segmentExceedsTargetDuration, count: 5) + [.tagMalformed, .segmentExceedsTargetDuration])
        #expect(log.diagnostics.last?.suppressed == 9_995)
    }

    @Test("Logs put together cap a code once, and a summary adds its count to the new one")
    func mergedLogsCapOnce() {
        var first = DiagnosticLog()
        var second = DiagnosticLog()
        for line in 1...8 {
            first.append(.warning, line: line, .dateWithoutTimeZone, "first")
            second.append(.error, line: 100 + line, .dateWithoutTimeZone, "second")
        }
        let merged = DiagnosticLog(first.diagnostics + second.diagnostics).diagnostics
        #expect(merged.filter { $0.suppressed == nil }.map(\.line) == [1, 2, 3, 4, 5])
        let summary = merged.last
        #expect(merged.count == 6)
        #expect(summary?.suppressed == 11)
        // The summary carries the most severe of what it counts.
        #expect(summary?.severity == .error)
    }

    @Test("A summary's count survives a JSON round trip, and a plain diagnostic has no suppressed key")
    func suppressedIsCoded() throws {
        var log = DiagnosticLog()
        for line in 1...7 { log.append(.info, line: line, .interstitialPlaysAgain, "again") }
        let encoded = try JSONEncoder().encode(log.diagnostics)
        let decoded = try JSONDecoder().decode([Diagnostic].self, from: encoded)
        #expect(decoded == log.diagnostics)
        let plain = String(decoding: try JSONEncoder().encode(log.diagnostics[0]), as: UTF8.self)
        #expect(!plain.contains("suppressed"))
    }
}
