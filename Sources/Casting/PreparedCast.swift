import HLS
import Loading
import Playback

/// What a cast needs that does not depend on the receiver: the playlist, its interstitial events
/// (with the sender's applied) and their resolved assets. Prepared once, planned per profile.
public struct PreparedCast: Sendable {
    public var request: CastRequest
    /// Where the playlist was read from, after redirects.
    public var location: ResourceLocation
    public var multivariant: MultivariantPlaylist?
    /// The media playlist the events came from: the playlist itself, or the first variant's.
    public var media: MediaPlaylist
    public var mediaLocation: ResourceLocation
    public var events: [InterstitialEvent]
    public var resolution: AssetResolution
    /// Everything noticed while reading the playlist and its assets.
    public var diagnostics: [Diagnostic]
}

/// What the sender asked for.
public struct CastRequest: Sendable {
    /// A path or an http(s) URL, as the user gave it.
    public var playlist: String
    public var startPosition: Double?
    public var clientEvents: ClientEvents?
    /// False plays the primary content without the playlist's interstitials (an ad-free plan);
    /// the sender's own events still apply.
    public var automaticallyHandlesInterstitials: Bool
    public var preferredLanguage: String?
    /// Ad breaks the sender's ad SDK starts itself, and what it does with one due in picture in picture.
    public var sdkAds: SDKAdSchedule?
    public var sdkAdInPictureInPicture = SDKAdInPictureInPicture.skip

    public init(
        playlist: String, startPosition: Double? = nil, clientEvents: ClientEvents? = nil,
        automaticallyHandlesInterstitials: Bool = true, preferredLanguage: String? = nil
    ) {
        self.playlist = playlist
        self.startPosition = startPosition
        self.clientEvents = clientEvents
        self.automaticallyHandlesInterstitials = automaticallyHandlesInterstitials
        self.preferredLanguage = preferredLanguage
    }
}
