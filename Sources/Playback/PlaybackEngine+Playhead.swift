import NumberText
/// Where things play, for buffering: the playhead as a rendition and offset, what to preload after
/// it, and how a live window that moved on past the playhead is caught up with.
extension PlaybackEngine {
    func playhead() -> Playhead? {
        switch activity {
        case .idle, .ended:
            return nil
        case .loading(_, let start):
            return Playhead(key: .primary, list: primaryList, offset: start, advancing: false)
        case .primary:
            return Playhead(key: .primary, list: primaryList, offset: position, advancing: rate > 0)
        case .transition(let change):
            switch change.then {
            case .asset(let cursor): return Playhead(key: assetKey(cursor), list: cursor.currentAsset.segments, offset: cursor.offset, advancing: false)
            case .primary(let resumption): return Playhead(key: .primary, list: primaryList, offset: resumption.position, advancing: false)
            }
        case .interstitial(let cursor):
            return Playhead(key: assetKey(cursor), list: cursor.currentAsset.segments, offset: cursor.offset, advancing: rate > 0)
        }
    }

    func assetKey(_ cursor: BreakCursor) -> TrackKey {
        .asset(pod: cursor.pod.id, member: cursor.member, asset: cursor.asset)
    }

    /// What to preload while `head` plays, if its time has come: the break's first asset before a
    /// break, the next asset (or primary's resume point) once the current asset is buffered to its end.
    func preloadTarget(after head: Playhead) -> Playhead? {
        guard buffering.fetchesSegments else { return nil }
        switch activity {
        case .primary:
            guard let next = nextPod(suppressing: primarySuppression), !(next.members.first?.startedBySDK ?? true) else { return nil }
            let buffered = buffering.track(.primary).map { $0.bufferedEnd >= next.position - Self.tolerance || $0.isComplete } ?? false
            let inLead = next.position - position <= max(0, buffering.model.preloadLead.seconds) + Self.bufferEpsilon
            guard buffered || inLead else { return nil }
            return firstAsset(of: next)
        case .interstitial(let cursor):
            guard buffering.track(head.key)?.isComplete ?? head.list.isEmpty else { return nil }
            return assetAfter(cursor)
        case .transition(let change):
            guard case .asset(let cursor) = change.then, buffering.track(head.key)?.isComplete ?? head.list.isEmpty else { return nil }
            return assetAfter(cursor)
        default:
            return nil
        }
    }

    /// The first asset of a pod that can play.
    func firstAsset(of pod: PlannedPod) -> Playhead? {
        for (member, event) in pod.members.enumerated() where event.failure == nil && !hasPlayedOnce(event) {
            let key = { (asset: Int) in TrackKey.asset(pod: pod.id, member: member, asset: asset) }
            // An asset whose preload failed is not tried again: the break will skip it.
            if let asset = event.assets.indices.first(where: { event.assets[$0].failure == nil && buffering.failedAssets[key($0)] == nil }) {
                return Playhead(key: key(asset), list: event.assets[asset].segments, offset: 0, advancing: false)
            }
        }
        return nil
    }

    /// What plays after the cursor's asset: the event's next asset, the next event's first, or primary
    /// where the pod resumes it.
    func assetAfter(_ cursor: BreakCursor) -> Playhead? {
        let members = cursor.pod.members
        var member = cursor.member
        var asset = cursor.asset + 1
        while member < members.count {
            let event = members[member]
            if event.failure == nil, !(member != cursor.member && hasPlayedOnce(event)) {
                while asset < event.assets.count {
                    let key = TrackKey.asset(pod: cursor.pod.id, member: member, asset: asset)
                    if event.assets[asset].failure == nil, buffering.failedAssets[key] == nil {
                        return Playhead(key: key, list: event.assets[asset].segments, offset: 0, advancing: false)
                    }
                    asset += 1
                }
            }
            member += 1
            asset = 0
        }
        guard cursor.pod.placement != .post else { return nil }
        return Playhead(key: .primary, list: primaryList, offset: resumePoint(of: cursor), advancing: false)
    }

    /// Makes sure the rendition has a buffer that covers where it plays; one that does not is started
    /// again at the segment that plays there (a seek, primary after a break).
    mutating func place(_ head: Playhead) {
        guard !head.list.isEmpty else { return }
        if let existing = buffering.tracks.firstIndex(where: { $0.key == head.key }) {
            buffering.tracks[existing].rebase(on: head.list)
            guard !buffering.tracks[existing].covers(head.offset) else { return }
            dropTrack(at: existing)
        }
        buffering.tracks.append(TrackBuffer(
            key: head.key, list: head.list, audio: separateAudio(of: head.key), at: head.offset, isLive: head.key == .primary && plan.isLive))
    }

    /// A live playhead that has played what it buffered while the segments after it left the
    /// playlist (an ad that does not resume at the live point, a long stall) cannot go on where it
    /// is: it jumps to what is still there, the buffer's restart after the hole or the window's first
    /// segment, as hls.js and AVPlayer do when they fall behind a sliding window. The seconds jumped
    /// over are lost content, said in the event.
    mutating func liveWindowJump(_ head: Playhead) -> [PlaybackEvent]? {
        guard plan.isLive, head.key == .primary, case .primary = activity, let track = buffering.track(.primary),
            !head.list.isEmpty, track.ahead(of: head.offset) <= Self.bufferEpsilon
        else { return nil }
        let windowStart = head.list.start(of: 0)
        let restart = track.bufferedStart > head.offset + Self.tolerance ? track.bufferedStart : windowStart
        guard restart > head.offset + Self.tolerance, windowStart > track.bufferedEnd + Self.tolerance || restart == track.bufferedStart else { return nil }
        var events: [PlaybackEvent] = []
        events += endStall(reason: "the playhead left for the live window")
        let missed = restart - head.offset
        position = restart
        events.append(event(.seeked, reason: "fell behind the live window: the \(missed.plainText) s after \(head.offset.plainText) left the playlist before they were fetched; playback jumps to \(restart.plainText)"))
        return events + startBreakAtPlayhead()
    }
}
