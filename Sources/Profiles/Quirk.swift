/// A misbehaviour of a kind of device that real reports describe, declared in its profile with its
/// source, which the engine and the planner play as the device does. Each fires only where its
/// conditions meet, and says so in the report when it does.
public enum Quirk: String, Sendable, Hashable, Codable, CaseIterable {
    /// Playback stalls for good at the switch from a pre-roll to the content (shaka-player#2620:
    /// Samsung 2017 and some 2018 TVs; the session ends failed there).
    case prerollContentStall = "preroll-content-stall"
    /// Media whose video the device cannot decode plays its audio over a black picture instead of
    /// being refused (AirPlay TVs that show only a music icon: shaka-player#7746, hls.js#5989).
    case audioOnlyWhenUndecodable = "audio-only-when-undecodable"
    /// At a switch between primary and an interstitial where one side is encrypted and the other
    /// clear, or the video codec changes, the device releases its video decoder and builds another
    /// (a secure one for encrypted media), and the picture is black meanwhile. google/ExoPlayer#8568
    /// logs the release and the new decoder's initialisation at each ad boundary on a Qualcomm
    /// Android decoder (100 and 120 ms between the secure and the clear decoder, 330 ms re-creating
    /// the secure one); androidx/media#936 reports Android TVs failing that initialisation about
    /// 7 times as often as phones. The black's duration is the profile's number.
    case decoderReinitBlack = "decoder-reinit-black"
    /// The first switch to a higher variant in a session blacks the picture for a moment, later ones
    /// do not (androidx/media#2035: about 250 ms of black on Sony Bravia and Sharp Android TVs, not on
    /// an Nvidia Shield or a Mi Box). The black's duration is the profile's number.
    case firstUpSwitchBlack = "first-upswitch-black"
    /// The device resolves the X-ASSET-LIST of every interstitial as soon as it has read the
    /// playlist, in one burst, rather than as playback approaches each break (shaka-player#10191:
    /// Shaka Player 5.1.8 issues every X-ASSET-LIST request at parse time; shaka-player#10262 made it
    /// lazy). An ad server then sees every decision of the session at its start, and an asset list
    /// answered for a break an hour away is what that break plays.
    case eagerAssetLists = "eager-asset-lists"

    /// Whether the quirk blacks the picture for a while, so that its declaration carries the black's
    /// median and 95th percentile.
    public var blacksThePicture: Bool {
        switch self {
        case .decoderReinitBlack, .firstUpSwitchBlack: true
        case .prerollContentStall, .audioOnlyWhenUndecodable, .eagerAssetLists: false
        }
    }
}

/// A quirk as a profile declares it: which, where the knowledge of it comes from, and for a quirk
/// that blacks the picture, for how long.
public struct DeclaredQuirk: Sendable, Hashable, Codable {
    public var kind: Quirk
    public var source: String
    public var basis: Provenance.Basis
    /// The black's median and 95th percentile, for a quirk that `blacksThePicture`; the catalog
    /// refuses such a quirk without them, and any other with them.
    public var p50Milliseconds: Double?
    public var p95Milliseconds: Double?

    public init(kind: Quirk, source: String, basis: Provenance.Basis, p50Milliseconds: Double? = nil, p95Milliseconds: Double? = nil) {
        self.kind = kind
        self.source = source
        self.basis = basis
        self.p50Milliseconds = p50Milliseconds
        self.p95Milliseconds = p95Milliseconds
    }

    /// How long the quirk blacks the picture, when it does.
    public var black: LatencyDistribution? {
        guard let median = p50Milliseconds, let p95 = p95Milliseconds else { return nil }
        return LatencyDistribution(medianMilliseconds: median, p95Milliseconds: p95)
    }

    /// One draw of the black, from the generator named `stream` (one per place the quirk fires, so
    /// that one seed gives one timeline), as a cost of a switch; nil for a quirk without a black.
    ///
    /// A draw is kept within `maximumBlackMilliseconds`: a median near 0 under a large 95th
    /// percentile makes the log-normal's tail reach any length, even infinity, which the clock
    /// could not play.
    public func blackCost(_ stream: String, seed: UInt64, detail: String) -> Transition.Cost? {
        guard let black else { return nil }
        var generator = SeededGenerator.stream(stream, seed: seed)
        let drawn = black.sample(using: &generator)
        let milliseconds = drawn.isNaN ? 0 : min(max(0, drawn), Self.maximumBlackMilliseconds)
        return Transition.Cost(cause: kind.rawValue, milliseconds: milliseconds, source: source, detail: detail)
    }

    /// The greatest black a profile may declare: longer than this is a stall, not a flash of black.
    public static let maximumBlackMilliseconds = 10_000.0

    /// Why the declaration cannot be used, naming the member; nil when it can.
    var problem: (member: String, reason: String)? {
        guard kind.blacksThePicture else {
            if p50Milliseconds != nil || p95Milliseconds != nil {
                return ("p50Milliseconds", "\(kind.rawValue) does not black the picture; only decoder-reinit-black and first-upswitch-black take a duration")
            }
            return nil
        }
        guard let median = p50Milliseconds else {
            return ("p50Milliseconds", "\(kind.rawValue) blacks the picture: give the black's median in milliseconds, with its source")
        }
        guard let p95 = p95Milliseconds else {
            return ("p95Milliseconds", "\(kind.rawValue) blacks the picture: give the black's 95th percentile in milliseconds, with its source")
        }
        for (member, value) in [("p50Milliseconds", median), ("p95Milliseconds", p95)]
        where !value.isFinite || value < 0 || value > Self.maximumBlackMilliseconds {
            return (member, "\(value) ms is outside 0 to \(Int(Self.maximumBlackMilliseconds)) ms")
        }
        if p95 < median {
            return ("p95Milliseconds", "the 95th percentile (\(p95) ms) is below the median (\(median) ms)")
        }
        return nil
    }
}

extension ReceiverProfile {
    /// The profile's declaration of `quirk`, if it has it.
    public func declared(_ quirk: Quirk) -> DeclaredQuirk? {
        quirks?.first { $0.kind == quirk }
    }
}
