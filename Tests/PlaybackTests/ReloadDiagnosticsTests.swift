import HLS
import Sessions
import Testing

/// A live session's report takes each reload's diagnostics once, and a capped code keeps one summary.
@Suite("Diagnostics of live reloads in the session report")
struct ReloadDiagnosticsTests {
    /// What one reload of a playlist whose every segment has a zoneless date reports: five in full, then the count.
    static func reload(zoneless count: Int) -> [Diagnostic] {
        var log = DiagnosticLog()
        for line in 1...count { log.append(.warning, line: line, .dateWithoutTimeZone, "line \(line) has no time zone") }
        return log.diagnostics
    }

    @Test("Each reload's summary of a capped code replaces the one before it, and diagnostics seen before are not added again")
    func summariesReplaceEachOther() {
        var recorder = SessionRecorder(profile: "test", playlist: "live.m3u8", seed: 1, startPosition: 0)
        recorder.add(Self.reload(zoneless: 20))
        recorder.add(Self.reload(zoneless: 30))
        let diagnostics = recorder.finish(at: 0).diagnostics
        #expect(diagnostics.filter { $0.suppressed == nil }.count == DiagnosticLog.limitPerCode)
        #expect(diagnostics.compactMap(\.suppressed) == [25])
    }
}
