import NumberText
/// The presentation mode, and the ad breaks a sender's SDK starts, which depend on it (docs/simulate.md).
///
/// HLS interstitials never look at the mode: the schedule, SKIP, JUMP and resume offsets apply the
/// same in picture in picture. An SDK ad break is different: the SDK starts it on the content player
/// when it falls due, and IMA's rule is that no break starts while picture in picture is active (one
/// already playing continues in the PiP window). What happens instead follows the plan's
/// `sdkAdInPictureInPicture`. Started breaks play through the engine's own break playback, with the
/// plan's transitions, and resume content where it paused.
extension PlaybackEngine {
    /// An SDK ad break that fell due in picture in picture and waits for it to end.
    struct DeferredSDKBreak: Sendable {
        var pod: PlannedPod
        /// Session time at which it fell due.
        var dueAt: Double
    }

    /// AVPictureInPictureController's `requiresLinearPlayback`: true while an interstitial with the
    /// SKIP restriction plays (or is being switched to), so a PiP window offers no skipping either.
    public var requiresLinearPlayback: Bool {
        interstitialCursor?.event.restrictions.contains(.skip) ?? false
    }

    // MARK: - The mode

    mutating func setPresentationMode(_ mode: PresentationMode, command: PlaybackCommand) -> [PlaybackEvent] {
        guard isActive else {
            return [refusal(command, reason: "there is no session to change the presentation mode of")]
        }
        guard mode != presentation.mode else { return [] }
        if mode == .pictureInPicture, let refusal = presentation.pictureInPictureRefusal {
            let why = switch refusal {
            case .notSupported: "this receiver has no picture in picture"
            case .notPossible: "picture in picture is not possible now (another app holds it)"
            }
            return [event(.pipStartFailed(command, mode: presentation.mode), reason: "\(refusal.rawValue): \(why)")]
        }
        return changeMode(to: mode, cause: "asked by the sender", command: command)
    }

    /// Another app taking picture in picture (or giving it back); taking it ends this session's.
    mutating func setPictureInPicturePossible(_ possible: Bool) -> [PlaybackEvent] {
        presentation.pictureInPicturePossible = possible
        guard !possible, isActive, presentation.pictureInPictureActive else { return [] }
        return changeMode(to: .standard, cause: "another app took picture in picture", command: nil)
    }

    private mutating func changeMode(to mode: PresentationMode, cause: String, command: PlaybackCommand?) -> [PlaybackEvent] {
        let from = presentation.mode
        presentation.mode = mode
        return [event(.presentationModeChanged(mode, command: command), reason: "\(from.rawValue) -> \(mode.rawValue): \(cause)")]
    }

    // MARK: - SDK ad breaks

    /// An SDK break the playhead reached (in primary, as every pod is reached): it starts, unless
    /// picture in picture is active.
    mutating func sdkBreakFallsDue(_ pod: PlannedPod) -> [PlaybackEvent] {
        settledSDKBreakIDs.insert(pod.id)
        position = pod.position
        guard presentation.pictureInPictureActive else {
            return beginPod(BreakCursor(pod: pod, position: pod.position))
        }
        let seconds = (pod.members.reduce(0) { $0 + $1.playedDuration }).plainText
        let name = "SDK ad break '\(pod.id)' (\(seconds) s)"
        let fell: PlaybackEvent
        switch plan.sdkAdInPictureInPicture {
        case .skip:
            fell = event(.sdkAdSkipped(eventID: pod.id), reason: "\(name) fell due in picture in picture and was not started")
        case .defer:
            deferredSDKBreaks.append(DeferredSDKBreak(pod: pod, dueAt: now))
            fell = event(.sdkAdDeferred(eventID: pod.id), reason: "\(name) fell due in picture in picture; it starts when picture in picture ends")
        case .attempt:
            fell = event(.sdkAdStartRefused(eventID: pod.id), reason: "pip-active: \(name) cannot start while picture in picture is active")
        }
        // Content plays on; a pod of the schedule's at the same position plays now.
        return [fell] + (endAtTheEnd() ?? startBreakAtPlayhead())
    }

    /// True when a deferred break can start: content playing, out of picture in picture.
    var deferredSDKBreakCanStart: Bool {
        guard !deferredSDKBreaks.isEmpty, rate > 0, !presentation.pictureInPictureActive, case .primary = activity else { return false }
        return true
    }

    /// Starts the first deferred break where content stands now; content resumes there after it. The
    /// switch into it says how late it starts, for listeners that do not keep the report.
    mutating func startDeferredSDKBreak() -> [PlaybackEvent] {
        let deferred = deferredSDKBreaks.removeFirst()
        let delay = (now - deferred.dueAt).plainText
        return beginPod(BreakCursor(pod: deferred.pod, position: position), note: "deferred: due \(delay) s ago, in picture in picture")
    }
}
