import Profiles
import NumberText
/// Buffering: when the plan carries segments and a buffer model (`--media verify|realtime`), the
/// engine decides what to fetch and when, and stalls when the playhead reaches the end of what has
/// arrived (docs/simulate.md, "Fetching the media").
///
/// The engine stays pure: it asks for fetches (in each call's `Output`) and is told how they went
/// (`segmentLoaded`, `segmentFailed`); its driver performs them, on a model of the network or for
/// real. Without segments (`probe`) nothing here runs and playback is the latency model alone.
///
/// The rules, per rendition, as hls.js and Media3 behave:
/// - one request at a time; the next segment of what plays is fetched whenever less than the forward
///   target is buffered ahead of the playhead;
/// - the first frame waits for the startup buffer; an asset's first frame too (`asset-priming`);
/// - the next asset (or primary after the last) is preloaded once what plays is buffered to its end,
///   and a break's first asset once primary is buffered to the break or `preloadLead` before it;
/// - the playhead stops where the buffer ends (a stall) and goes on once `rebufferResume` is buffered
///   ahead, or the rendition is buffered to its end; on VOD breaks keep their media positions, so a
///   stall shifts session time only;
/// - a failed fetch is retried by the profile's policy; out of tries, a failed asset is skipped (the
///   next asset plays, then primary), and a failed primary ends the session with a media error.
extension PlaybackEngine {
    /// The buffer's state between calls.
    struct Buffering: Sendable {
        /// False for `--media probe`, whose feed is trivial: nothing is fetched, every rendition counts
        /// as arrived, and playback is the latency model alone. Every path that reads `model` or the
        /// tracks starts from a check of this.
        let fetchesSegments: Bool
        let model: BufferModel
        var tracks: [TrackBuffer] = []
        var inFlight: SegmentFetch?
        var retry: PendingRetry?
        var stall: Stall?
        var nextFetchID: UInt64 = 0
        var actions: [FetchAction] = []
        /// Assets that failed while being preloaded: skipped when the break reaches them.
        var failedAssets: [TrackKey: String] = [:]
        /// The last failure of a segment per track, for the reason of the stall it causes.
        var lastFailure: [TrackKey: FetchFailure] = [:]
        /// Which variant primary plays: 0 the plan's, k its k-th fallback (`PlaybackEngine+Variants`).
        var variant = 0
        /// Bits per second of the last primary segment that arrived.
        var throughput: Double?
        /// Variants a primary segment failed on after its retries: never switched back up to.
        var failedVariants: Set<Int> = []

        func track(_ key: TrackKey) -> TrackBuffer? {
            tracks.first { $0.key == key }
        }

        /// A buffer fed by `model`, or the trivial feed when the plan fetches nothing.
        init(feeding model: BufferModel?) {
            fetchesSegments = model != nil
            self.model = model ?? Self.trivialFeed
        }

        /// The model of the trivial feed: nothing reads it, since nothing is fetched.
        private static let trivialFeed = BufferModel(
            family: "none", forwardTarget: .init(0, source: "nothing is fetched"), startupBuffer: .init(0, source: "nothing is fetched"),
            rebufferResume: .init(0, source: "nothing is fetched"), preloadLead: .init(0, source: "nothing is fetched"),
            retry: RetryPolicy(
                retries: 0, firstDelaySeconds: 0, growth: 1, maximumDelaySeconds: 0, timeoutSeconds: 0, retriesClientErrors: false,
                source: "nothing is fetched"))
    }

    /// What of one rendition has arrived: a contiguous range of its timeline.
    ///
    /// Kept as positions, not segment indices: bytes that arrived stay buffered when a live reload
    /// drops their segments from the playlist, and a segment missed meanwhile shows as a hole between
    /// the buffer's end and the next segment the playlist still has.
    ///
    /// A rendition whose audio is a rendition of its own (EXT-X-MEDIA TYPE=AUDIO with a URI) buffers
    /// both parts on the one timeline: it plays as far as both have arrived, and the part that ends
    /// first is fetched next, so neither runs ahead of the other by more than a segment.
    struct TrackBuffer: Sendable {
        let key: TrackKey
        /// The main segments: video, or the muxed rendition.
        var list: SegmentList
        /// The separate audio's segments; empty when the audio is muxed in `list`.
        var audio: SegmentList
        private var main: PartBuffer
        private var audioPart: PartBuffer
        /// A live rendition is never buffered to its end: its playlist grows.
        var isLive = false

        /// What of one part has arrived.
        private struct PartBuffer: Sendable {
            var start: Double
            var end: Double

            /// An empty buffer where the segment that plays at `offset` starts.
            init(_ list: SegmentList, at offset: Double) {
                start = list.isEmpty ? offset : list.start(of: list.index(containing: offset))
                end = start
            }

            /// A segment from `from` to `to` arrived; one that does not continue the buffer (a live
            /// segment fetched after a hole) starts it again.
            mutating func arrived(from: Double, to: Double) {
                if from > end + PlaybackEngine.tolerance || to < start - PlaybackEngine.tolerance {
                    (start, end) = (from, to)
                } else {
                    (start, end) = (min(start, from), max(end, to))
                }
            }

            /// The next segment of `list` to fetch: the one that plays at the buffer's end; nil when
            /// the playlist has nothing past it, or when what follows has left it (a live hole).
            func next(in list: SegmentList) -> Int? {
                guard !list.isEmpty, end < list.end - PlaybackEngine.bufferEpsilon else { return nil }
                let index = list.index(containing: end + PlaybackEngine.bufferEpsilon)
                return list.start(of: index) > end + PlaybackEngine.tolerance ? nil : index
            }
        }

        /// An empty buffer where the segment that plays at `offset` starts.
        init(key: TrackKey, list: SegmentList, audio: SegmentList = .empty, at offset: Double, isLive: Bool) {
            self.key = key
            self.list = list
            self.audio = audio
            main = PartBuffer(list, at: offset)
            audioPart = PartBuffer(audio, at: offset)
            self.isLive = isLive
        }

        private var hasAudio: Bool { !audio.isEmpty }
        /// Where what plays with both parts begins and ends.
        var bufferedStart: Double { hasAudio ? max(main.start, audioPart.start) : main.start }
        var bufferedEnd: Double { hasAudio ? min(main.end, audioPart.end) : main.end }

        var isEmpty: Bool { bufferedEnd <= bufferedStart + PlaybackEngine.bufferEpsilon }
        var isComplete: Bool {
            !isLive && main.end >= list.end - PlaybackEngine.bufferEpsilon && (!hasAudio || audioPart.end >= audio.end - PlaybackEngine.bufferEpsilon)
        }

        /// The next segment to fetch: of the part whose buffer ends first (the main part on a tie);
        /// nil when neither has anything left to fetch past its buffer.
        var next: (part: TrackPart, index: Int)? {
            let mainNext = main.next(in: list)
            let audioNext = hasAudio ? audioPart.next(in: audio) : nil
            if let audioNext, mainNext == nil || audioPart.end < main.end - PlaybackEngine.tolerance { return (.audio, audioNext) }
            return mainNext.map { (.main, $0) }
        }

        /// The segments of `part`.
        func segments(of part: TrackPart) -> SegmentList {
            part == .audio ? audio : list
        }

        /// The same buffer over a newer playlist of the rendition (a live reload, a variant switch):
        /// positions stay on the first load's timeline, so what was buffered keeps its place.
        mutating func rebase(on newer: SegmentList) {
            list = newer
        }

        /// A segment of `part` that plays from `start` to `end` arrived.
        mutating func arrived(_ part: TrackPart, from start: Double, to end: Double) {
            if part == .audio { audioPart.arrived(from: start, to: end) } else { main.arrived(from: start, to: end) }
        }

        /// Whether the buffer serves a playhead at `offset`: it lies in what arrived of each part, or
        /// in that part's next segment to fetch.
        func covers(_ offset: Double) -> Bool {
            func covers(_ buffer: PartBuffer, _ list: SegmentList) -> Bool {
                guard offset >= buffer.start - PlaybackEngine.bufferEpsilon else { return false }
                if offset <= buffer.end + PlaybackEngine.bufferEpsilon { return true }
                return buffer.next(in: list).map { offset < list.start(of: $0 + 1) + PlaybackEngine.bufferEpsilon } ?? false
            }
            return covers(main, list) && (!hasAudio || covers(audioPart, audio))
        }

        /// Seconds buffered ahead of `offset`; infinite once the rendition is buffered to its end, or
        /// the playhead stands at the end of a VOD rendition (nothing is left to fetch for it).
        func ahead(of offset: Double) -> Double {
            if isComplete || (!isLive && offset >= list.end - PlaybackEngine.bufferEpsilon) { return .infinity }
            return offset < bufferedStart - PlaybackEngine.bufferEpsilon ? 0 : max(0, bufferedEnd - offset)
        }
    }

    struct PendingRetry: Sendable {
        var at: Double
        var fetch: SegmentFetch
    }

    struct Stall: Sendable {
        var reason: StallReason
        var track: TrackKey
        var since: Double
        /// Seconds buffered ahead that end it.
        var resumeAhead: Double
    }

    /// What plays (or is about to), and where in it, in the rendition's own seconds.
    struct Playhead {
        var key: TrackKey
        var list: SegmentList
        var offset: Double
        /// True when the playhead moves with the clock now.
        var advancing: Bool
    }

    /// Far enough below the frame durations that float sums never hide a segment boundary.
    static let bufferEpsilon = 1e-6

    // MARK: - The driver's side

    /// A fetch arrived whole at `time`.
    mutating func segmentLoadedEvents(_ id: UInt64, at time: Double) -> [PlaybackEvent] {
        var events = advanceEvents(to: time)
        guard buffering.fetchesSegments, let fetch = buffering.inFlight, fetch.id == id else { return events }
        buffering.inFlight = nil
        buffering.lastFailure[fetch.track] = nil
        measureThroughput(of: fetch, at: time)
        // Placed by its position, which a live reload does not move; the playlist may have dropped it meanwhile.
        if let index = buffering.tracks.firstIndex(where: { $0.key == fetch.track }) {
            buffering.tracks[index].arrived(fetch.part, from: fetch.start, to: fetch.start + max(0, fetch.segment.duration.isFinite ? fetch.segment.duration : 0))
            if fetch.track == .primary, fetch.part == .main, let head = playhead(), head.key == .primary,
                let switched = switchUpIfItFits(ahead: buffering.tracks[index].ahead(of: head.offset))
            {
                events.append(switched)
            }
        }
        events += reconcileBuffering()
        return events
    }

    /// A fetch failed at `time`: retried by the profile's policy, or the rendition fails.
    mutating func segmentFailedEvents(_ id: UInt64, _ failure: FetchFailure, at time: Double) -> [PlaybackEvent] {
        var events = advanceEvents(to: time)
        guard buffering.fetchesSegments, let fetch = buffering.inFlight, fetch.id == id else { return events }
        buffering.inFlight = nil
        buffering.lastFailure[fetch.track] = failure
        let policy = buffering.model.retry
        let what = "segment \(fetch.index + 1) of \(fetch.track)\(fetch.part == .audio ? "'s audio" : "") (\(fetch.segment.uri))"
        if policy.retries(after: failure, attempt: fetch.attempt) {
            let delay = policy.delay(beforeRetry: fetch.attempt)
            var again = fetch
            again.attempt += 1
            buffering.retry = PendingRetry(at: now + delay, fetch: again)
            events.append(event(.segmentFailed, reason: "\(what) failed: \(failure); retry \(fetch.attempt) of \(policy.retries) in \(delay.plainText) s"))
            return events + reconcileBuffering()
        }
        let tries = fetch.attempt == 1 ? "" : " after \(fetch.attempt) tries"
        events.append(event(.segmentFailed, reason: "\(what) failed: \(failure)\(tries); no retry left"))
        // Another variant is other video: a failing audio rendition is shared by them all.
        if fetch.track == .primary, fetch.part == .main, let switched = switchDownForFailure("\(what) failed: \(failure)\(tries)") {
            return events + [switched] + reconcileBuffering()
        }
        events += renditionFailed(fetch.track, reason: "\(what) failed: \(failure)\(tries)")
        return events + reconcileBuffering()
    }

    /// Seconds of what plays that are buffered ahead of the playhead (0 when nothing is), and the
    /// buffered range on the primary timeline while primary plays: what `/playback-info` reports.
    public var bufferStatus: BufferStatus? {
        guard buffering.fetchesSegments else { return nil }
        guard let head = playhead(), !head.list.isEmpty else {
            // Nothing of it to fetch (an SDK ad, an asset without a playlist): it plays from what it has.
            return BufferStatus(ahead: 0, loaded: nil, isStalled: buffering.stall != nil, isComplete: true, likelyToKeepUp: buffering.stall == nil)
        }
        guard let track = buffering.track(head.key) else {
            return BufferStatus(ahead: 0, loaded: nil, isStalled: buffering.stall != nil, likelyToKeepUp: false)
        }
        let ahead = max(0, min(track.bufferedEnd, head.list.end) - head.offset)
        let loaded = track.bufferedStart...max(track.bufferedStart, track.bufferedEnd)
        let likely = buffering.stall == nil && (track.isComplete || ahead >= buffering.model.rebufferResume.seconds - Self.bufferEpsilon)
        return BufferStatus(ahead: ahead, loaded: loaded, isStalled: buffering.stall != nil, isComplete: track.isComplete, likelyToKeepUp: likely)
    }

    // MARK: - Deciding

    /// After anything changed: stalls or resumes, makes sure what plays and what comes next are
    /// buffered where they play, and asks for the next fetch.
    mutating func reconcileBuffering() -> [PlaybackEvent] {
        guard buffering.fetchesSegments, isActive else { return [] }
        var events: [PlaybackEvent] = []
        let head = playhead()
        let preload = head.flatMap { preloadTarget(after: $0) }
        // Only what plays, what comes next and primary are kept.
        for index in buffering.tracks.indices.reversed() {
            let key = buffering.tracks[index].key
            if key != .primary, key != head?.key, key != preload?.key { dropTrack(at: index) }
        }
        if let head, let jump = liveWindowJump(head) {
            events += jump
            return events + reconcileBuffering()
        }
        if let head { place(head) }
        if let preload { place(preload) }

        if let stall = buffering.stall {
            let track = buffering.track(stall.track)
            if head?.key != stall.track || head?.advancing != true {
                events += endStall(reason: "what stalled no longer plays")
            } else if let track, let head, track.ahead(of: head.offset) >= stall.resumeAhead - Self.bufferEpsilon {
                events += endStall(reason: track.isComplete ? "the rest of the rendition has arrived" : "enough is buffered to play on")
            }
        }
        if buffering.stall == nil, let head, head.advancing, let track = buffering.track(head.key),
            !head.list.isEmpty, track.ahead(of: head.offset) <= Self.bufferEpsilon
        {
            let stall = beginStall(for: head, track: track)
            events.append(stall)
            if head.key == .primary, stall.stall == .segmentLate, let switched = switchDownForStall() {
                events.append(switched)
            }
        }
        requestNextFetch(head: head, preload: preload)
        return events
    }

    /// When the buffer next needs the engine without an outside event: a retry, the playhead reaching
    /// the buffer's end, the buffer falling below the forward target, a break coming into preload range.
    var bufferingDeadline: Double? {
        guard buffering.fetchesSegments, isActive else { return nil }
        var best = buffering.retry?.at
        func consider(_ time: Double) {
            if time.isFinite, time < (best ?? .infinity) { best = time }
        }
        guard let head = playhead(), head.advancing, buffering.stall == nil, rate > 0 else { return best }
        let idle = buffering.inFlight == nil && buffering.retry == nil
        if let track = buffering.track(head.key), !track.isComplete, !head.list.isEmpty {
            let ahead = track.ahead(of: head.offset)
            if ahead > Self.bufferEpsilon { consider(now + ahead / rate) }
            let target = buffering.model.forwardTarget.seconds
            if idle, track.next != nil, ahead > target, !reachesNextBreak(track) { consider(now + (ahead - target) / rate) }
        }
        if idle, case .primary = activity, let next = nextPod(suppressing: primarySuppression) {
            let startsAt = next.position - max(0, buffering.model.preloadLead.seconds)
            if startsAt > position + Self.bufferEpsilon { consider(now + (startsAt - position) / rate) }
        }
        return best
    }

    /// Forgets a rendition's buffer, cancelling its fetch in flight and its retry.
    mutating func dropTrack(at index: Int) {
        let key = buffering.tracks[index].key
        buffering.tracks.remove(at: index)
        cancelFetches(of: key)
    }

    /// Cancels the rendition's fetch in flight and forgets its pending retry.
    mutating func cancelFetches(of key: TrackKey) {
        if let fetch = buffering.inFlight, fetch.track == key {
            buffering.inFlight = nil
            buffering.actions.append(.cancel(id: fetch.id))
        }
        if buffering.retry?.fetch.track == key { buffering.retry = nil }
    }

    /// Asks for the next segment, if nothing is in flight: what plays first, below its forward target;
    /// then what comes next, up to its startup buffer.
    mutating func requestNextFetch(head: Playhead?, preload: Playhead?) {
        guard buffering.inFlight == nil else { return }
        if let retry = buffering.retry {
            guard retry.at <= now + Self.bufferEpsilon else { return }
            buffering.retry = nil
            // The track may have moved on meanwhile: the retry is for what is still missing.
            if let track = buffering.track(retry.fetch.track), let next = track.next, next.part == retry.fetch.part,
                track.segments(of: next.part).segments[next.index].uri == retry.fetch.segment.uri
            {
                var again = retry.fetch
                again.index = next.index
                issue(again)
                return
            }
        }
        let model = buffering.model
        if let head, let track = buffering.track(head.key), let next = track.next,
            track.ahead(of: head.offset) < model.forwardTarget.seconds + Self.bufferEpsilon, !reachesNextBreak(track)
        {
            return issue(next, of: track)
        }
        if let preload, let track = buffering.track(preload.key), let next = track.next,
            track.ahead(of: preload.offset) < model.startupBuffer.seconds - Self.bufferEpsilon
        {
            return issue(next, of: track)
        }
    }

    /// Primary is buffered up to the next break that will play something and no further: the break
    /// replaces what follows, and its first asset is what to fetch next.
    func reachesNextBreak(_ track: TrackBuffer) -> Bool {
        guard track.key == .primary, case .primary = activity, let next = nextPod(suppressing: primarySuppression),
            track.bufferedEnd >= next.position - Self.tolerance
        else { return false }
        return next.members.first?.startedBySDK != true && firstAsset(of: next) != nil
    }

    mutating func issue(_ next: (part: TrackPart, index: Int), of track: TrackBuffer) {
        let list = track.segments(of: next.part)
        issue(SegmentFetch(
            id: 0, track: track.key, index: next.index, segment: list.segments[next.index], start: list.start(of: next.index), attempt: 1,
            requestedAt: now, timeout: buffering.model.retry.timeoutSeconds, part: next.part))
    }

    /// The separate audio rendition's segments of what `key` names; empty when its audio is muxed.
    ///
    /// Only VOD primary carries them: a live cast's reloads refresh the main rendition alone.
    func separateAudio(of key: TrackKey) -> SegmentList {
        switch key {
        case .primary:
            return plan.isLive ? .empty : plan.fetching?.primaryAudio ?? .empty
        case .asset(let pod, let member, let asset):
            guard let planned = plan.pods.first(where: { $0.id == pod }), planned.members.indices.contains(member),
                planned.members[member].assets.indices.contains(asset)
            else { return .empty }
            return planned.members[member].assets[asset].audioSegments
        }
    }

    mutating func issue(_ request: SegmentFetch) {
        var fetch = request
        fetch.id = buffering.nextFetchID
        fetch.requestedAt = now
        buffering.nextFetchID += 1
        buffering.inFlight = fetch
        buffering.actions.append(.fetch(fetch))
    }

    /// Whether the rendition that `head` names is buffered enough to start: the startup buffer, or all of it.
    func isReadyToStart(_ head: Playhead) -> Bool {
        guard buffering.fetchesSegments, !head.list.isEmpty else { return true }
        guard let track = buffering.track(head.key) else { return false }
        return track.ahead(of: head.offset) >= min(buffering.model.startupBuffer.seconds, head.list.end - head.offset) - Self.bufferEpsilon
    }
}

/// The buffer as `/playback-info` reports it.
public struct BufferStatus: Sendable, Hashable {
    /// Seconds buffered ahead of the playhead in what plays.
    public var ahead: Double
    /// What of it is buffered, in its own seconds (the primary timeline, or the asset's).
    public var loaded: ClosedRange<Double>?
    public var isStalled: Bool
    /// Buffered to its end.
    public var isComplete = false
    /// Not stalled, and as much ahead as a stall would wait for (AVPlayerItem's flag).
    public var likelyToKeepUp: Bool
}
