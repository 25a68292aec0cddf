@testable import Coordination
@testable import Playback
@testable import Profiles
import Testing

/// The sync error's statistics are exact over e's linear pieces, and the pieces follow what a run
/// recorded: the participant's motion, both sides' view of whether it follows, the group timeline.
@Suite("Group sync error")
struct GroupSyncErrorTests {
    typealias Piece = GroupReport.SyncPiece

    static func near(_ value: Double, _ expected: Double, within margin: Double = 1e-9) -> Bool { abs(value - expected) <= margin }

    @Test("A ramp of e from 0 to 1 s over 10 s: max 1, mean 0.5, p95 0.95, and 4 s above a 0.6 s tolerance")
    func ramp() {
        let error = GroupReport.SyncError(pieces: [Piece(start: 0, end: 10, from: 0, to: 1)], tolerance: 0.6)
        #expect(error.max == 1)
        #expect(Self.near(error.mean, 0.5))
        #expect(Self.near(error.p95, 0.95))
        #expect(Self.near(error.secondsAbove, 4))
        #expect(error.seconds == 10)
    }

    @Test("e crossing zero counts its magnitude on both sides: -1 to 1 over 4 s has mean 0.5 and max 1")
    func crossing() {
        let error = GroupReport.SyncError(pieces: [Piece(start: 0, end: 4, from: -1, to: 1)], tolerance: 0.5)
        #expect(error.max == 1)
        #expect(Self.near(error.mean, 0.5))
        #expect(Self.near(error.secondsAbove, 2))
        #expect(Self.near(error.p95, 0.95))
    }

    @Test("A constant e for under 5 % of the time does not reach p95; for over 5 % it is p95")
    func constantStretches() {
        let short = GroupReport.SyncError(
            pieces: [Piece(start: 0, end: 96, from: 0, to: 0), Piece(start: 96, end: 100, from: 0.3, to: 0.3)], tolerance: 0.5)
        #expect(short.p95 == 0)
        #expect(short.max == 0.3)
        #expect(short.secondsAbove == 0)
        let long = GroupReport.SyncError(
            pieces: [Piece(start: 0, end: 90, from: 0, to: 0), Piece(start: 90, end: 100, from: 0.3, to: 0.3)], tolerance: 0.2)
        #expect(long.p95 == 0.3)
        #expect(Self.near(long.secondsAbove, 10))
        #expect(Self.near(long.mean, 0.03))
    }

    @Test("No time followed is no error")
    func empty() {
        let error = GroupReport.SyncError(pieces: [], tolerance: 0.5)
        #expect(error.max == 0 && error.mean == 0 && error.p95 == 0 && error.secondsAbove == 0 && error.seconds == 0)
    }

    /// Dense samples of |e| over random pieces: their mean, share above the tolerance and 95th
    /// percentile approach the exact figures.
    @Test("Over seeded random pieces the exact statistics agree with dense sampling", arguments: Array(UInt64(1)...30))
    func againstSampling(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var pieces: [Piece] = []
        var time = 0.0
        for _ in 0..<Int.random(in: 1...6, using: &generator) {
            let seconds = Double(Int.random(in: 1...40, using: &generator)) / 4
            let ends = (Double(Int.random(in: -100...100, using: &generator)) / 100, Double(Int.random(in: -100...100, using: &generator)) / 100)
            pieces.append(Piece(start: time, end: time + seconds, from: ends.0, to: ends.1))
            time += seconds + Double(Int.random(in: 0...1, using: &generator))
        }
        let exact = GroupReport.SyncError(pieces: pieces, tolerance: 0.4)
        let step = 0.0005
        var samples: [Double] = []
        for piece in pieces {
            var at = piece.start + step / 2
            while at < piece.end {
                samples.append(abs(piece.from + (piece.to - piece.from) * (at - piece.start) / (piece.end - piece.start)))
                at += step
            }
        }
        samples.sort()
        let mean = samples.reduce(0, +) / Double(samples.count)
        let above = Double(samples.count { $0 > 0.4 }) * step
        let p95 = samples[Int(Double(samples.count) * 0.95)]
        #expect(Self.near(exact.mean, mean, within: 1e-3), "seed \(seed): mean \(exact.mean), sampled \(mean)")
        #expect(Self.near(exact.secondsAbove, above, within: 0.01), "seed \(seed): above \(exact.secondsAbove), sampled \(above)")
        #expect(Self.near(exact.p95, p95, within: 0.01), "seed \(seed): p95 \(exact.p95), sampled \(p95)")
        #expect(exact.max >= samples.last! && exact.max - samples.last! < 0.01, "seed \(seed): max \(exact.max), sampled \(samples.last!)")
    }

    @Test("Pieces: e is the motion less the group timeline, cut where either side stops counting the participant")
    func pieces() {
        var trace = GroupSyncTrace()
        var engine = PlaybackEngine(plan: PlaybackPlan(primaryDuration: 100))
        _ = engine.handle(.play(from: 0), at: 0)
        _ = engine.advance(to: 10)
        trace.observe(engine, at: 10)
        trace.count(true, at: 0)
        trace.count(false, at: 20)
        trace.count(true, at: 25)
        // The group plays from 0 at 10 s, but half a second behind the participant's start.
        let timelines = [(at: 10.0, timeline: GroupTimeline(anchorTime: 10, anchorPrimary: 0, rate: 1)),
                         (at: 30.0, timeline: GroupTimeline(anchorTime: 30, anchorPrimary: 20, rate: 0))]
        let following = [(at: 0.0, following: true)]
        let position = engine.position
        let pieces = trace.pieces(following: following, timelines: timelines, until: 40)
        #expect(pieces.count == 3)
        #expect(pieces[0] == Piece(start: 10, end: 20, from: position, to: position))
        #expect(pieces[1] == Piece(start: 25, end: 30, from: position, to: position))
        // Held at 20 while the participant plays on: e grows by a second a second.
        #expect(pieces[2].start == 30 && pieces[2].end == 40)
        #expect(Self.near(pieces[2].from, position + 30 - 10 - 20) && Self.near(pieces[2].to, pieces[2].from + 10))
    }

    @Test("The coordinator's view counts too: not following (waiting, suspended) is not measured")
    func coordinatorView() {
        var trace = GroupSyncTrace()
        var engine = PlaybackEngine(plan: PlaybackPlan(primaryDuration: 100))
        _ = engine.handle(.play(from: 0), at: 0)
        trace.observe(engine, at: 0)
        trace.count(true, at: 0)
        let timelines = [(at: 0.0, timeline: GroupTimeline(anchorTime: 0, anchorPrimary: 0, rate: 0))]
        let pieces = trace.pieces(following: [(0, true), (5, false), (8, true)], timelines: timelines, until: 10)
        #expect(pieces.map(\.start) == [0, 8] && pieces.map(\.end) == [5, 10])
        #expect(GroupReport.SyncError(pieces: pieces, tolerance: 0.5).seconds == 7)
    }
}

@Suite("Group corrections")
struct GroupCorrectionTests {
    @Test("Catch-up jumps are not corrections: on a zero-delay link nobody is corrected under either policy")
    func zeroDelay() {
        for policy in [GroupPolicy.catchUp, GroupPolicy(waitFor: [.playingInterstitial])] {
            let report = GroupSimulation(contentID: "movie", members: GroupSimulationTests.members(policy: policy)).run()
            #expect(report.participants.map(\.corrections) == [0, 0, 0], "\(policy)")
        }
        let caught = GroupSimulation(contentID: "movie", members: GroupSimulationTests.members(policy: .catchUp)).run()
        #expect(caught.participants[0].catchUpJumps.count == 1 && caught.participants[1].catchUpJumps.count == 1)
    }

    @Test("On a delayed link the wait reaches a participant after it played on, and moving it back is a correction")
    func delayedWait() {
        let link = GroupLink(delaySeconds: 0.2, jitterSeconds: 0.05)
        let report = GroupSimulation(contentID: "movie", members: GroupSimulationTests.members(policy: GroupPolicy(waitFor: [.playingInterstitial])), link: link, seed: 3).run()
        #expect(report.participants[2].corrections >= 1)
        #expect(report.participants.allSatisfy { $0.catchUpJumps.isEmpty })
    }
}
