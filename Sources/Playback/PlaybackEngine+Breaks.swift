import HLS
import NumberText

/// Breaks: finding the pod the playhead reaches, playing its events and assets, and leaving it.
extension PlaybackEngine {
    /// The pod that primary playing now must not trigger again, if any.
    var primarySuppression: Suppression? {
        if case .primary(let playback) = activity { return playback.suppressed }
        return nil
    }

    /// The next mid-roll pod the playhead will reach, counting one at the playhead itself: a binary
    /// search over the plan's pods, then past the suppressed and retired ones.
    func nextPod(suppressing suppressed: Suppression?) -> PlannedPod? {
        let pods = plan.midPods
        var index = InterstitialPod.firstIndex(atOrAfter: position, in: pods, position: \.position)
        while index < pods.count,
            pods[index].id == suppressed?.podID || retiredPodIDs.contains(pods[index].id) || settledSDKBreakIDs.contains(pods[index].id) {
            index += 1
        }
        return index < pods.count ? pods[index] : nil
    }

    /// True for a CUE=ONCE event that has already started: it never plays again.
    func hasPlayedOnce(_ member: PlannedBreak) -> Bool {
        member.cue.contains(.once) && startedEventIDs.contains(member.eventID)
    }

    /// The mid-roll pod whose replaced primary time contains `target`, if any, by the schedule's
    /// rule (`InterstitialPod.covering`), over the members that can still play.
    func coveringPod(of target: Double, suppressing suppressed: Suppression?) -> PlannedPod? {
        let pods = plan.midPods
        let index = InterstitialPod.covering(target, in: pods, position: \.position) { pod in
            guard pod.id != suppressed?.podID else { return nil }
            let left = pod.members.filter { !hasPlayedOnce($0) }
            if left.count == pod.members.count { return pod.resumeAt }
            guard !left.isEmpty else { return nil }
            return plan.resumeRule.resumePoint(at: pod.position, share: left.reduce(.none) { $0.adding($1.resumeShare) })
        }
        return index.map { pods[$0] }
    }

    /// The pod closest before `target`, among those after `start`, with a JUMP event that can still play.
    func closestJumpPod(after start: Double, upTo target: Double) -> (pod: PlannedPod, event: String)? {
        let pods = plan.midPods
        var index = InterstitialPod.firstIndex(atOrAfter: target + 2 * Self.tolerance, in: pods, position: \.position)
        while index > 0 {
            index -= 1
            let pod = pods[index]
            guard pod.position > start else { return nil }
            guard pod.position <= target else { continue }
            if let jump = pod.members.first(where: { $0.restrictions.contains(.jump) && !hasPlayedOnce($0) }) {
                return (pod, jump.eventID)
            }
        }
        return nil
    }

    /// Starts a mid-roll pod at its position.
    mutating func startPod(_ pod: PlannedPod, joinOffset: Double? = nil, seekAfterwards: Double? = nil) -> [PlaybackEvent] {
        if pod.members.first?.startedBySDK == true { return sdkBreakFallsDue(pod) }
        position = pod.position
        var cursor = BreakCursor(pod: pod, position: pod.position)
        cursor.joinOffset = joinOffset
        cursor.seekAfterwards = seekAfterwards
        return beginPod(cursor)
    }

    /// Starts a pod; `note` is added to the reason of the switch into its first event.
    mutating func beginPod(_ cursor: BreakCursor, note: String? = nil) -> [PlaybackEvent] {
        advanceToPlayableEvent(cursor, from: 0, transitionFromPrimary: true, note: note)
    }

    /// Starts the first event at or after `member` that can play, reporting the ones skipped.
    mutating func advanceToPlayableEvent(
        _ start: BreakCursor, from member: Int, transitionFromPrimary: Bool, note: String? = nil
    ) -> [PlaybackEvent] {
        var cursor = start
        var events: [PlaybackEvent] = []
        for index in member..<cursor.pod.members.count {
            let event = cursor.pod.members[index]
            let skipReason: String?
            // Whether the event still moves primary on: a CUE=ONCE event already played, a cancelled one
            // and one whose assets this receiver cannot play replace nothing; an empty asset list counts
            // with the offset the schedule gave it (X-RESUME-OFFSET or 0).
            var counts = true
            if hasPlayedOnce(event) {
                skipReason = "CUE=ONCE: it has already played"
                counts = false
            } else if let failure = event.failure {
                skipReason = "it failed (\(failure)); primary resumes where it stopped"
                counts = false
            } else if event.assets.isEmpty {
                skipReason = "its asset list is empty"
            } else if event.playableAssets.isEmpty {
                skipReason = "none of its assets can play (\(event.assets.compactMap(\.failure).first ?? "unknown")); primary resumes where it stopped"
                counts = false
            } else {
                skipReason = nil
            }
            if counts {
                cursor.counted = cursor.counted.adding(event.resumeShare)
            } else {
                cursor.allCounted = false
            }
            if let skipReason {
                events.append(self.event(.breakSkipped(eventID: event.eventID), reason: "interstitial '\(event.eventID)' is skipped: \(skipReason)"))
                continue
            }
            if let join = cursor.joinOffset, join >= event.playedDuration - Self.tolerance {
                // The viewer joins after this event ended: it counts, but nothing of it plays.
                cursor.joinOffset = join - event.playedDuration
                continue
            }
            cursor.member = index
            cursor.eventElapsed = 0
            cursor.offset = 0
            cursor.asset = 0
            cursor.startsEvent = true
            cursor.played.insert(index)
            events += skipFailedAssets(&cursor)
            if cursor.asset >= event.assets.count {
                // Every asset failed while it was being preloaded: nothing of the event can play.
                events.append(self.event(.breakSkipped(eventID: event.eventID), reason: "interstitial '\(event.eventID)' is skipped: none of its assets could be fetched"))
                continue
            }
            if let join = cursor.joinOffset {
                cursor.joinOffset = nil
                joinEvent(&cursor, at: join)
            }
            let reason = (transitionFromPrimary
                ? "switching from primary to interstitial '\(event.eventID)'" : "switching to interstitial '\(event.eventID)'")
                + (note.map { " (\($0))" } ?? "")
            activity = .transition(Switch(until: now + event.transitionIn.seconds, then: .asset(cursor)))
            return events + switchStarted(event.transitionIn, BreakPlace(event.eventID, asset: cursor.asset), reason: reason)
        }
        return events + leaveBreak(cursor, resumeAt: nil, reason: "the break is over")
    }

    /// Where primary resumes after a pod: the schedule's point when every member counted where the
    /// schedule placed the pod, else the schedule's rule over the members that counted.
    func resumePoint(of cursor: BreakCursor) -> Double {
        if cursor.allCounted, abs(cursor.position - cursor.pod.position) <= Self.tolerance, let resumeAt = cursor.pod.resumeAt {
            return resumeAt
        }
        return plan.resumeRule.resumePoint(at: cursor.position, share: cursor.counted)
    }

    /// Moves the cursor to `offset` seconds into the current event's playable assets.
    func joinEvent(_ cursor: inout BreakCursor, at offset: Double) {
        var remaining = offset
        while cursor.asset < cursor.event.assets.count {
            let asset = cursor.currentAsset
            if asset.failure == nil {
                if remaining < asset.duration { break }
                remaining -= asset.duration
                cursor.eventElapsed += asset.duration
            }
            cursor.asset += 1
        }
        cursor.offset = remaining
    }

    /// Moves the cursor past failed assets of the current event, reporting each.
    func skipFailedAssets(_ cursor: inout BreakCursor) -> [PlaybackEvent] {
        var events: [PlaybackEvent] = []
        while cursor.asset < cursor.event.assets.count, let failure = cursor.currentAsset.failure ?? preloadFailure(of: cursor) {
            events.append(event(.assetSkipped(AssetPlace(cursor.event.eventID, index: cursor.asset, uri: cursor.currentAsset.uri)),
                reason: "asset \(cursor.asset + 1) of '\(cursor.event.eventID)' is skipped: \(failure)"))
            cursor.asset += 1
        }
        return events
    }

    mutating func startAsset(_ starting: BreakCursor, queuedSeek: Double?) -> [PlaybackEvent] {
        var cursor = starting
        var events: [PlaybackEvent] = []
        if cursor.startsEvent {
            cursor.startsEvent = false
            startedEventIDs.insert(cursor.event.eventID)
            events.append(event(.interstitialStarted(BreakPlace(cursor.event.eventID, asset: cursor.asset), mode: presentation.mode == .standard ? nil : presentation.mode),
                reason: "interstitial '\(cursor.event.eventID)' started"))
        }
        activity = .interstitial(cursor)
        var uri = cursor.currentAsset.uri
        var reason = "asset \(cursor.asset + 1) of '\(cursor.event.eventID)' started"
        let joinedAt = cursor.eventElapsed + cursor.offset
        if joinedAt > Self.tolerance && cursor.offset > Self.tolerance {
            // Joined mid-way: the receiver asks the origin for the asset from where the break is now.
            uri += "\(uri.contains("?") ? "&" : "?")_HLS_start_offset=\(joinedAt.plainText)"
            reason = "joined asset \(cursor.asset + 1) of '\(cursor.event.eventID)' \(cursor.offset.plainText) s in"
        }
        events += [
            event(.assetStarted(AssetPlace(cursor.event.eventID, index: cursor.asset, uri: uri)), reason: reason),
            event(.stateChanged(in: BreakPlace(cursor.event.eventID), startup: nil), reason: "the interstitial is playing"),
        ]
        if let target = queuedSeek {
            // A seek that arrived during the switch into the interstitial, and that its restrictions allowed.
            events += leaveInterstitial(cursor, for: target)
        }
        return events
    }

    mutating func finishAsset(_ finished: BreakCursor) -> [PlaybackEvent] {
        let limitReached = finished.event.playoutLimit.map { finished.eventElapsed + finished.offset >= $0 - 1e-9 } ?? false
        let ended = event(.assetEnded(AssetPlace(finished.event.eventID, index: finished.asset, uri: finished.currentAsset.uri)),
            reason: limitReached ? "X-PLAYOUT-LIMIT reached" : "the asset played to its end")
        return [ended] + moveOn(from: finished, limitReached: limitReached)
    }

    /// After the cursor's asset is over (played, cut by the playout limit, or failed): the event's next
    /// asset that can play, else the next event, else primary.
    mutating func moveOn(from finished: BreakCursor, limitReached: Bool = false) -> [PlaybackEvent] {
        var cursor = finished
        var events: [PlaybackEvent] = []
        cursor.eventElapsed += cursor.offset
        cursor.offset = 0
        if !limitReached {
            cursor.asset += 1
            events += skipFailedAssets(&cursor)
            if cursor.asset < cursor.event.assets.count {
                let transition = cursor.currentAsset.transitionFromPrevious
                activity = .transition(Switch(until: now + transition.seconds, then: .asset(cursor)))
                return events + switchStarted(transition, BreakPlace(cursor.event.eventID, asset: cursor.asset),
                    reason: "switching to asset \(cursor.asset + 1) of '\(cursor.event.eventID)'")
            }
        }
        events.append(event(.interstitialEnded(BreakPlace(cursor.event.eventID, asset: cursor.asset)),
            reason: limitReached ? "X-PLAYOUT-LIMIT cut the interstitial" : "the interstitial played to its end"))
        return events + advanceToPlayableEvent(cursor, from: cursor.member + 1, transitionFromPrimary: false)
    }

    /// Ends a pod: back to primary at the resume point (or `resumeAt` when given), or the end after POST.
    mutating func leaveBreak(_ cursor: BreakCursor, resumeAt explicit: Double?, reason: String, then seek: DeferredSeek? = nil) -> [PlaybackEvent] {
        let placement = cursor.pod.placement
        if placement == .post {
            retiredPodIDs.insert(cursor.pod.id)
            return itemEnded(reason: "the primary content and its POST interstitials played to the end")
        }
        let resume = explicit ?? resumePoint(of: cursor)
        if explicit == nil, placement == .mid, resume < cursor.position - Self.tolerance {
            retiredPodIDs.insert(cursor.pod.id)
        }
        let resumption = Resumption(
            position: resume,
            suppressed: placement == .mid ? Suppression(podID: cursor.pod.id, position: cursor.position) : nil,
            deferredSeek: seek ?? cursor.seekAfterwards.map(DeferredSeek.afterJump), startsPlayback: placement == .pre)
        guard let lastPlayed = cursor.played.max().map({ cursor.pod.members[$0] }) else {
            // Nothing played: no switch away from primary happened, so none back either.
            if resumption.startsPlayback {
                return enterPrimary(resumption, reason: "the primary content started")
            }
            let moved = abs(resume - position) > Self.tolerance
            position = resume
            activity = .primary(PrimaryPlayback(suppressed: resumption.suppressed))
            let events = moved ? [stateChanged("primary moves on by the resume offset of a break that played nothing")] : []
            return events + (takeDeferredSeek(resumption.deferredSeek) ?? endAtTheEnd() ?? [])
        }
        if placement == .pre, let quirk = plan.prerollContentStall {
            // The device never shows the content after a pre-roll: the session is lost there.
            activity = .ended
            return [event(.ended, state: .failed,
                reason: "quirk \(quirk.kind.rawValue): the switch from pre-roll '\(lastPlayed.eventID)' to the content stalled for good, as on this device (\(quirk.source))")]
        }
        activity = .transition(Switch(until: now + lastPlayed.transitionOut.seconds, then: .primary(resumption)))
        return switchStarted(lastPlayed.transitionOut, BreakPlace(lastPlayed.eventID),
            reason: "switching from interstitial '\(lastPlayed.eventID)' back to primary (\(reason))")
    }

    var interstitialCursor: BreakCursor? {
        switch activity {
        case .interstitial(let cursor): cursor
        case .transition(let change): if case .asset(let cursor) = change.then { cursor } else { nil }
        default: nil
        }
    }
}

extension PlaybackEngine {
    /// Whether the engine is in a break (switching into, playing, or switching out of it): the time a
    /// grouped participant holds a `playingInterstitial` suspension.
    package var isInBreak: Bool {
        switch activity {
        case .interstitial, .transition: true
        default: false
        }
    }

    /// Whether primary is playing (or paused in primary): not loading, in a break or ended.
    package var isInPrimary: Bool {
        if case .primary = activity { true } else { false }
    }
}
