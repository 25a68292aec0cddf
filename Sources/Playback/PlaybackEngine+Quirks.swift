import NumberText
import Profiles

/// Device quirks the engine plays on its clock (docs/profiles.md, "Quirks"); the pre-roll stall is
/// played where a pod ends (`PlaybackEngine+Breaks.swift`).
///
/// - `decoder-reinit-black`: the planner put the black on the switches it applies to, as a cost of
///   their video path; the engine plays it with the switch and says so where the switch starts.
/// - `first-upswitch-black`: the first switch of primary to a higher variant in a session blacks the
///   picture where the first segment of that variant plays (the one fetched next after the switch,
///   at the end of what was buffered), for the black the plan drew; the playhead and the audio go
///   on. Later switches up do not.
/// - `eager-asset-lists`: when the cast is accepted, and when a live reload brings new breaks, the
///   device resolves the X-ASSET-LIST of every break after the start at once, rather than as
///   playback approaches each; a pre-roll's list is resolved at load by every device, so it is not
///   counted.
/// Each says so with a `quirk-fired` event, whose reason cites the profile's source.
extension PlaybackEngine {
    /// What the quirks remember between calls.
    struct QuirkState: Sendable {
        /// Primary has switched to a higher variant once: the black does not come again.
        var hasSwitchedUp = false
        /// Where on the primary timeline the first up-switch's variant starts to play, and which it is.
        var pendingBlack: (position: Double, variant: String)?
        /// Breaks whose asset list the eager device has resolved.
        var resolvedAssetLists: Set<String> = []
    }

    /// The start of a switch into a break, between its assets or back to primary, with the quirks
    /// whose black it plays (a cost named after the quirk).
    func switchStarted(_ transition: Transition, _ place: BreakPlace, reason: String) -> [PlaybackEvent] {
        let started = event(.transitionStarted(transition, place), reason: reason)
        return [started] + transition.video.compactMap { cost in
            guard let quirk = Quirk(rawValue: cost.cause) else { return nil }
            let milliseconds = Int(cost.milliseconds.rounded())
            let why = cost.detail.map { " (\($0))" } ?? ""
            return event(.quirkFired(quirk, in: place),
                reason: "quirk \(quirk.rawValue): \(reason) re-creates the video decoder\(why): black for \(milliseconds) ms (\(cost.source))")
        }
    }

    /// After a switch of primary up to `variant`: the first one arms the black where the variant's
    /// first segment plays.
    mutating func noteUpSwitch(to variant: String) {
        guard !quirks.hasSwitchedUp else { return }
        quirks.hasSwitchedUp = true
        guard plan.firstUpSwitchBlack != nil, let track = buffering.track(.primary) else { return }
        quirks.pendingBlack = (max(track.bufferedEnd, position), variant)
    }

    /// Whether primary's playhead has reached the first segment of the first variant switched up to.
    var upSwitchBlackIsDue: Bool {
        guard let pending = quirks.pendingBlack else { return false }
        return pending.position <= position + Self.tolerance
    }

    /// The black of the first up-switch, now that the playhead meets its variant.
    mutating func showUpSwitchBlack() -> [PlaybackEvent] {
        guard let pending = quirks.pendingBlack, let black = plan.firstUpSwitchBlack else { return [] }
        quirks.pendingBlack = nil
        let milliseconds = Int(black.milliseconds.rounded())
        return [event(.quirkFired(black.quirk.kind, in: nil),
            reason: "quirk \(black.quirk.kind.rawValue): the picture is black for \(milliseconds) ms where the first variant switched up to "
                + "(\(pending.variant)) starts to play, at \(position.plainText) s (\(black.quirk.source))")]
    }

    /// The asset lists an eager device resolves now: those of every break after the start it has not
    /// resolved yet, in the order the breaks play.
    mutating func resolveAssetListsEagerly(_ moment: String) -> [PlaybackEvent] {
        guard let quirk = plan.eagerAssetLists else { return [] }
        var events: [PlaybackEvent] = []
        for pod in plan.pods where pod.placement != .pre {
            for member in pod.members {
                guard let list = member.assetList, !quirks.resolvedAssetLists.contains(member.eventID) else { continue }
                quirks.resolvedAssetLists.insert(member.eventID)
                let place = pod.placement == .post ? "after the content" : "at \(pod.position.plainText) s"
                events.append(event(.quirkFired(quirk.kind, in: BreakPlace(member.eventID)),
                    reason: "quirk \(quirk.kind.rawValue): the asset list of '\(member.eventID)' (\(list)) is resolved \(moment), "
                        + "not as playback approaches its break \(place) (\(quirk.source))"))
            }
        }
        return events
    }
}
