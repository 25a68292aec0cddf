import Testing
@testable import Calibration

/// A cast's samples made from a known timeline, read back by `AdCastMeasurement`.
@Suite("Reading a calibration cast from its samples")
struct CastMeasurementTests {
    /// What the receiver does, in order, from the moment the cast is accepted.
    enum Step {
        /// Shows nothing playing for this long (loading, a switch, a stall).
        case waiting(Double)
        /// Plays primary from one position to another.
        case primary(from: Double, to: Double)
        /// Plays one ad through.
        case ad
    }

    /// Samples every 50 ms along `steps`, starting at `acceptedAt`. Every seventh read is slow: its
    /// answer came 160 ms after it was sent, and its time is off by 80 ms, as a read on a busy
    /// machine is; the others are precise.
    static func samples(_ steps: [Step], acceptedAt: Double = 1) -> [PlaybackSample] {
        var spans: [(start: Double, end: Double, duration: Double?, startPosition: Double)] = []
        var now = acceptedAt
        for step in steps {
            switch step {
            case .waiting(let seconds):
                spans.append((now, now + seconds, nil, 0))
                now += seconds
            case .primary(let from, let to):
                spans.append((now, now + to - from, Double(CalibrationSet.primarySeconds), from))
                now += to - from
            case .ad:
                spans.append((now, now + Double(CalibrationSet.adSeconds), Double(CalibrationSet.adSeconds), 0))
                now += Double(CalibrationSet.adSeconds)
            }
        }
        var samples: [PlaybackSample] = []
        var index = 0
        var time = acceptedAt + 0.01
        while time < now {
            let slow = index % 7 == 3
            if let span = spans.first(where: { time >= $0.start && time < $0.end }) {
                let playing = span.duration != nil
                samples.append(PlaybackSample(
                    time: time + (slow ? 0.08 : 0), uncertainty: slow ? 0.08 : 0.001, duration: span.duration ?? Double(CalibrationSet.adSeconds),
                    position: playing ? span.startPosition + (time - span.start) : 0, rate: 1, playing: playing))
            }
            time += 0.05
            index += 1
        }
        samples.append(PlaybackSample(time: now + 0.05, duration: nil, position: 0, rate: 0, playing: false))
        return samples
    }

    /// The calibration playlist played through: start-up, then each break with its switches.
    static func playedThrough(startup: Double, entries: [Double], exits: [Double]) -> [Step] {
        var steps: [Step] = [.waiting(startup)]
        var position = 0.0
        for (index, breakAt) in CalibrationSet.breakPositions.enumerated() {
            steps += [.primary(from: position, to: breakAt), .waiting(entries[index]), .ad, .waiting(exits[index])]
            position = breakAt
        }
        return steps + [.primary(from: position, to: Double(CalibrationSet.primarySeconds))]
    }

    @Test("Start-up and each switch in and out are read from positions, to the millisecond, whatever slow reads lie around them")
    func switchesFromPositions() throws {
        let entries = [0.07, 1.46, 0.055, 0.76, 0.113, 0.58, 0.9]
        let exits = [0.048, 2.145, 0.0, 0.934, 0.098, 0.675, 0.789]
        let measured = AdCastMeasurement(samples: Self.samples(Self.playedThrough(startup: 0.152, entries: entries, exits: exits)), acceptedAt: 1)
        #expect(abs(try #require(measured.startup) - 0.152) < 0.002)
        for (index, dimension) in CalibrationSet.ads.compactMap(\.dimension).enumerated() {
            #expect(abs(try #require(measured.entries[dimension]) - entries[index]) < 0.002, "\(dimension) in")
            #expect(abs(try #require(measured.exits[dimension]) - exits[index]) < 0.002, "\(dimension) out")
        }
        #expect(measured.unplayed.isEmpty && measured.stalls.isEmpty)
    }

    @Test("A break the receiver skips leaves its dimension unplayed; time lost inside primary is a stall")
    func skippedBreakAndStall() throws {
        var steps = Self.playedThrough(startup: 0.2, entries: Array(repeating: 0.1, count: 7), exits: Array(repeating: 0.1, count: 7))
        // The frame-rate ad (the second break, at 6 s) is not played: primary runs on through it, and
        // stalls for 0.4 s at 7.5 s.
        steps.replaceSubrange(4...12, with: [.waiting(0.1), .primary(from: 3, to: 7.5), .waiting(0.4), .primary(from: 7.5, to: 9), .waiting(0.1), .ad, .waiting(0.1)])
        let measured = AdCastMeasurement(samples: Self.samples(steps), acceptedAt: 1)
        #expect(measured.unplayed == ["frame_rate"])
        #expect(measured.stalls.count == 1 && abs((measured.stalls.first ?? 0) - 0.4) < 0.002)
        let resolution = (try #require(measured.entries["resolution"]), try #require(measured.exits["resolution"]))
        #expect(abs(resolution.0 - 0.1) < 0.002 && abs(resolution.1 - 0.1) < 0.002)
    }

    @Test("A seek's latency runs from sending it to the target's position playing")
    func seekLatency() {
        let samples = (0..<40).map { index -> PlaybackSample in
            let time = 10 + Double(index) * 0.05
            // Sent at 10.2; the receiver lands on 12 s at 10.45 and plays on.
            return time < 10.45
                ? PlaybackSample(time: time, uncertainty: 0.001, duration: 24, position: 3 + (time - 10), rate: 1, playing: true)
                : PlaybackSample(time: time, uncertainty: 0.001, duration: 24, position: 12 + (time - 10.45), rate: 1, playing: true)
        }
        #expect(abs((SeekMeasurement.latency(to: 12, sentAt: 10.2, samples: samples) ?? 0) - 0.25) < 0.002)
        #expect(SeekMeasurement.latency(to: 20, sentAt: 10.2, samples: samples) == nil)
    }
}
