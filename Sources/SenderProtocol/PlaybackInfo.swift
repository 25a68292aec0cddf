import Emulation
import Foundation

/// `GET /playback-info` and `GET /scrub`: what a legacy sender polls to follow playback.
///
/// `duration` is present exactly while a session plays: senders learn from its appearance that
/// playback started, and from its absence that it ended.
public struct PlaybackInfo: Sendable, Equatable {
    public var duration: Double?
    public var position: Double
    public var rate: Double
    public var readyToPlay: Bool
    public var bufferEmpty: Bool
    /// Seconds of primary the receiver holds, as `loadedTimeRanges` reports.
    public var loaded: ClosedRange<Double>?
    public var seekable: ClosedRange<Double>?

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
    }

    /// The XML property list senders parse; written directly (see `XMLPropertyList`) because senders
    /// poll it several times a second.
    public func propertyList() -> Data {
        var dictionary: [String: XMLPropertyList] = [
            "position": .real(position), "rate": .real(rate), "readyToPlay": .boolean(readyToPlay),
            "playbackBufferEmpty": .boolean(bufferEmpty), "playbackBufferFull": .boolean(!bufferEmpty && readyToPlay),
            "playbackLikelyToKeepUp": .boolean(readyToPlay && !bufferEmpty),
            "loadedTimeRanges": .array(loaded.map { [Self.range($0)] } ?? []),
            "seekableTimeRanges": .array(seekable.map { [Self.range($0)] } ?? []),
        ]
        if let duration { dictionary["duration"] = .real(duration) }
        return XMLPropertyList.dictionary(dictionary).document()
    }

    /// `GET /scrub`'s text answer.
    public func scrubText() -> String {
        "duration: \(String(format: "%.6f", duration ?? 0))\nposition: \(String(format: "%.6f", position))\n"
    }

    private static func range(_ range: ClosedRange<Double>) -> XMLPropertyList {
        .dictionary(["start": .real(range.lowerBound), "duration": .real(range.upperBound - range.lowerBound)])
    }
}
