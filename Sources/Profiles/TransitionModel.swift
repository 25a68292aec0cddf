import Foundation
import HLS
import MediaValues
import NumberText

/// How long one receiver profile takes to switch between two pieces of media (docs/simulate.md, "Receiver profiles and the latency model").
///
/// A transition costs priming (fetching the new media's playlist and first segment, less what the
/// receiver preloaded ahead of the break) plus, on a video path and an audio path that run in
/// parallel, the splice every transition pays and the cost of each dimension that differs. Each cost
/// is drawn from its log-normal p50/p95 with a generator named after the transition, so one seed gives
/// one timeline and adding a break does not move the others' draws.
public struct TransitionModel: Sendable {
    public let profile: ReceiverProfile
    public let seed: UInt64

    /// The segment length assumed when estimating what priming fetches.
    public var segmentSeconds = 6.0
    /// The bit rate assumed for media whose playlist does not say.
    public var defaultBitsPerSecond = 5_000_000.0

    public init(profile: ReceiverProfile, seed: UInt64) {
        self.profile = profile
        self.seed = seed
    }

    static let videoDimensions: Set<MediaDimension> = [.videoCodec, .videoProfile, .resolution, .aspectRatio, .bitDepth, .frameRate, .dynamicRange]
    static let audioDimensions: Set<MediaDimension> = [.audioCodec, .audioProfile, .sampleRate, .sampleResolution, .channelLayout]

    /// The transition named `name` (unique within the session) from `previous` to `next`.
    ///
    /// - Parameters:
    ///   - previous: what played before; nil at the start of playback.
    ///   - bitsPerSecond: the bit rate of `next`, when known, to size the first segment.
    ///   - preloaded: whether the receiver could start loading `next` ahead of time (breaks and the
    ///     return to primary can be preloaded; the cast itself cannot).
    public func transition(
        _ name: String, from previous: MediaParameters?, to next: MediaParameters, bitsPerSecond: Double? = nil,
        preloaded: Bool = true
    ) -> Transition {
        var result = Transition(priming: priming(name, bitsPerSecond: bitsPerSecond, preloaded: preloaded))
        let splice = profile.transitions.splice
        if profile.video != nil, next.video != nil {
            result.video.append(draw(splice, cause: "splice", stream: "\(name)/splice/video"))
        }
        if next.audio != nil || profile.video == nil {
            result.audio.append(draw(splice, cause: "splice", stream: "\(name)/splice/audio"))
        }
        guard let previous else { return result }

        for mismatch in MediaComparison(primary: previous, interstitial: next).mismatches {
            let dimension = mismatch.dimension
            guard let cost = profile.transitions.dimensions[dimension.rawValue] else { continue }
            if dimension == .frameRate && !profile.display.matchFrameRate { continue }
            if dimension == .dynamicRange && !profile.display.matchDynamicRange { continue }
            let isVideo = Self.videoDimensions.contains(dimension)
            // An audio-only receiver never pays for pictures it does not show.
            if isVideo && profile.video == nil { continue }
            var item = draw(cost, cause: dimension.rawValue, stream: "\(name)/\(dimension.rawValue)")
            item.detail = "\(mismatch.primary) -> \(mismatch.interstitial)"
            switch cost.path ?? (isVideo ? .video : .audio) {
            case .video: result.video.append(item)
            case .audio: result.audio.append(item)
            case .both:
                result.video.append(item)
                result.audio.append(item)
            }
        }
        return result
    }

    /// Fetching the new media's playlist and first segment: two round trips and the segment's bytes at
    /// the profile's bandwidth, drawn with network jitter; preloading ahead of a break hides it.
    func priming(_ name: String, bitsPerSecond: Double?, preloaded: Bool) -> Transition.Cost {
        let rtt = profile.network.rttMilliseconds
        let segmentBits = (bitsPerSecond ?? defaultBitsPerSecond) * segmentSeconds
        let transfer = segmentBits / (profile.network.bandwidthMbps * 1_000_000) * 1000
        let median = 2 * rtt + transfer
        // Network jitter: the slow tail of a fetch is about half again the median on a home network.
        var generator = SeededGenerator.stream("\(name)/priming", seed: seed)
        let fetch = LatencyDistribution(medianMilliseconds: median, p95Milliseconds: median * 1.5).sample(using: &generator)
        let lead = preloaded ? (profile.switching.preloadLeadSeconds ?? 0) * 1000 : 0
        let source = "two round trips of \(Self.format(rtt)) ms and a \(Self.format(segmentSeconds)) s segment at \(Self.format(profile.network.bandwidthMbps)) Mbps"
            + (lead > 0 ? ", less \(Self.format(lead)) ms preloaded ahead of the break" : "")
        return Transition.Cost(cause: "priming", milliseconds: max(0, fetch - lead), source: source)
    }

    private func draw(_ cost: TransitionCost, cause: String, stream: String) -> Transition.Cost {
        var generator = SeededGenerator.stream(stream, seed: seed)
        let milliseconds = LatencyDistribution(cost).sample(using: &generator)
        return Transition.Cost(cause: cause, milliseconds: milliseconds, source: cost.source)
    }

    static func format(_ value: Double) -> String {
        value.rounded() == value ? value.plainText : String(format: "%.1f", value)
    }
}
