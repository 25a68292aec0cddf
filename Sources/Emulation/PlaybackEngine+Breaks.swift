import HLS

/// Breaks: finding the group the playhead reaches, playing its events and assets, and leaving it.
extension PlaybackEngine {
    /// The position of the next mid-roll group the playhead will reach, counting one at the playhead itself.
    func nextBreakPosition() -> Double? {
        plan.breaks.lazy
            .filter { !$0.cue.contains(.pre) && !$0.cue.contains(.post) }
            .map(\.position)
            .filter { $0 >= position - Self.tolerance && $0 != suppressedGroupPosition && !retiredGroupPositions.contains($0) }
            .min()
    }

    /// The JUMP event closest before `target` among those after `start`.
    func closestJumpEvent(after start: Double, upTo target: Double) -> PlannedBreak? {
        plan.breaks.filter {
            $0.restrictions.contains(.jump) && !$0.cue.contains(.pre) && !$0.cue.contains(.post)
                && $0.position > start && $0.position <= target && !($0.cue.contains(.once) && startedEventIDs.contains($0.eventID))
        }.max { $0.position < $1.position }
    }

    mutating func startGroup(at groupPosition: Double) -> [PlaybackEvent] {
        let group = plan.breaks.filter {
            !$0.cue.contains(.pre) && !$0.cue.contains(.post) && $0.position == groupPosition
        }
        position = groupPosition
        return beginGroup(group, placement: .mid)
    }

    mutating func beginGroup(_ group: [PlannedBreak], placement: BreakCursor.Placement) -> [PlaybackEvent] {
        let cursor = BreakCursor(group: group, placement: placement, member: 0, asset: 0)
        return advanceToPlayableEvent(cursor, from: 0, transitionFromPrimary: true)
    }

    /// Starts the first event at or after `member` that can play, reporting the ones skipped.
    mutating func advanceToPlayableEvent(
        _ start: BreakCursor, from member: Int, transitionFromPrimary: Bool
    ) -> [PlaybackEvent] {
        var cursor = start
        var events: [PlaybackEvent] = []
        var index = member
        while true {
            if index >= cursor.group.count {
                absorbBreaksInSkippedTime(&cursor)
                if index >= cursor.group.count { break }
            }
            let event = cursor.group[index]
            let skipReason: String? =
                if event.cue.contains(.once) && startedEventIDs.contains(event.eventID) {
                    "CUE=ONCE: it has already played"
                } else if let failure = event.failure {
                    "it failed (\(failure)); primary resumes where it stopped"
                } else if event.assets.isEmpty {
                    "its asset list is empty"
                } else if event.playableAssets.isEmpty {
                    "none of its assets can play (\(event.assets.compactMap(\.failure).first ?? "unknown")); primary resumes where it stopped"
                } else {
                    nil
                }
            if let skipReason {
                events.append(self.event(.breakSkipped, eventID: event.eventID, reason: "interstitial '\(event.eventID)' is skipped: \(skipReason)"))
                if event.assets.isEmpty && event.failure == nil {
                    // An empty asset list still moves primary by its X-RESUME-OFFSET (Appendix D.5).
                    cursor.resumeOffsetTotal += event.resumeOffset
                    cursor.snapsIn = cursor.snapsIn || event.snap.contains(.in)
                }
                index += 1
                continue
            }
            cursor.resumeOffsetTotal += event.resumeOffset
            cursor.snapsIn = cursor.snapsIn || event.snap.contains(.in)
            if let join = joinOffset, join >= event.playedDuration - Self.tolerance {
                // The viewer joins after this event ended: it counts, but nothing of it plays.
                joinOffset = join - event.playedDuration
                index += 1
                continue
            }
            cursor.member = index
            cursor.eventElapsed = 0
            cursor.offset = 0
            cursor.asset = 0
            cursor.startsEvent = true
            cursor.played.insert(index)
            events += skipFailedAssets(&cursor)
            if let join = joinOffset {
                joinOffset = nil
                joinEvent(&cursor, at: join)
            }
            var started = self.event(.transitionStarted, eventID: event.eventID, assetIndex: cursor.asset,
                reason: transitionFromPrimary ? "switching from primary to interstitial '\(event.eventID)'" : "switching to interstitial '\(event.eventID)'")
            started.transition = event.transitionIn
            activity = .transition(until: now + event.transitionIn.seconds, then: .asset(cursor))
            started.state = .transitioning
            return events + [started]
        }
        return events + leaveBreak(cursor, resumeAt: nil, reason: "the break is over")
    }

    /// Where primary resumes after a mid-roll group: its position plus the offsets that count, snapped
    /// under X-SNAP IN, kept inside the content.
    func resumePoint(of cursor: BreakCursor) -> Double {
        var point = (cursor.group.first?.position ?? position) + cursor.resumeOffsetTotal
        if cursor.snapsIn {
            point = PrimaryTimeline.nearest(in: plan.segmentBoundaries, to: point)
        }
        return plan.isLive ? max(0, point) : min(max(0, point), plan.primaryDuration)
    }

    /// Adds to a finishing mid-roll group the events inside the primary time it skips: AVFoundation
    /// plays them right after it, as if they coincided, and their offsets add up.
    func absorbBreaksInSkippedTime(_ cursor: inout BreakCursor) {
        guard cursor.placement == .mid, let groupPosition = cursor.group.first?.position else { return }
        let resume = resumePoint(of: cursor)
        let known = Set(cursor.group.map(\.eventID))
        let inside = plan.breaks.filter {
            !$0.cue.contains(.pre) && !$0.cue.contains(.post) && !known.contains($0.eventID)
                && $0.position > groupPosition + Self.tolerance && $0.position < resume - Self.tolerance
        }
        cursor.group += inside.sorted { $0.position < $1.position }
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
        while cursor.asset < cursor.event.assets.count, let failure = cursor.currentAsset.failure {
            var skipped = event(.assetSkipped, eventID: cursor.event.eventID, assetIndex: cursor.asset,
                reason: "asset \(cursor.asset + 1) of '\(cursor.event.eventID)' is skipped: \(failure)")
            skipped.assetURI = cursor.currentAsset.uri
            events.append(skipped)
            cursor.asset += 1
        }
        return events
    }

    mutating func startAsset(_ starting: BreakCursor) -> [PlaybackEvent] {
        var cursor = starting
        var events: [PlaybackEvent] = []
        if cursor.startsEvent {
            cursor.startsEvent = false
            startedEventIDs.insert(cursor.event.eventID)
            events.append(event(.interstitialStarted, eventID: cursor.event.eventID, assetIndex: cursor.asset,
                reason: "interstitial '\(cursor.event.eventID)' started"))
        }
        activity = .interstitial(cursor)
        var started = event(.assetStarted, eventID: cursor.event.eventID, assetIndex: cursor.asset,
            reason: "asset \(cursor.asset + 1) of '\(cursor.event.eventID)' started")
        started.assetURI = cursor.currentAsset.uri
        let joinedAt = cursor.eventElapsed + cursor.offset
        if joinedAt > Self.tolerance && cursor.offset > Self.tolerance {
            // Joined mid-way: the receiver asks the origin for the asset from where the break is now.
            let separator = started.assetURI!.contains("?") ? "&" : "?"
            started.assetURI! += "\(separator)_HLS_start_offset=\(PlaybackCommand.format(joinedAt))"
            started.reason = "joined asset \(cursor.asset + 1) of '\(cursor.event.eventID)' \(PlaybackCommand.format(cursor.offset)) s in"
        }
        events += [started, event(.stateChanged, eventID: cursor.event.eventID, reason: "the interstitial is playing")]
        if let target = queuedSeek {
            // A seek that arrived during the switch into the interstitial, and that its restrictions allowed.
            queuedSeek = nil
            events += leaveInterstitial(cursor, for: target)
        }
        return events
    }

    mutating func finishAsset(_ finished: BreakCursor) -> [PlaybackEvent] {
        var cursor = finished
        let limitReached = cursor.event.playoutLimit.map { cursor.eventElapsed + cursor.offset >= $0 - 1e-9 } ?? false
        var ended = event(.assetEnded, eventID: cursor.event.eventID, assetIndex: cursor.asset,
            reason: limitReached ? "X-PLAYOUT-LIMIT reached" : "the asset played to its end")
        ended.assetURI = cursor.currentAsset.uri
        var events = [ended]

        cursor.eventElapsed += cursor.offset
        cursor.offset = 0
        if !limitReached {
            cursor.asset += 1
            events += skipFailedAssets(&cursor)
            if cursor.asset < cursor.event.assets.count {
                let transition = cursor.currentAsset.transitionFromPrevious
                var started = event(.transitionStarted, eventID: cursor.event.eventID, assetIndex: cursor.asset,
                    reason: "switching to asset \(cursor.asset + 1) of '\(cursor.event.eventID)'")
                started.transition = transition
                started.state = .transitioning
                activity = .transition(until: now + transition.seconds, then: .asset(cursor))
                return events + [started]
            }
        }
        events.append(event(.interstitialEnded, eventID: cursor.event.eventID, assetIndex: cursor.asset,
            reason: limitReached ? "X-PLAYOUT-LIMIT cut the interstitial" : "the interstitial played to its end"))
        return events + advanceToPlayableEvent(cursor, from: cursor.member + 1, transitionFromPrimary: false)
    }

    /// Ends a group: back to primary at the resume point (or `resumeAt` when given), or the end after POST.
    mutating func leaveBreak(_ cursor: BreakCursor, resumeAt explicit: Double?, reason: String) -> [PlaybackEvent] {
        let groupPosition = cursor.group.first?.position ?? position
        if cursor.placement == .post {
            activity = .ended
            return [event(.ended, reason: "the primary content and its POST interstitials played to the end")]
        }
        let anyPlayed = !cursor.played.isEmpty
        let resume = explicit ?? (cursor.placement == .pre ? startPosition : resumePoint(of: cursor))
        if explicit == nil, cursor.placement == .mid, resume < groupPosition - Self.tolerance {
            retiredGroupPositions.insert(groupPosition)
        }
        suppressedGroupPosition = cursor.placement == .mid ? groupPosition : nil
        guard anyPlayed else {
            // Nothing played: no switch away from primary happened, so none back either.
            let moved = abs(resume - position) > Self.tolerance
            position = resume
            activity = .primary
            let events = moved ? [event(.stateChanged, reason: "primary moves on by the resume offset of a break that played nothing")] : []
            return events + continuePrimary()
        }
        let lastPlayed = cursor.group[cursor.played.max()!]
        var started = event(.transitionStarted, eventID: lastPlayed.eventID,
            reason: "switching from interstitial '\(lastPlayed.eventID)' back to primary (\(reason))")
        started.transition = lastPlayed.transitionOut
        started.state = .transitioning
        activity = .transition(until: now + lastPlayed.transitionOut.seconds, then: .primary(at: resume))
        return [started]
    }

    /// After a group that played nothing: carry on in primary as if no break had been there.
    mutating func continuePrimary() -> [PlaybackEvent] {
        takeDeferredSeek() ?? endAtTheEnd() ?? []
    }

    var interstitialCursor: BreakCursor? {
        switch activity {
        case .interstitial(let cursor), .transition(_, .asset(let cursor)): cursor
        default: nil
        }
    }
}
