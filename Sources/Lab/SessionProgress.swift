import Foundation
import HLS
import SenderProtocol

/// What a sender knows of one session while it plays, folded from the receiver's events and polls:
/// the line a progress display shows.
public struct SessionProgress: Sendable, Equatable {
    /// `connecting`, `loading`, then the engine's states (`playing-primary`, `transitioning`, …), `ended`.
    public var state = "connecting"
    public var sessionID: String?
    /// The interstitial playing (or being switched into), and which of its assets.
    public var interstitial: String?
    public var assetIndex: Int?
    /// How long the most recent switch into or out of an interstitial blacks out, as the receiver planned it.
    public var lastSwitchMilliseconds: Double?
    /// From `GET /scrub`: in primary, the primary position; in an interstitial, the position in it.
    public var position: Double?
    public var duration: Double?
    public var interstitialsPlayed = 0
    public var interstitialsSkipped = 0
    public var refusals = 0
    public var endReason: String?
    public var failure: String?

    public init() {}

    /// Takes one event of the session (the caller filters out other sessions' events); one this sender
    /// cannot read changes nothing.
    public mutating func apply(_ sessionEvent: SessionEvent) {
        guard let event = sessionEvent.event else { return }
        state = event.state.rawValue
        switch event.detail {
        case .transitionStarted(let transition, let place):
            lastSwitchMilliseconds = transition.totalMilliseconds
            // A switch into an asset names it; the one back to primary does not.
            interstitial = place.assetIndex == nil ? nil : place.eventID
            assetIndex = place.assetIndex
        case .interstitialStarted(let place, _):
            interstitialsPlayed += 1
            interstitial = place.eventID
        case .assetStarted(let asset):
            interstitial = asset.eventID
            assetIndex = asset.index
        case .interstitialEnded:
            interstitial = nil
            assetIndex = nil
        case .breakSkipped:
            interstitialsSkipped += 1
        case .commandRefused:
            refusals += 1
        case .ended:
            state = "ended"
            endReason = event.reason
            interstitial = nil
            assetIndex = nil
        default:
            break
        }
        switch event.kind {
        case .transitionStarted, .interstitialStarted, .assetStarted, .interstitialEnded:
            // Polls measure within what plays: a new context starts without the old one's numbers.
            position = nil
            duration = nil
        default:
            break
        }
        // Events carry primary positions; inside an interstitial only polls know where it is.
        if interstitial == nil && event.kind != .transitionStarted { position = event.position }
    }

    public mutating func apply(_ progress: PlaybackProgress) {
        guard endReason == nil else { return }
        position = progress.position ?? position
        duration = progress.duration ?? duration
    }

    /// One line: `playing-interstitial 'ad-2' asset 1  2.0 / 4.0 s  | last switch 1520 ms`.
    public var line: String {
        if let failure { return "error: \(failure)" }
        if state == "ended" {
            return "ended" + (endReason.map { " (\($0))" } ?? "") + "; \(interstitialsPlayed) interstitial(s) played"
                + (interstitialsSkipped > 0 ? ", \(interstitialsSkipped) skipped" : "")
                + (lastSwitchMilliseconds.map { ", last switch \(Int(roundingSaturated: $0)) ms" } ?? "")
        }
        var parts = [state]
        if let interstitial {
            parts.append("'\(interstitial)'" + (assetIndex.map { " asset \($0 + 1)" } ?? ""))
        }
        if let position {
            parts.append(Self.seconds(position) + (duration.map { " / " + Self.seconds($0) } ?? "") + " s")
        }
        if let lastSwitchMilliseconds {
            parts.append("| last switch \(Int(roundingSaturated: lastSwitchMilliseconds)) ms")
        }
        if refusals > 0 { parts.append("| \(refusals) refused") }
        return parts.joined(separator: "  ")
    }

    static func seconds(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
