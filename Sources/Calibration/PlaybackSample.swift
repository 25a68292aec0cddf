import SenderProtocol

/// One reading of a receiver's `/playback-info`, at the moment it was taken: the middle of its request
/// and its answer, in seconds from the start of the calibration.
public struct PlaybackSample: Sendable, Hashable, Codable {
    public var time: Double
    /// Half the read's round trip: how far off `time` may be from when the receiver answered.
    public var uncertainty: Double
    /// What is playing's length; nil while nothing plays.
    public var duration: Double?
    public var position: Double
    public var rate: Double
    /// Ready, and its status playing: the picture moves.
    public var playing: Bool
    /// Seconds loaded past the position, as `loadedTimeRanges` say.
    public var loadedAhead: Double?

    public init(time: Double, uncertainty: Double = 0, duration: Double?, position: Double, rate: Double, playing: Bool, loadedAhead: Double? = nil) {
        self.time = time
        self.uncertainty = uncertainty
        self.duration = duration
        self.position = position
        self.rate = rate
        self.playing = playing
        self.loadedAhead = loadedAhead
    }

    /// A read sent at `sent` and answered at `answered`, timed at their middle.
    /// A receiver's numbers are taken only when finite: a position or a rate that is not a number
    /// makes a sample that does not play, and a length that is not one, a sample of nothing.
    public init(sent: Double, answered: Double, _ info: PlaybackInfo) {
        let duration = info.duration.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let numbers = info.position.isFinite && info.rate.isFinite
        let playing = duration != nil && numbers && info.readyToPlay && info.status.timeControl == .playing && info.rate > 0
        self.init(
            time: (sent + answered) / 2, uncertainty: max(0, answered - sent) / 2, duration: duration,
            position: numbers ? info.position : 0, rate: numbers ? info.rate : 0, playing: playing,
            loadedAhead: numbers ? info.loaded.flatMap { $0.upperBound.isFinite ? max(0, $0.upperBound - info.position) : nil } : nil)
    }

    /// When what is playing was at `position`, seen from this sample: a receiver that plays at its
    /// rate was there `(self.position - position) / rate` seconds ago.
    func moment(at position: Double) -> Double {
        time - (self.position - position) / max(rate, 0.01)
    }
}

/// A stretch of samples that play one thing: same length, the picture moving throughout.
struct PlayingRun: Sendable, Hashable {
    var duration: Double
    var samples: [PlaybackSample]

    var first: PlaybackSample { samples[0] }
    var last: PlaybackSample { samples[samples.count - 1] }

    /// Which end of the run a moment is read near.
    enum End {
        case start, end
    }

    /// Seconds of a run's samples, at either end, whose most precise read times a moment: any sample of
    /// a run tells where it was at every position, and one read in a quiet moment tells it best, so a
    /// slow answer now and then does not move a measurement.
    static let window = 0.5

    /// When the run was at `position`, from the sample with the least uncertainty near `end`.
    func moment(at position: Double, near end: End) -> Double {
        let edge = end == .start ? first.time : last.time
        let near = samples.filter { abs($0.time - edge) <= Self.window }
        let best = near.min { $0.uncertainty < $1.uncertainty } ?? (end == .start ? first : last)
        return best.moment(at: position)
    }

    /// Splits samples into their playing runs, in order; samples that do not play (a switch, a stall,
    /// loading, the end) separate them, and so does a change of what plays or a jump back (a seek).
    static func runs(_ samples: [PlaybackSample]) -> [PlayingRun] {
        var runs: [PlayingRun] = []
        var previousPlayed = false
        for sample in samples {
            guard sample.playing, let duration = sample.duration else {
                previousPlayed = false
                continue
            }
            if previousPlayed, let last = runs.last, abs(last.duration - duration) < 0.001, sample.position >= last.last.position - 0.25 {
                runs[runs.count - 1].samples.append(sample)
            } else {
                runs.append(PlayingRun(duration: duration, samples: [sample]))
            }
            previousPlayed = true
        }
        return runs
    }
}
