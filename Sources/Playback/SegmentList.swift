import Profiles
/// One media segment as a receiver fetches it: where, how long it plays, how many bytes it is.
public struct PlannedSegment: Sendable, Hashable, Codable {
    public var uri: String
    /// EXTINF, or what was measured when the segment was analysed.
    public var duration: Double
    /// Measured when the segment was fetched beforehand (`verify`), else estimated from the
    /// variant's BANDWIDTH.
    public var bytes: Int

    public init(uri: String, duration: Double, bytes: Int) {
        self.uri = uri
        self.duration = duration
        self.bytes = bytes
    }
}

/// A variant of the primary a receiver can switch to: where its playlist is, what it declares, and its
/// segments on the same timeline as the variant it replaces.
public struct PlannedVariant: Sendable, Hashable {
    public var uri: String
    /// BANDWIDTH, in bits per second.
    public var bitsPerSecond: Double
    public var segments: SegmentList

    public init(uri: String, bitsPerSecond: Double, segments: SegmentList) {
        self.uri = uri
        self.bitsPerSecond = bitsPerSecond
        self.segments = segments
    }
}

/// The segments of one rendition, in order, with where each starts: the content's own timeline for
/// primary, seconds into the asset for an interstitial asset.
public struct SegmentList: Sendable, Hashable {
    public let segments: [PlannedSegment]
    /// `starts[i]` is where segment i starts; one more entry holds the end.
    private let starts: [Double]

    public init(_ segments: [PlannedSegment], startingAt first: Double = 0) {
        self.segments = segments
        var starts: [Double] = []
        starts.reserveCapacity(segments.count + 1)
        var at = first
        for segment in segments {
            starts.append(at)
            // A duration read from outside that is no number of seconds adds nothing.
            at += segment.duration.isFinite && segment.duration > 0 ? segment.duration : 0
        }
        starts.append(at)
        self.starts = starts
    }

    public static let empty = SegmentList([])

    public var isEmpty: Bool { segments.isEmpty }
    public var count: Int { segments.count }
    public var end: Double { starts[starts.count - 1] }

    /// Where segment `index` starts; `count` gives the end.
    public func start(of index: Int) -> Double {
        starts[min(max(0, index), starts.count - 1)]
    }

    /// The segment that plays at `position` (the first before the list starts, the last past its end).
    public func index(containing position: Double) -> Int {
        guard count > 1 else { return 0 }
        var low = 0
        var high = count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position + 1e-9 { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

/// Which rendition a fetch belongs to: primary, or one asset of a pod's event.
public enum TrackKey: Sendable, Hashable, CustomStringConvertible {
    case primary
    case asset(pod: String, member: Int, asset: Int)

    public var description: String {
        switch self {
        case .primary: "primary"
        case .asset(let pod, let member, let asset): "pod \(pod) event \(member + 1) asset \(asset + 1)"
        }
    }
}

/// What the engine asks its driver to do about media.
public enum FetchAction: Sendable, Hashable {
    case fetch(SegmentFetch)
    case cancel(id: UInt64)
}

/// One segment to fetch.
public struct SegmentFetch: Sendable, Hashable {
    /// Unique in the session: the answer names it.
    public var id: UInt64
    public var track: TrackKey
    public var index: Int
    public var segment: PlannedSegment
    /// Where the segment plays on its rendition's timeline, which a live reload does not move: where
    /// it goes in the buffer when it arrives, wherever the playlist has moved meanwhile.
    public var start: Double = 0
    /// 1 for the first try.
    public var attempt: Int
    /// Session time at which the engine asked for it.
    public var requestedAt: Double
    /// Seconds the fetch may take before it counts as timed out.
    public var timeout: Double
    /// Which part of the rendition: its main segments, or those of its separate audio rendition.
    public var part: TrackPart = .main
}

/// The parts of a rendition fetched apart: the main segments (video, or audio and video muxed), and
/// the segments of a separate audio rendition (EXT-X-MEDIA TYPE=AUDIO with a URI) when there is one.
public enum TrackPart: String, Sendable, Hashable {
    case main, audio
}

/// How a fetch went, on the session's clock.
public struct FetchTiming: Sendable, Hashable, Codable {
    public var requestedAt: Double
    public var firstByteAt: Double
    public var completedAt: Double
    public var bytes: Int
    /// `measured` (fetched for real) or `modelled` (from the profile's network and the measured size).
    public var source: String
    /// Seconds of the transfer in which the receiver could have taken more and the origin sent
    /// nothing: the origin (or CDN) was slower than the profile's network. 0 when modelled.
    public var originLimitedSeconds: Double

    public init(requestedAt: Double, firstByteAt: Double, completedAt: Double, bytes: Int, source: String, originLimitedSeconds: Double = 0) {
        self.requestedAt = requestedAt
        self.firstByteAt = firstByteAt
        self.completedAt = completedAt
        self.bytes = bytes
        self.source = source
        self.originLimitedSeconds = originLimitedSeconds
    }
}

/// What came of a fetch.
public enum FetchOutcome: Sendable, Hashable {
    case loaded(FetchTiming)
    case failed(FetchFailure, at: Double)

    public var time: Double {
        switch self {
        case .loaded(let timing): timing.completedAt
        case .failed(_, let at): at
        }
    }
}
