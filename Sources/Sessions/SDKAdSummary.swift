import Playback
/// The sender's SDK ad breaks in one session: which started, which waited for picture in picture to
/// end, and which it cost (the impressions a team loses to viewers who go to PiP).
public struct SDKAdSummary: Sendable, Codable, Hashable {
    /// What became of one break.
    public enum Outcome: String, Sendable, Codable, Hashable {
        /// The session ended before the break fell due.
        case notReached = "not-reached"
        case started
        /// Started after picture in picture ended (`startedAt` − `dueAt` is the delay).
        case startedLate = "started-late"
        /// Fell due in picture in picture and was not started (lost).
        case skipped
        /// Fell due in picture in picture; the start was refused (lost, and a violation of the rule).
        case refused
        /// Deferred, and the session ended before picture in picture did (lost).
        case stillDeferred = "still-deferred"

        public var isLostToPictureInPicture: Bool { self == .skipped || self == .refused || self == .stillDeferred }
    }

    public struct Break: Sendable, Codable, Hashable {
        public var id: String
        /// Where on the content the break was due.
        public var position: Double
        /// Seconds of ads it holds.
        public var seconds: Double
        public var outcome = Outcome.notReached
        public var dueAt: Double?
        public var startedAt: Double?
        /// Seconds between falling due and starting, for a deferred break that started.
        public var delay: Double?
    }

    /// A number of breaks and their seconds of ads.
    public struct Count: Sendable, Codable, Hashable {
        public var breaks = 0
        public var seconds = 0.0

        mutating func add(_ adBreak: Break) {
            breaks += 1
            seconds += adBreak.seconds
        }
    }

    public var policy: SDKAdInPictureInPicture
    public var breaks: [Break]
    public var planned = Count()
    public var started = Count()
    public var deferred = Count()
    public var lostToPictureInPicture = Count()
    /// Starts refused in picture in picture (`attempt`): the rule an app broke.
    public var violations = 0
    /// The longest wait of a deferred break that started.
    public var longestDelaySeconds = 0.0

    public init(policy: SDKAdInPictureInPicture, breaks: [Break]) {
        self.policy = policy
        self.breaks = breaks
    }

    /// Folds in one of the engine's events about the break `id` (other IDs are ignored).
    mutating func note(_ kind: PlaybackEvent.Kind, of id: String, at time: Double) {
        guard let index = breaks.firstIndex(where: { $0.id == id }) else { return }
        switch kind {
        case .interstitialStarted:
            breaks[index].startedAt = time
            if let due = breaks[index].dueAt, breaks[index].outcome == .stillDeferred {
                breaks[index].outcome = .startedLate
                breaks[index].delay = time - due
            } else {
                breaks[index].dueAt = time
                breaks[index].outcome = .started
            }
        case .sdkAdSkipped:
            breaks[index].dueAt = time
            breaks[index].outcome = .skipped
        case .sdkAdStartRefused:
            breaks[index].dueAt = time
            breaks[index].outcome = .refused
        case .sdkAdDeferred:
            breaks[index].dueAt = time
            breaks[index].outcome = .stillDeferred
        default:
            break
        }
    }

    /// Adds up the breaks.
    mutating func total() {
        planned = Count()
        started = Count()
        deferred = Count()
        lostToPictureInPicture = Count()
        violations = 0
        longestDelaySeconds = 0
        for adBreak in breaks {
            planned.add(adBreak)
            switch adBreak.outcome {
            case .started: started.add(adBreak)
            case .startedLate:
                started.add(adBreak)
                deferred.add(adBreak)
                longestDelaySeconds = max(longestDelaySeconds, adBreak.delay ?? 0)
            case .stillDeferred:
                deferred.add(adBreak)
                lostToPictureInPicture.add(adBreak)
            case .skipped:
                lostToPictureInPicture.add(adBreak)
            case .refused:
                lostToPictureInPicture.add(adBreak)
                violations += 1
            case .notReached:
                break
            }
        }
    }
}
