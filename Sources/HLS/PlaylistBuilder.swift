import Foundation
import NumberText

/// Accumulates the tags and URIs of one playlist, line by line, into a multivariant or media playlist.
struct PlaylistBuilder {
    private var media = MediaPlaylist()
    private var multivariant = MultivariantPlaylist()
    /// What reading found wrong; the reporting helpers (`PlaylistBuilder+Reporting.swift`) append to it.
    var diagnostics = DiagnosticLog()

    /// Lines that only a media playlist may hold, and only a multivariant playlist may hold.
    private var firstMediaLine: Int?
    private var firstMultivariantLine: Int?

    // The tags that apply to the next URI.
    private var pendingSegment: (duration: Double, exact: ExactSeconds, title: String?, line: Int)?
    private var pendingSegmentIsInvalid = false
    private var pendingDiscontinuity = false
    private var pendingProgramDateTime: Date?
    private var pendingByteRange: ByteRange?
    private var pendingGap = false
    private var pendingVariant: Variant?
    private var currentMap: MediaInitializationSection?
    /// Whether the EXT-X-KEY in force encrypts the segments that follow (a METHOD other than NONE).
    private var currentKeyEncrypts = false
    private var position = 0.0

    private var dateRangeIndex: [String: Int] = [:]
    private var firstDateRangeLine: Int?
    private var seenSingletonTags: Set<String> = []
    /// (type, group, name) of every rendition so far: names must be unique within a group.
    private var renditionNames: Set<RenditionName> = []
    /// The first segment refused for ending past `NumericRange.timeline` (its line and the start of its
    /// message), and how many more were: one diagnostic, finished when the count is known.
    private var timelineOverflow: (line: Int, message: String, more: Int)?

    /// The most segments the file can hold, reserved at the first EXTINF (so a multivariant playlist
    /// reserves nothing): the array is then never copied as it grows.
    private let segmentCapacity: Int

    init(segmentCapacity: Int = 0) {
        self.segmentCapacity = segmentCapacity
    }

    mutating func consume(_ line: PlaylistLine, lineNumber: Int) {
        switch line {
        case .ignorable:
            return
        case .uri(let uri):
            consumeURI(uri.string, line: lineNumber)
        case .tag(let name, let value):
            // EXTINF is most of any media playlist: test it before building a String for the name.
            if name.equals("EXTINF") {
                consumeSegmentInfo(value, line: lineNumber)
            } else {
                consumeTag(name.string, value, line: lineNumber)
            }
        }
    }

    // MARK: - Tags

    private mutating func consumeTag(_ name: String, _ value: UnsafeBufferPointer<UInt8>, line: Int) {
        switch name {
        case "EXT-X-PROGRAM-DATE-TIME":
            markMedia(line)
            if let reading = ProgramDate.read(value) {
                pendingProgramDateTime = reading.date
                if !reading.hasTimeZone {
                    diagnostics.append(.warning, line: line, .dateWithoutTimeZone, ProgramDate.noTimeZoneMessage("#\(name)", value.string))
                }
            } else {
                malformed(name, value, line, expected: "an ISO 8601 date-time, such as 2026-01-01T00:00:00.000Z")
            }
        case "EXT-X-DISCONTINUITY":
            markMedia(line)
            pendingDiscontinuity = true
        case "EXT-X-BYTERANGE":
            markMedia(line)
            pendingByteRange = tagNumber(ByteRange.reading(value.string), name, value, line, in: .byteCount, expected: "length[@offset] in bytes")
        case "EXT-X-GAP":
            markMedia(line)
            pendingGap = true
        case "EXT-X-MAP":
            markMedia(line)
            guard let attributes = attributeList(name, value, line) else { return }
            guard let uri = attributes["URI"]?.quotedString else {
                missingAttribute("URI", of: name, line)
                return
            }
            var map = MediaInitializationSection(uri: uri)
            if let range = attributes["BYTERANGE"] {
                let reading = range.quotedString.map(ByteRange.reading) ?? .notANumber
                map.byteRange = attributeNumber(reading, "BYTERANGE", range, of: name, line, in: .byteCount, expected: "\"length@offset\"")
            }
            currentMap = map
        case "EXT-X-KEY":
            markMedia(line)
            guard let attributes = attributeList(name, value, line) else { return }
            guard let method = attributes["METHOD"]?.enumeratedString else {
                missingAttribute("METHOD", of: name, line)
                return
            }
            // NONE ends encryption; AES-128, SAMPLE-AES and any method this reader does not know
            // (SAMPLE-AES-CTR) leave the segments that follow encrypted.
            currentKeyEncrypts = method != "NONE"
        case "EXT-X-DATERANGE":
            markMedia(line)
            consumeDateRange(value, line: line)
        case "EXT-X-TARGETDURATION":
            markMedia(line)
            guard once(name, line) else { return }
            if let seconds = tagNumber(integer(value, in: .duration), name, value, line, in: .duration, expected: "a whole number of seconds") {
                media.targetDuration = Double(seconds)
            }
        case "EXT-X-MEDIA-SEQUENCE":
            markMedia(line)
            guard once(name, line) else { return }
            if let sequence = tagNumber(integer(value, in: .wholeNumber), name, value, line, in: .wholeNumber, expected: "a whole number") {
                media.mediaSequence = sequence
            }
        case "EXT-X-DISCONTINUITY-SEQUENCE":
            markMedia(line)
            guard once(name, line) else { return }
            if let sequence = tagNumber(integer(value, in: .wholeNumber), name, value, line, in: .wholeNumber, expected: "a whole number") {
                media.discontinuitySequence = sequence
            }
        case "EXT-X-ENDLIST":
            markMedia(line)
            media.hasEndList = true
        case "EXT-X-PLAYLIST-TYPE":
            markMedia(line)
            guard once(name, line) else { return }
            if let type = PlaylistType(rawValue: value.string) { media.playlistType = type } else { malformed(name, value, line, expected: "EVENT or VOD") }
        case "EXT-X-I-FRAMES-ONLY":
            markMedia(line)
            media.iFramesOnly = true
        case "EXT-X-SKIP":
            markMedia(line)
            guard let attributes = attributeList(name, value, line) else { return }
            guard let skippedValue = attributes["SKIPPED-SEGMENTS"] else {
                missingAttribute("SKIPPED-SEGMENTS", of: name, line)
                return
            }
            guard let skipped = attributeNumber(
                skippedValue.integer(in: .wholeNumber), "SKIPPED-SEGMENTS", skippedValue, of: name, line, in: .wholeNumber,
                expected: "a whole number of segments")
            else { return }
            let removed = attributes["RECENTLY-REMOVED-DATERANGES"]?.quotedString ?? ""
            media.skip = DeltaSkip(
                skippedSegments: skipped, recentlyRemovedDateRanges: removed.split(separator: "\t").map(String.init))
        case "EXT-X-STREAM-INF":
            markMultivariant(line)
            guard let attributes = attributeList(name, value, line) else { return }
            if pendingVariant != nil {
                diagnostics.append(.error, line: pendingVariant!.line, .variantMissingURI,
                    "EXT-X-STREAM-INF is not followed by the variant's URI line; the variant is ignored.")
            }
            pendingVariant = variant(attributes, of: name, uri: "", line: line)
        case "EXT-X-I-FRAME-STREAM-INF":
            markMultivariant(line)
            guard let attributes = attributeList(name, value, line) else { return }
            guard let uri = attributes["URI"]?.quotedString else {
                missingAttribute("URI", of: name, line)
                return
            }
            multivariant.iFrameVariants.append(variant(attributes, of: name, uri: uri, line: line))
        case "EXT-X-MEDIA":
            markMultivariant(line)
            consumeRendition(value, line: line)
        case "EXT-X-SESSION-DATA", "EXT-X-SESSION-KEY", "EXT-X-CONTENT-STEERING":
            markMultivariant(line)
        case "EXT-X-INDEPENDENT-SEGMENTS":
            media.independentSegments = true
            multivariant.independentSegments = true
        case "EXT-X-START":
            guard let attributes = attributeList(name, value, line) else { return }
            guard let offsetValue = attributes["TIME-OFFSET"] else {
                missingAttribute("TIME-OFFSET", of: name, line)
                return
            }
            guard let offset = attributeNumber(
                offsetValue.decimal(in: .offset), "TIME-OFFSET", offsetValue, of: name, line, in: .offset, expected: "a number of seconds")
            else { return }
            let start = StartPoint(timeOffset: offset, isPrecise: attributes["PRECISE"]?.enumeratedString == "YES")
            media.start = start
            multivariant.start = start
        case "EXT-X-VERSION":
            guard once(name, line) else { return }
            if let version = tagNumber(integer(value, in: .wholeNumber), name, value, line, in: .wholeNumber, expected: "a whole number") {
                media.version = version
            }
        case "EXTM3U":
            diagnostics.append(.warning, line: line, .tagDuplicate, "#EXTM3U appears again after the first line; the repeat is ignored.")
        default:
            // Unknown tags are ignored, as RFC 8216bis §6.3.1 requires for forward compatibility.
            return
        }
    }

    private mutating func consumeSegmentInfo(_ value: UnsafeBufferPointer<UInt8>, line: Int) {
        markMedia(line)
        if media.segments.capacity == 0 { media.segments.reserveCapacity(segmentCapacity) }
        if let pending = pendingSegment {
            diagnostics.append(.error, line: pending.line, .segmentMissingURI,
                "EXTINF is not followed by a segment URI; that segment is ignored.")
        }
        let comma = value.firstIndex(of: UInt8(ascii: ","))
        let durationBytes = UnsafeBufferPointer(rebasing: value[..<(comma ?? value.endIndex)])
        guard let duration = tagNumber(
            NumberReading(DecimalReader.read(durationBytes), in: .duration), "EXTINF", value, line, in: .duration,
            expected: "a duration in seconds, then a comma and an optional title", consequence: "the segment is ignored", number: durationBytes)
        else {
            pendingSegment = nil
            pendingSegmentIsInvalid = true
            return
        }
        var title: String?
        if let comma, comma + 1 < value.endIndex {
            title = UnsafeBufferPointer(rebasing: value[(comma + 1)...]).string
        }
        // The Double was range-checked, so the exact reading of the same digits is within range too.
        let exact = DecimalReader.nanoseconds(durationBytes) ?? .zero
        pendingSegment = (duration, exact, title, line)
        pendingSegmentIsInvalid = false
    }

    // MARK: - URIs

    private mutating func consumeURI(_ uri: String, line: Int) {
        if var variant = pendingVariant {
            variant.uri = uri
            multivariant.variants.append(variant)
            pendingVariant = nil
            return
        }
        guard let info = pendingSegment else {
            if !pendingSegmentIsInvalid {
                diagnostics.append(.error, line: line, .uriWithoutSegmentInfo,
                    "The URI '\(uri)' has no EXTINF or EXT-X-STREAM-INF before it; it is ignored.")
            }
            pendingSegmentIsInvalid = false
            return
        }
        // Once one segment is refused for it, so are all after it: the timeline must not have a hole.
        guard timelineOverflow == nil, NumericRange.timeline.contains(position + info.duration) else {
            refuseBeyondTimeline(uri, info)
            return
        }
        if let target = media.targetDuration, info.duration.rounded() > target {
            diagnostics.append(.warning, line: info.line, .segmentExceedsTargetDuration,
                "Segment '\(uri)' lasts \(info.duration.plainText) s, more than EXT-X-TARGETDURATION \(target.plainText) s once rounded; receivers may stall or reload too late.")
        }
        media.segments.append(Segment(
            uri: uri, duration: info.duration, exactDuration: info.exact, title: info.title, start: position,
            programDateTime: pendingProgramDateTime, discontinuity: pendingDiscontinuity, byteRange: pendingByteRange,
            map: currentMap, isGap: pendingGap, isEncrypted: currentKeyEncrypts, line: line))
        position += info.duration
        pendingSegment = nil
        pendingProgramDateTime = nil
        pendingDiscontinuity = false
        pendingByteRange = nil
        pendingGap = false
    }

    /// A segment that would end past `NumericRange.timeline` is refused, so that every position and
    /// every sum of durations stays inside it. The first is reported with its line; the rest are counted
    /// into the same diagnostic rather than each given one.
    private mutating func refuseBeyondTimeline(_ uri: String, _ info: (duration: Double, exact: ExactSeconds, title: String?, line: Int)) {
        pendingSegment = nil
        pendingProgramDateTime = nil
        pendingDiscontinuity = false
        pendingByteRange = nil
        pendingGap = false
        if let overflow = timelineOverflow {
            timelineOverflow?.more = overflow.more + 1
            return
        }
        timelineOverflow = (info.line,
            "Segment '\(uri)' (#EXTINF \(info.duration.plainTextToMilliseconds)) would end at \((position + info.duration).plainTextToMilliseconds) s, "
                + "beyond the \(NumericRange.timeline) a playlist's timeline may span in airlab; it is ignored", 0)
    }

    /// Adds the timeline diagnostic once it is known how many later segments it covers.
    private mutating func describeTimelineOverflow() {
        guard let overflow = timelineOverflow else { return }
        let more = overflow.more
        diagnostics.append(.error, line: overflow.line, .numberOutOfRange,
            overflow.message + (more == 0 ? "." : ", and so \(more == 1 ? "is the segment" : "are the \(more) segments") after it."))
    }

    // MARK: - Date ranges

    private mutating func consumeDateRange(_ value: UnsafeBufferPointer<UInt8>, line: Int) {
        if firstDateRangeLine == nil { firstDateRangeLine = line }
        guard let attributes = attributeList("EXT-X-DATERANGE", value, line) else { return }
        guard let id = attributes[.id]?.quotedString, !id.isEmpty else {
            diagnostics.append(.error, line: line, .dateRangeMissingID,
                "EXT-X-DATERANGE has no ID (a quoted string); the tag is ignored.")
            return
        }
        DateRange.validate(attributes, id: id, line: line, into: &diagnostics)
        if let index = dateRangeIndex[id] {
            media.dateRanges[index].merge(attributes, line: line, into: &diagnostics)
            return
        }
        guard attributes[.startDate] != nil else {
            diagnostics.append(.error, line: line, .dateRangeMissingStartDate,
                "Date range '\(id)' has no START-DATE; the first tag of a date range needs one. The tag is ignored.")
            return
        }
        dateRangeIndex[id] = media.dateRanges.count
        media.dateRanges.append(DateRange(id: id, attributes: attributes, line: line))
    }

    // MARK: - Multivariant

    private mutating func variant(_ attributes: AttributeList, of tag: String, uri: String, line: Int) -> Variant {
        var variant = Variant(uri: uri, line: line)
        for (name, range) in [("BANDWIDTH", NumericRange.bitRate), ("AVERAGE-BANDWIDTH", .bitRate)] {
            guard let value = attributes[name] else { continue }
            let bits = attributeNumber(value.integer(in: range), name, value, of: tag, line, in: range, expected: "a whole number of bits per second")
            if name == "BANDWIDTH" { variant.bandwidth = bits } else { variant.averageBandwidth = bits }
        }
        variant.codecs = attributes["CODECS"]?.quotedString?.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        } ?? []
        if let value = attributes["RESOLUTION"] {
            variant.resolution = attributeNumber(value.resolutionReading, "RESOLUTION", value, of: tag, line, in: .pixels, expected: "WIDTHxHEIGHT in pixels")
        }
        if let value = attributes["FRAME-RATE"] {
            variant.frameRate = attributeNumber(value.decimal(in: .frameRate), "FRAME-RATE", value, of: tag, line, in: .frameRate, expected: "a number of frames per second")
        }
        variant.videoRange = attributes["VIDEO-RANGE"]?.enumeratedString
        variant.hdcpLevel = attributes["HDCP-LEVEL"]?.enumeratedString
        variant.audioGroup = attributes["AUDIO"]?.quotedString
        variant.videoGroup = attributes["VIDEO"]?.quotedString
        variant.subtitlesGroup = attributes["SUBTITLES"]?.quotedString
        variant.closedCaptionsGroup = attributes["CLOSED-CAPTIONS"]?.quotedString
        return variant
    }

    private mutating func consumeRendition(_ value: UnsafeBufferPointer<UInt8>, line: Int) {
        guard let attributes = attributeList("EXT-X-MEDIA", value, line) else { return }
        guard let typeValue = attributes["TYPE"] else {
            missingAttribute("TYPE", of: "EXT-X-MEDIA", line)
            return
        }
        guard let type = typeValue.enumeratedString.flatMap(RenditionType.init(rawValue:)) else {
            invalidValue("TYPE", typeValue, of: "EXT-X-MEDIA", line, expected: "AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS")
            return
        }
        guard let group = attributes["GROUP-ID"]?.quotedString else {
            missingAttribute("GROUP-ID", of: "EXT-X-MEDIA", line)
            return
        }
        guard let name = attributes["NAME"]?.quotedString else {
            missingAttribute("NAME", of: "EXT-X-MEDIA", line)
            return
        }
        if !renditionNames.insert(RenditionName(type: type, group: group, name: name)).inserted {
            diagnostics.append(.error, line: line, .renditionDuplicateName,
                "Group '\(group)' already has a rendition named '\(name)'; names must be unique within a group.")
        }
        multivariant.renditions.append(Rendition(
            type: type, groupID: group, name: name, language: attributes["LANGUAGE"]?.quotedString,
            associatedLanguage: attributes["ASSOC-LANGUAGE"]?.quotedString,
            isDefault: attributes["DEFAULT"]?.enumeratedString == "YES",
            autoselect: attributes["AUTOSELECT"]?.enumeratedString == "YES",
            isForced: attributes["FORCED"]?.enumeratedString == "YES",
            uri: attributes["URI"]?.quotedString, channels: attributes["CHANNELS"]?.quotedString,
            instreamID: attributes["INSTREAM-ID"]?.quotedString, line: line))
    }

    // MARK: - Finishing

    mutating func finish() -> PlaylistParseResult {
        describeTimelineOverflow()
        if let mediaLine = firstMediaLine, let multivariantLine = firstMultivariantLine {
            diagnostics.append(.error, line: max(mediaLine, multivariantLine), .playlistMixedKinds,
                "The playlist mixes media playlist tags (first on line \(mediaLine)) with multivariant playlist tags "
                    + "(first on line \(multivariantLine)); receivers must refuse it.")
            return PlaylistParseResult(playlist: nil, diagnostics: diagnostics.diagnostics)
        }
        if let pending = pendingVariant {
            diagnostics.append(.error, line: pending.line, .variantMissingURI,
                "EXT-X-STREAM-INF is not followed by the variant's URI line; the variant is ignored.")
        }
        if firstMultivariantLine != nil {
            checkGroups()
            return PlaylistParseResult(playlist: .multivariant(multivariant), diagnostics: diagnostics.diagnostics)
        }
        if let pending = pendingSegment {
            diagnostics.append(.error, line: pending.line, .segmentMissingURI,
                "EXTINF is not followed by a segment URI; that segment is ignored.")
        }
        if media.targetDuration == nil {
            diagnostics.append(.error, line: nil, .targetDurationMissing,
                "The media playlist has no EXT-X-TARGETDURATION; add one (the longest segment, rounded).")
        }
        if media.segments.isEmpty && media.skip == nil {
            diagnostics.append(.warning, line: nil, .playlistNoSegments, "The media playlist has no segments.")
        }
        if let line = firstDateRangeLine, !media.hasProgramDateTime {
            diagnostics.append(.error, line: line, .programDateTimeMissing,
                "The playlist has EXT-X-DATERANGE tags but no EXT-X-PROGRAM-DATE-TIME, so their dates cannot be placed on the timeline; add EXT-X-PROGRAM-DATE-TIME to the first segment.")
        }
        return PlaylistParseResult(playlist: .media(media), diagnostics: diagnostics.diagnostics)
    }

    private mutating func checkGroups() {
        let known = multivariant.renditionGroups
        for variant in multivariant.variants {
            if variant.codecs.isEmpty {
                diagnostics.append(.warning, line: variant.line, .variantMissingCodecs,
                    "Variant '\(variant.uri)' has no CODECS; receivers must guess whether they can play it.")
            }
            if variant.bandwidth == nil {
                diagnostics.append(.error, line: variant.line, .attributeMissing,
                    "Variant '\(variant.uri)' has no BANDWIDTH, which EXT-X-STREAM-INF requires.")
            }
            let groups: [(RenditionType, String?, String)] = [
                (.audio, variant.audioGroup, "AUDIO"), (.video, variant.videoGroup, "VIDEO"),
                (.subtitles, variant.subtitlesGroup, "SUBTITLES"),
            ]
            for (type, group, attribute) in groups {
                guard let group, known[RenditionGroupKey(type: type, groupID: group)] == nil else { continue }
                diagnostics.append(.error, line: variant.line, .variantUnknownGroup,
                    "Variant '\(variant.uri)' names \(attribute) group '\(group)', but no EXT-X-MEDIA defines it.")
            }
        }
    }

    // MARK: - Helpers for reading tags

    private mutating func markMedia(_ line: Int) {
        if firstMediaLine == nil { firstMediaLine = line }
    }

    private mutating func markMultivariant(_ line: Int) {
        if firstMultivariantLine == nil { firstMultivariantLine = line }
    }

    /// True the first time a tag that may appear once is seen; reports the repeats.
    private mutating func once(_ name: String, _ line: Int) -> Bool {
        if seenSingletonTags.insert(name).inserted { return true }
        diagnostics.append(.error, line: line, .tagDuplicate, "\(name) appears more than once; the first one applies.")
        return false
    }

    private mutating func attributeList(_ tag: String, _ value: UnsafeBufferPointer<UInt8>, _ line: Int) -> AttributeList? {
        let reading = AttributeList.read(value)
        if let reason = reading.syntaxError {
            diagnostics.append(.error, line: line, .tagMalformed, "\(tag) is ignored: \(reason).")
            return nil
        }
        for name in reading.duplicates {
            diagnostics.append(.error, line: line, .attributeDuplicate,
                "\(tag) has the attribute \(name) more than once; the first value is used.")
        }
        return reading.list
    }
}
