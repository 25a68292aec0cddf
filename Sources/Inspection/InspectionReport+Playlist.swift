import HLS
import Loading

extension InspectionReport {
    /// The report of a parsed playlist; pure, so the same parse always gives the same report.
    ///
    /// - Parameter resolution: what fetching the interstitials' assets learned (`--resolve`); nil to
    ///   schedule with the durations the playlist declares.
    /// - Parameter stitched: the selector of stitched ad ranges (`--stitched`); nil reports none. A
    ///   multivariant playlist has no segments to select, so it reports none either.
    public init(playlist: String, parsed: PlaylistParseResult, resolution: AssetResolution? = nil, stitched: StitchedSelector? = nil) {
        self.init(kind: nil, playlist: playlist, diagnostics: parsed.diagnostics)
        switch parsed.playlist {
        case .media(let media):
            describe(media, resolution: resolution)
            if let stitched { describeStitched(StitchedRanges(playlist: media, selector: stitched)) }
        case .multivariant(let multivariant):
            describe(multivariant)
        case nil:
            break
        }
        // Each part capped its own; together they are capped once more, so one code has one summary,
        // listed after every diagnostic in full. Stable, so problems on one line keep the order they were found in.
        func order(_ item: (offset: Int, element: Diagnostic)) -> (Int, Int, Int) {
            (item.element.suppressed == nil ? 0 : 1, item.element.line ?? .max, item.offset)
        }
        diagnostics = DiagnosticLog(diagnostics).diagnostics.enumerated()
            .sorted { order($0) < order($1) }
            .map(\.element)
    }

    private mutating func describe(_ media: MediaPlaylist, resolution: AssetResolution?) {
        kind = .media
        segments = media.segments.count
        duration = media.duration
        targetDuration = media.targetDuration
        live = media.isLive

        let (events, eventDiagnostics) = media.interstitialEvents()
        let timeline = PrimaryTimeline(media)
        let schedule = InterstitialSchedule.build(
            events: events, timeline: timeline, isLive: media.isLive, knownDurations: resolution?.durations ?? [:])
        diagnostics += eventDiagnostics + (resolution?.diagnostics ?? []) + schedule.diagnostics

        // The schedule holds one break per event (IDs are unique once date ranges merge), in play order;
        // the report lists them in tag order.
        let breaks = Dictionary(schedule.breaks.map { ($0.event.id, $0) }, uniquingKeysWith: { first, _ in first })
        interstitials = events.compactMap { event in
            breaks[event.id].map { Interstitial(event, timeline: timeline, scheduled: $0, resolved: resolution?.durations[event.id]) }
        }
        self.schedule = schedule.entries.map(ScheduleEntry.init)
        playoutDuration = schedule.playoutDuration
    }

    private mutating func describeStitched(_ stitched: StitchedRanges) {
        stitchedRanges = stitched.ranges.map { range in
            StitchedRange(
                id: range.id, start: range.startSeconds, duration: range.durationSeconds, firstSegment: range.segments.lowerBound,
                lastSegment: range.segments.upperBound - 1, line: range.line)
        }
        primaryLength = stitched.primaryLength.seconds
        diagnostics += stitched.diagnostics
    }

    private mutating func describe(_ multivariant: MultivariantPlaylist) {
        kind = .multivariant
        variants = multivariant.variants.map(Variant.init)
        renditions = multivariant.renditions.map(Rendition.init)
    }
}

extension InspectionReport.Variant {
    init(_ variant: HLS.Variant) {
        self.init(
            uri: variant.uri, bandwidth: variant.bandwidth, averageBandwidth: variant.averageBandwidth, codecs: variant.codecs,
            resolution: variant.resolution?.description, frameRate: variant.frameRate, videoRange: variant.videoRange,
            audio: variant.audioGroup, video: variant.videoGroup, subtitles: variant.subtitlesGroup,
            closedCaptions: variant.closedCaptionsGroup, line: variant.line)
    }
}

extension InspectionReport.Rendition {
    init(_ rendition: HLS.Rendition) {
        self.init(
            type: rendition.type.rawValue, groupID: rendition.groupID, name: rendition.name, language: rendition.language,
            default: rendition.isDefault, autoselect: rendition.autoselect, forced: rendition.isForced,
            channels: rendition.channels, uri: rendition.uri, line: rendition.line)
    }
}

extension InspectionReport.Interstitial {
    init(_ event: InterstitialEvent, timeline: PrimaryTimeline, scheduled: InterstitialSchedule.Break, resolved: KnownDuration?) {
        id = event.id
        switch event.anchor {
        case .date(let date):
            start = timeline.position(of: date)
            startDate = ProgramDate.format(date)
        case .time(let position):
            start = position
        }
        cue = event.cue.spellings
        restrictions = event.restrictions.spellings
        snap = event.snap.spellings
        resumeOffset = event.resumeOffset
        playoutLimit = event.playoutLimit

        durationSource = scheduled.durationSource
        durationIsEstimate = scheduled.isEstimate
        // The schedule assumes 0 s for an unknown duration; the report says it does not know.
        if scheduled.durationSource != .unknown {
            duration = scheduled.duration
        }
        if let resolved, resolved.failure == nil {
            assetDurations = resolved.assetDurations
        }

        switch event.asset {
        case .uri(let uri): assetURI = uri
        case .list(let uri): assetList = uri
        // Only client events list their assets inline, and a playlist holds none; their durations
        // are what the schedule used.
        case .inline(let assets): assetDurations = assets.map(\.duration)
        }
        timelineOccupies = event.timelineOccupies.rawValue
        timelineStyle = event.timelineStyle.rawValue
        contentMayVary = event.contentMayVary
        skipControl = event.skipControl.map { InspectionReport.SkipControl(offset: $0.offset, duration: $0.duration, labelID: $0.labelID) }
        clientAttributes = Dictionary(
            event.clientAttributes.map { ($0.name, InspectionReport.ClientAttributeValue($0.value)) }, uniquingKeysWith: { first, _ in first })
        cancelled = resolved?.failure != nil ? true : nil
        line = event.line
    }
}

extension InspectionReport.ClientAttributeValue {
    init(_ value: AttributeValue) {
        // A number too long for a Double reads as infinity, which JSON cannot hold: it stays text.
        if let number = value.decimal, number.isFinite {
            self = .number(number)
        } else {
            self = .string(value.text)
        }
    }
}

extension InspectionReport.ScheduleEntry {
    init(_ entry: InterstitialSchedule.Entry) {
        switch entry.kind {
        case .primary:
            type = .primary
        case .interstitial(let eventID):
            type = .interstitial
            self.eventID = eventID
        }
        start = entry.start
        end = entry.end
        resumeAt = entry.resumeAt
        playoutStart = entry.playoutStart
        playoutEnd = entry.playoutEnd
    }
}
