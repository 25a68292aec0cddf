import Foundation
import HLS
@testable import Playback
@testable import Sessions
import Testing

/// Every session that fetches segments records a fetch trace as it plays, and replaying that trace
/// plays the session again: the path from a stall seen against a real origin to a deterministic
/// `airlab simulate --fetch-trace`.
@Suite("Fetch traces: recorded by sessions, replayed by simulate")
struct FetchTraceRecordingTests {
    /// Plays `plan` on a virtual clock and returns its report and its recorded trace.
    static func play(_ plan: PlaybackPlan, _ delivery: SegmentDelivery, script: String) throws -> (SessionReport, FetchTrace) {
        let clock = VirtualClock()
        let recorder = SessionRecorder(profile: "test", playlist: "test.m3u8", seed: 1, startPosition: 0)
        let session = SessionDriver(clock: clock).start(
            Simulation.setup(plan: plan, script: try SenderScript(parsing: script), recorder: recorder, delivery: delivery))
        clock.fireUntilHeld()
        #expect(!session.isActive)
        return (session.report, try #require(session.fetchTrace))
    }

    @Test("A session's recorded trace, replayed over a network a thousand times faster, gives the same timeline, events and totals: every fetch comes from the trace")
    func replayingARecordedTracePlaysTheSessionAgain() throws {
        // On 1.5 Mbit/s the 1.33 Mbit/s primary stalls; the ad's fourth segment answers 503 once and is
        // retried; the seek at 20 s cancels the fetch in flight, which the trace must not hold.
        let refused = FetchTrace(rows: [.init(uri: "https://ads.example/ad/0/3.ts", attempt: 1, status: 503, bytes: 0, firstByteSeconds: 0.02, seconds: 0.02)])
        let plan = BufferingTests.plan(ads: 1)
        let script = "at 20 seek 24"
        let (recorded, trace) = try Self.play(plan, .replayed(refused, otherwise: BufferingTests.network(1.5)), script: script)
        #expect(!BufferingTests.stalls(recorded).isEmpty && recorded.totals.segmentErrors == 1, "\(recorded.timeline)")
        let media = try #require(recorded.media)
        #expect(trace.rows.count == media.segments + recorded.totals.segmentErrors, "one row per answered fetch: \(trace.rows.count)")
        #expect(trace.rows.contains { $0.uri.hasSuffix("/ad/0/3.ts") && $0.attempt == 1 && $0.status == 503 })
        #expect(trace.rows.contains { $0.uri.hasSuffix("/ad/0/3.ts") && $0.attempt == 2 && $0.status == 200 })

        // Through JSON, as `lab run` writes it and `simulate --fetch-trace` reads it.
        let written = try JSONEncoder().encode(trace)
        let read = try FetchTrace(parsing: written)
        #expect(read == trace)
        let (replayed, again) = try Self.play(plan, .replayed(read, otherwise: BufferingTests.network(1_500)), script: script)
        #expect(replayed.timeline == recorded.timeline)
        #expect(replayed.events == recorded.events)
        #expect(replayed.totals == recorded.totals)
        #expect(again.rows == trace.rows, "a replayed session records the trace it replayed")
    }

    @Test("Failures are recorded as they happened: an HTTP status by its code, a timeout as status 0, a cut connection as status 0 with its reason")
    func failuresKeepTheirKind() {
        let segment = PlannedSegment(uri: "https://cdn.example/p/1.ts", duration: 6, bytes: 1_000)
        let fetch = SegmentFetch(id: 7, track: .primary, index: 1, segment: segment, attempt: 2, requestedAt: 10, timeout: 20)
        let status = FetchTrace.Row(recording: fetch, .failed(.status(503), at: 10.25))
        #expect(status.status == 503 && status.attempt == 2 && abs(status.seconds - 0.25) < 1e-9 && status.failure == nil)
        let timeout = FetchTrace.Row(recording: fetch, .failed(.timeout, at: 30))
        #expect(timeout.status == 0 && timeout.failure == nil && abs(timeout.seconds - 20) < 1e-9)
        let cut = FetchTrace.Row(recording: fetch, .failed(.transport("the body ended after 12 of 1000 bytes"), at: 11))
        #expect(cut.status == 0 && cut.failure == "the body ended after 12 of 1000 bytes")
        let trace = FetchTrace(rows: [cut])
        var retry = fetch
        retry.requestedAt = 50
        #expect(trace.outcome(of: retry) == .failed(.transport("the body ended after 12 of 1000 bytes"), at: 51))
        let loaded = FetchTrace.Row(recording: fetch, .loaded(FetchTiming(requestedAt: 10, firstByteAt: 10.1, completedAt: 12, bytes: 1_000, source: "measured")))
        #expect(loaded.status == 200 && loaded.bytes == 1_000 && abs(loaded.firstByteSeconds - 0.1) < 1e-9 && abs(loaded.seconds - 2) < 1e-9)
    }

    @Test("A trace file's failure reason is bounded like every other field")
    func failureReasonsAreBounded() {
        let long = String(repeating: "x", count: 5_000)
        let json = #"{"rows": [{"uri": "a.ts", "attempt": 1, "status": 0, "bytes": 0, "firstByteSeconds": 0, "seconds": 1, "failure": "\#(long)"}]}"#
        #expect(throws: FetchTrace.Failure.self) { try FetchTrace(parsing: Data(json.utf8)) }
        let negative = #"{"rows": [], "unrecorded": -1}"#
        #expect(throws: FetchTrace.Failure.self) { try FetchTrace(parsing: Data(negative.utf8)) }
    }
}
