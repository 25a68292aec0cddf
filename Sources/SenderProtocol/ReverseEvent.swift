import HLS
import Playback

/// One event as a `/reverse` listener receives it: the property list of a `POST /event` request,
/// in the legacy keys senders know (`category`, `state`, `sessionID`, `reason`) and airlab's own
/// (`airlab.kind`, `airlab.position`, `airlab.interstitial`, `airlab.restriction`).
public struct ReverseEvent: Sendable, Equatable, Codable {
    /// The legacy state names senders know.
    public enum LegacyState: String, Sendable, Codable {
        case loading, playing, paused, stopped

        public init(_ state: PlaybackState) {
            switch state {
            case .idle, .ended, .failed: self = .stopped
            // A sender shows a stall as buffering, as it shows loading.
            case .loading, .transitioning, .stalled: self = .loading
            case .playingPrimary, .playingInterstitial: self = .playing
            case .paused: self = .paused
            }
        }
    }

    public var category = "video"
    public var state: WireName<LegacyState>
    /// The sender's session ID (`X-Apple-Session-ID` of its `/play` or `/reverse`).
    public var sessionID: String?
    public var reason: String?
    public var kind: WireName<PlaybackEvent.Kind>
    public var position: Double?
    public var interstitial: String?
    public var restriction: WireName<InterstitialEvent.Restriction>?
    public var presentationMode: WireName<PresentationMode>?

    public init(_ event: PlaybackEvent, sessionID: String?) {
        state = WireName(LegacyState(event.state))
        self.sessionID = sessionID
        reason = event.reason
        kind = WireName(event.kind)
        position = event.position
        interstitial = event.eventID
        restriction = event.restriction.map(WireName.init)
        presentationMode = event.mode.map(WireName.init)
    }

    enum CodingKeys: String, CodingKey {
        case category, state, sessionID, reason
        case kind = "airlab.kind", position = "airlab.position", interstitial = "airlab.interstitial"
        case restriction = "airlab.restriction", presentationMode = "airlab.presentationMode"
    }
}
