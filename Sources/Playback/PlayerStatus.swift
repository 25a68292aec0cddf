/// What `AVPlayer.timeControlStatus` and `reasonForWaitingToPlay` say of a player, spelled as
/// AVFoundation names their cases: `/playback-info` shows it, and group reports record its changes.
public struct PlayerStatus: Sendable, Hashable {
    /// `AVPlayer.TimeControlStatus`.
    public enum TimeControl: String, Sendable, Hashable, Codable, CaseIterable {
        case paused
        case waitingToPlayAtSpecifiedRate
        case playing
    }

    /// `AVPlayer.WaitingReason`: why a player that was asked to play waits.
    public enum WaitingReason: String, Sendable, Hashable, Codable, CaseIterable {
        case toMinimizeStalls
        case evaluatingBufferingRate
        case noItemToPlay
        case interstitialEvent
        case waitingForCoordinatedPlayback
    }

    public var timeControl: TimeControl
    /// Set only while waiting.
    public var waitingReason: WaitingReason?

    public static let paused = PlayerStatus(timeControl: .paused)
    public static let playing = PlayerStatus(timeControl: .playing)

    public init(timeControl: TimeControl, waitingReason: WaitingReason? = nil) {
        self.timeControl = timeControl
        self.waitingReason = timeControl == .waitingToPlayAtSpecifiedRate ? waitingReason : nil
    }

    public static func waiting(_ reason: WaitingReason) -> PlayerStatus {
        PlayerStatus(timeControl: .waitingToPlayAtSpecifiedRate, waitingReason: reason)
    }
}
