import HLS
@testable import Playback
@testable import Profiles
@testable import Sessions
import TestSupport
import Testing

/// Random plans, networks, failures and senders: whatever the fetches do, a session that fetches
/// segments never wedges, never plays primary time twice without a seek, and counts its stalls.
@Suite("Buffering properties", .ownThread)
struct BufferingPropertyTests {
    static let cases = 600

    @Test("Over random segment lists, failures and sender commands every session ends, its timeline runs forward, and stall totals match the stall entries")
    func randomSessionsEnd() async throws {
        for seed in 1...UInt64(Self.cases) {
            // Seconds of work in all: other tests get the pool's threads between cases.
            await Task.yield()
            let scenario = Self.scenario(seed)
            let report = try BufferingTests.run(scenario.plan, scenario.delivery, script: scenario.script)
            #expect(report.endReason != nil, "seed \(seed): the session did not end")
            #expect(report.totals.sessionSeconds < 86_400, "seed \(seed): the session ran to the horizon")
            var clock = 0.0
            for entry in report.timeline {
                #expect(entry.start >= clock - 1e-9 && entry.end >= entry.start - 1e-9, "seed \(seed): \(entry) runs backwards")
                clock = entry.end
            }
            let stalls = report.timeline.filter { $0.kind == .stall }
            #expect(report.totals.stalls == stalls.count, "seed \(seed)")
            #expect(abs(report.totals.stallSeconds - stalls.reduce(0) { $0 + $1.end - $1.start }) < 1e-6, "seed \(seed)")
            #expect(report.totals.rebufferingRatio >= 0 && report.totals.rebufferingRatio <= 1, "seed \(seed)")
        }
    }

    struct Scenario {
        var plan: PlaybackPlan
        var delivery: SegmentDelivery
        var script: String
    }

    static func scenario(_ seed: UInt64) -> Scenario {
        var random = SeededGenerator(seed: seed)
        let duration = Double(Int.random(in: 12...120, using: &random))
        var breaks: [PlannedBreak] = []
        for index in 0..<Int.random(in: 0...3, using: &random) {
            let position = Double(Int.random(in: 0...Int(duration) - 1, using: &random))
            let assets = Int.random(in: 1...3, using: &random)
            breaks.append(Engine.ad("ad\(index)", at: position, duration: Double(assets * 6), assets: assets) { event in
                for asset in event.assets.indices {
                    event.assets[asset].segments = Self.segments("ad\(index)/\(asset)", total: 6, using: &random)
                }
            })
        }
        var plan = Engine.plan(breaks, duration: duration)
        let primary = Self.segments("p", total: duration, using: &random)
        // Lower variants to fall back on, their segments cut at boundaries of their own.
        let fallbacks = (0..<Int.random(in: 0...2, using: &random)).map { rung in
            PlannedVariant(uri: "https://cdn.example/v\(rung)/index.m3u8", bitsPerSecond: Double(Int.random(in: 1...20, using: &random)) * 1e5,
                segments: Self.segments("v\(rung)", total: duration, using: &random))
        }
        var model = BufferingTests.model
        model.forwardTarget.seconds = Double(Int.random(in: 1...40, using: &random))
        model.startupBuffer.seconds = Double(Int.random(in: 0...8, using: &random))
        model.rebufferResume.seconds = Double(Int.random(in: 0...8, using: &random))
        model.retry.retries = Int.random(in: 0...3, using: &random)
        model.retry.retriesClientErrors = Bool.random(using: &random)
        plan.fetching = FetchPlan(primary: primary, buffer: model, fallbacks: fallbacks)
        var rows: [FetchTrace.Row] = []
        for segment in primary.segments + fallbacks.flatMap(\.segments.segments) + plan.breaks.flatMap({ $0.assets.flatMap(\.segments.segments) }) {
            for attempt in 1...3 where Int.random(in: 0..<6, using: &random) == 0 {
                let status = [0, 404, 500, 503, 200][Int.random(in: 0..<5, using: &random)]
                rows.append(.init(uri: segment.uri, attempt: attempt, status: status, bytes: segment.bytes,
                    firstByteSeconds: 0, seconds: Double(Int.random(in: 0...30, using: &random)) / 4))
            }
        }
        let network = SegmentNetworkModel(roundTripSeconds: 0.05, bitsPerSecond: Double(Int.random(in: 1...40, using: &random)) * 1e5)
        var script: [String] = []
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let at = Int.random(in: 1...200, using: &random)
            script.append(["at \(at) seek \(Int.random(in: 0...Int(duration), using: &random))", "at \(at) rate 0", "at \(at) rate 1", "at \(at) rate 2"][Int.random(in: 0..<4, using: &random)])
        }
        return Scenario(plan: plan, delivery: .replayed(FetchTrace(rows: rows), otherwise: network),
            script: script.joined(separator: "; ") + (script.isEmpty ? "" : "; at 400 rate 1"))
    }

    /// Segments adding up to `total` seconds, of random lengths (some very short), 50 kB to 2 MB.
    static func segments(_ name: String, total: Double, using random: inout SeededGenerator) -> SegmentList {
        var segments: [PlannedSegment] = []
        var covered = 0.0
        while covered < total - 1e-9 {
            let length = min(total - covered, [0.04, 1, 2, 4, 6, 10][Int.random(in: 0..<6, using: &random)])
            segments.append(PlannedSegment(uri: "https://cdn.example/\(name)/\(segments.count).ts", duration: length, bytes: Int.random(in: 50_000...2_000_000, using: &random)))
            covered += length
        }
        return SegmentList(segments)
    }
}
