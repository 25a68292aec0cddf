import Foundation
import Playback

/// `GET /playback-info` and `GET /scrub`: what a legacy sender polls to follow playback.
///
/// `duration` is present exactly while a session plays: senders learn from its appearance that
/// playback started, and from its absence that it ended.
public struct PlaybackInfo: Sendable, Equatable, Codable {
    public var duration: Double?
    public var position: Double
    public var rate: Double
    public var readyToPlay: Bool
    public var bufferEmpty: Bool
    /// Seconds of primary the receiver holds, as `loadedTimeRanges` reports.
    public var loaded: ClosedRange<Double>?
    public var seekable: ClosedRange<Double>?
    /// The session's presentation mode and picture-in-picture flags, as AVPictureInPictureController's
    /// observations (supported, possible); nil while no session plays.
    public var presentation: Presentation?
    /// True while an interstitial with the SKIP restriction plays: no skipping, in any mode.
    public var requiresLinearPlayback = false
    /// `AVPlayer.timeControlStatus`, and `reasonForWaitingToPlay` while waiting; a grouped receiver
    /// shows its group's. Read from a receiver, a status this side does not know reads as paused and
    /// a reason it does not know as none.
    public var status = PlayerStatus.paused
    /// `playbackLikelyToKeepUp`: from the buffer when the receiver fetches segments, else ready and
    /// not empty, as a receiver that plays on the latency model has it.
    public var likelyToKeepUp: Bool
    /// The group the session follows, if it joined one.
    public var groupID: String?
    /// A grouped session's sync error now and how far its clock may be off the group's.
    public var groupSync: GroupSync?

    public struct GroupSync: Sendable, Equatable {
        /// Its primary position minus the group's, in seconds; nil while it does not follow.
        public var error: Double?
        /// Half the best round trip of its clock exchange with the group's host.
        public var clockBound: Double
        /// The group clock when this was read, as the participant estimates it.
        public var groupTime: Double
        /// Times the coordinator has moved it while it followed.
        public var corrections: Int

        public init(error: Double?, clockBound: Double, groupTime: Double, corrections: Int) {
            self.error = error
            self.clockBound = clockBound
            self.groupTime = groupTime
            self.corrections = corrections
        }
    }

    public static let noSession = PlaybackInfo(duration: nil, position: 0, rate: 0, readyToPlay: false, bufferEmpty: true)

    public init(
        duration: Double?, position: Double, rate: Double, readyToPlay: Bool, bufferEmpty: Bool,
        loaded: ClosedRange<Double>? = nil, seekable: ClosedRange<Double>? = nil
    ) {
        self.duration = duration
        self.position = position
        self.rate = rate
        self.readyToPlay = readyToPlay
        self.bufferEmpty = bufferEmpty
        likelyToKeepUp = readyToPlay && !bufferEmpty
        self.loaded = loaded
        self.seekable = seekable
    }

    /// What the engine shows now. During a break the sender sees the interstitial it is watching.
    public init(engine: PlaybackEngine) {
        guard engine.isActive else {
            self = .noSession
            return
        }
        let switching = engine.state == .loading || engine.state == .transitioning
        if let interstitial = engine.currentInterstitial {
            self.init(
                duration: interstitial.duration, position: interstitial.offset, rate: engine.rate, readyToPlay: !switching,
                bufferEmpty: switching, loaded: 0...interstitial.duration, seekable: 0...interstitial.duration)
        } else {
            let duration = engine.plan.primaryDuration
            self.init(
                duration: duration, position: engine.position, rate: switching ? 0 : engine.rate, readyToPlay: !switching,
                bufferEmpty: switching, loaded: engine.position...max(engine.position, duration), seekable: 0...duration)
        }
        presentation = engine.presentation
        requiresLinearPlayback = engine.requiresLinearPlayback
        if let buffer = engine.bufferStatus {
            // A receiver that fetches its segments reports what it holds, not the whole stream.
            loaded = buffer.loaded
            bufferEmpty = switching || buffer.isStalled || (buffer.ahead <= 0 && !buffer.isComplete)
            likelyToKeepUp = !switching && buffer.likelyToKeepUp
        }
        if engine.state == .stalled {
            status = .waiting(.toMinimizeStalls)
        } else if switching {
            // Switching into or out of a break is waiting on the interstitial; loading, on the buffer.
            status = .waiting(engine.state == .transitioning ? .interstitialEvent : .toMinimizeStalls)
        } else {
            status = engine.rate > 0 ? .playing : .paused
        }
    }

    /// What a participant of group `id` shows: its group's status, and while it waits for the others,
    /// the rate it will resume at and a position that stands still (AVFoundation's behaviour).
    public mutating func follow(group id: String, status: PlayerStatus, resumeRate: Double) {
        groupID = id
        self.status = status
        if status.waitingReason == .waitingForCoordinatedPlayback { rate = resumeRate }
    }

    /// A range of `loadedTimeRanges` and `seekableTimeRanges`, as AVPlayerItem gives them.
    struct TimeRange: Decodable {
        var start: Double
        var duration: Double
    }

    enum CodingKeys: String, CodingKey {
        case duration, durationCMTime, position, positionCMTime, rate, readyToPlay, playbackBufferEmpty, playbackBufferFull, playbackLikelyToKeepUp
        case loadedTimeRanges, seekableTimeRanges
        case presentationMode, pictureInPictureSupported, pictureInPicturePossible, pictureInPictureActive, requiresLinearPlayback
        case timeControlStatus, reasonForWaitingToPlay, groupID, groupSyncError, groupClockBound, groupTime, groupCorrections
    }

    public func encode(to encoder: any Encoder) throws {
        try propertyListValue.encode(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        duration = try container.decodeIfPresent(Double.self, forKey: .duration)
        position = try container.decode(Double.self, forKey: .position)
        rate = try container.decode(Double.self, forKey: .rate)
        readyToPlay = try container.decode(Bool.self, forKey: .readyToPlay)
        bufferEmpty = try container.decode(Bool.self, forKey: .playbackBufferEmpty)
        loaded = try container.decodeIfPresent([TimeRange].self, forKey: .loadedTimeRanges)?.first.flatMap(Self.closedRange)
        seekable = try container.decodeIfPresent([TimeRange].self, forKey: .seekableTimeRanges)?.first.flatMap(Self.closedRange)
        likelyToKeepUp = try container.decodeIfPresent(Bool.self, forKey: .playbackLikelyToKeepUp) ?? (readyToPlay && !bufferEmpty)
        status = PlayerStatus(
            timeControl: try container.decodeIfPresent(String.self, forKey: .timeControlStatus).flatMap(PlayerStatus.TimeControl.init) ?? .paused,
            waitingReason: try container.decodeIfPresent(String.self, forKey: .reasonForWaitingToPlay).flatMap(PlayerStatus.WaitingReason.init))
        groupID = try container.decodeIfPresent(String.self, forKey: .groupID)
        if let bound = try container.decodeIfPresent(Double.self, forKey: .groupClockBound) {
            groupSync = GroupSync(
                error: try container.decodeIfPresent(Double.self, forKey: .groupSyncError), clockBound: bound,
                groupTime: try container.decodeIfPresent(Double.self, forKey: .groupTime) ?? 0,
                corrections: try container.decodeIfPresent(Int.self, forKey: .groupCorrections) ?? 0)
        }
        if let name = try container.decodeIfPresent(String.self, forKey: .presentationMode), let mode = PresentationMode(wireName: name) {
            var read = Presentation(supportsPictureInPicture: try container.decodeIfPresent(Bool.self, forKey: .pictureInPictureSupported) ?? false)
            read.mode = mode
            read.pictureInPicturePossible = try container.decodeIfPresent(Bool.self, forKey: .pictureInPicturePossible) ?? true
            presentation = read
            requiresLinearPlayback = try container.decodeIfPresent(Bool.self, forKey: .requiresLinearPlayback) ?? false
        }
    }

    /// nil for a range that is no range (a negative or non-finite duration).
    private static func closedRange(_ range: TimeRange) -> ClosedRange<Double>? {
        let end = range.start + range.duration
        guard range.start.isFinite, end.isFinite, range.duration >= 0 else { return nil }
        return range.start...end
    }

    /// `GET /scrub`'s text answer.
    public func scrubText() -> String {
        PlaybackProgress(duration: duration ?? 0, position: position).scrubText
    }
}
