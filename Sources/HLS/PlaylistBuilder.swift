import Foundation

/// Accumulates the tags and URIs of one playlist, line by line, into a multivariant or media playlist.
struct PlaylistBuilder {
    private var media = MediaPlaylist()
    private var multivariant = MultivariantPlaylist()
    private var diagnostics: [Diagnostic] = []

    /// Lines that only a media playlist may hold, and only a multivariant playlist may hold.
    private var firstMediaLine: Int?
    private var firstMultivariantLine: Int?

    // The tags that apply to the next URI.
    private var pendingSegment: (duration: Double, title: String?, line: Int)?
    private var pendingSegmentIsInvalid = false
    private var pendingDiscontinuity = false
    private var pendingProgramDateTime: Date?
    private var pendingByteRange: ByteRange?
    private var pendingGap = false
    private var pendingVariant: Variant?
    private var currentMap: MediaInitializationSection?
    private var position = 0.0

    private var dateRangeIndex: [String: Int] = [:]
    private var firstDateRangeLine: Int?
    private var seenSingletonTags: Set<String> = []

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
            if let date = ProgramDate.parse(value) {
                pendingProgramDateTime = date
            } else {
                malformed(name, value, line, expected: "an ISO 8601 date with a time zone, such as 2026-01-01T00:00:00.000Z")
            }
        case "EXT-X-DISCONTINUITY":
            markMedia(line)
            pendingDiscontinuity = true
        case "EXT-X-BYTERANGE":
            markMedia(line)
            if let range = ByteRange(value.string) {
                pendingByteRange = range
            } else {
                malformed(name, value, line, expected: "length[@offset] in bytes")
            }
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
                map.byteRange = range.quotedString.flatMap(ByteRange.init)
                if map.byteRange == nil { invalidValue("BYTERANGE", range, of: name, line, expected: "\"length@offset\"") }
            }
            currentMap = map
        case "EXT-X-DATERANGE":
            markMedia(line)
            consumeDateRange(value, line: line)
        case "EXT-X-TARGETDURATION":
            markMedia(line)
            guard once(name, line) else { return }
            if let seconds = decimalInteger(value) {
                media.targetDuration = Double(seconds)
            } else {
                malformed(name, value, line, expected: "a whole number of seconds")
            }
        case "EXT-X-MEDIA-SEQUENCE":
            markMedia(line)
            guard once(name, line) else { return }
            if let sequence = decimalInteger(value) { media.mediaSequence = sequence } else { malformed(name, value, line, expected: "a whole number") }
        case "EXT-X-DISCONTINUITY-SEQUENCE":
            markMedia(line)
            guard once(name, line) else { return }
            if let sequence = decimalInteger(value) { media.discontinuitySequence = sequence } else { malformed(name, value, line, expected: "a whole number") }
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
            guard let skipped = attributes["SKIPPED-SEGMENTS"]?.integer else {
                missingAttribute("SKIPPED-SEGMENTS", of: name, line)
                return
            }
            let removed = attributes["RECENTLY-REMOVED-DATERANGES"]?.quotedString ?? ""
            media.skip = DeltaSkip(
                skippedSegments: skipped, recentlyRemovedDateRanges: removed.split(separator: "\t").map(String.init))
        case "EXT-X-STREAM-INF":
            markMultivariant(line)
            guard let attributes = attributeList(name, value, line) else { return }
            if pendingVariant != nil {
                diagnostics.append(Diagnostic(.error, line: pendingVariant!.line, .variantMissingURI,
                    "EXT-X-STREAM-INF is not followed by the variant's URI line; the variant is ignored."))
            }
            pendingVariant = variant(attributes, uri: "", line: line)
        case "EXT-X-I-FRAME-STREAM-INF":
            markMultivariant(line)
            guard let attributes = attributeList(name, value, line) else { return }
            guard let uri = attributes["URI"]?.quotedString else {
                missingAttribute("URI", of: name, line)
                return
            }
            multivariant.iFrameVariants.append(variant(attributes, uri: uri, line: line))
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
            guard let offset = attributes["TIME-OFFSET"]?.decimal else {
                missingAttribute("TIME-OFFSET", of: name, line)
                return
            }
            let start = StartPoint(timeOffset: offset, isPrecise: attributes["PRECISE"]?.enumeratedString == "YES")
            media.start = start
            multivariant.start = start
        case "EXT-X-VERSION":
            guard once(name, line) else { return }
            if let version = decimalInteger(value) { media.version = version } else { malformed(name, value, line, expected: "a whole number") }
        case "EXTM3U":
            diagnostics.append(Diagnostic(.warning, line: line, .tagDuplicate, "#EXTM3U appears again after the first line; the repeat is ignored."))
        default:
            // Unknown tags are ignored, as RFC 8216bis §6.3.1 requires for forward compatibility.
            return
        }
    }

    private mutating func consumeSegmentInfo(_ value: UnsafeBufferPointer<UInt8>, line: Int) {
        markMedia(line)
        if let pending = pendingSegment {
            diagnostics.append(Diagnostic(.error, line: pending.line, .segmentMissingURI,
                "EXTINF is not followed by a segment URI; that segment is ignored."))
        }
        let comma = value.firstIndex(of: UInt8(ascii: ","))
        let durationBytes = UnsafeBufferPointer(rebasing: value[..<(comma ?? value.endIndex)])
        guard let duration = DecimalReader.read(durationBytes), duration >= 0 else {
            malformed("EXTINF", value, line, expected: "a duration in seconds, then a comma and an optional title")
            pendingSegment = nil
            pendingSegmentIsInvalid = true
            return
        }
        var title: String?
        if let comma, comma + 1 < value.endIndex {
            title = UnsafeBufferPointer(rebasing: value[(comma + 1)...]).string
        }
        pendingSegment = (duration, title, line)
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
                diagnostics.append(Diagnostic(.error, line: line, .uriWithoutSegmentInfo,
                    "The URI '\(uri)' has no EXTINF or EXT-X-STREAM-INF before it; it is ignored."))
            }
            pendingSegmentIsInvalid = false
            return
        }
        if let target = media.targetDuration, info.duration.rounded() > target {
            diagnostics.append(Diagnostic(.warning, line: info.line, .segmentExceedsTargetDuration,
                "Segment '\(uri)' lasts \(info.duration) s, more than EXT-X-TARGETDURATION \(Int(target)) s once rounded; receivers may stall or reload too late."))
        }
        media.segments.append(Segment(
            uri: uri, duration: info.duration, title: info.title, start: position,
            programDateTime: pendingProgramDateTime, discontinuity: pendingDiscontinuity, byteRange: pendingByteRange,
            map: currentMap, isGap: pendingGap, line: line))
        position += info.duration
        pendingSegment = nil
        pendingProgramDateTime = nil
        pendingDiscontinuity = false
        pendingByteRange = nil
        pendingGap = false
    }

    // MARK: - Date ranges

    private mutating func consumeDateRange(_ value: UnsafeBufferPointer<UInt8>, line: Int) {
        if firstDateRangeLine == nil { firstDateRangeLine = line }
        guard let attributes = attributeList("EXT-X-DATERANGE", value, line) else { return }
        guard let id = attributes[.id]?.quotedString, !id.isEmpty else {
            diagnostics.append(Diagnostic(.error, line: line, .dateRangeMissingID,
                "EXT-X-DATERANGE has no ID (a quoted string); the tag is ignored."))
            return
        }
        let problems = DateRange.validate(attributes, id: id, line: line)
        diagnostics += problems
        if let index = dateRangeIndex[id] {
            diagnostics += media.dateRanges[index].merge(attributes, line: line)
            return
        }
        guard attributes[.startDate] != nil else {
            diagnostics.append(Diagnostic(.error, line: line, .dateRangeMissingStartDate,
                "Date range '\(id)' has no START-DATE; the first tag of a date range needs one. The tag is ignored."))
            return
        }
        dateRangeIndex[id] = media.dateRanges.count
        media.dateRanges.append(DateRange(id: id, attributes: attributes, line: line))
    }

    // MARK: - Multivariant

    private func variant(_ attributes: AttributeList, uri: String, line: Int) -> Variant {
        var variant = Variant(uri: uri, line: line)
        variant.bandwidth = attributes["BANDWIDTH"]?.integer
        variant.averageBandwidth = attributes["AVERAGE-BANDWIDTH"]?.integer
        variant.codecs = attributes["CODECS"]?.quotedString?.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        } ?? []
        variant.resolution = attributes["RESOLUTION"]?.resolution
        variant.frameRate = attributes["FRAME-RATE"]?.decimal
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
        if multivariant.renditions.contains(where: { $0.type == type && $0.groupID == group && $0.name == name }) {
            diagnostics.append(Diagnostic(.error, line: line, .renditionDuplicateName,
                "Group '\(group)' already has a rendition named '\(name)'; names must be unique within a group."))
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
        if let mediaLine = firstMediaLine, let multivariantLine = firstMultivariantLine {
            diagnostics.append(Diagnostic(.error, line: max(mediaLine, multivariantLine), .playlistMixedKinds,
                "The playlist mixes media playlist tags (first on line \(mediaLine)) with multivariant playlist tags "
                    + "(first on line \(multivariantLine)); receivers must refuse it."))
            return PlaylistParseResult(playlist: nil, diagnostics: diagnostics)
        }
        if let pending = pendingVariant {
            diagnostics.append(Diagnostic(.error, line: pending.line, .variantMissingURI,
                "EXT-X-STREAM-INF is not followed by the variant's URI line; the variant is ignored."))
        }
        if firstMultivariantLine != nil {
            checkGroups()
            return PlaylistParseResult(playlist: .multivariant(multivariant), diagnostics: diagnostics)
        }
        if let pending = pendingSegment {
            diagnostics.append(Diagnostic(.error, line: pending.line, .segmentMissingURI,
                "EXTINF is not followed by a segment URI; that segment is ignored."))
        }
        if media.targetDuration == nil {
            diagnostics.append(Diagnostic(.error, line: nil, .targetDurationMissing,
                "The media playlist has no EXT-X-TARGETDURATION; add one (the longest segment, rounded)."))
        }
        if media.segments.isEmpty && media.skip == nil {
            diagnostics.append(Diagnostic(.warning, line: nil, .playlistNoSegments, "The media playlist has no segments."))
        }
        if let line = firstDateRangeLine, !media.hasProgramDateTime {
            diagnostics.append(Diagnostic(.error, line: line, .programDateTimeMissing,
                "The playlist has EXT-X-DATERANGE tags but no EXT-X-PROGRAM-DATE-TIME, so their dates cannot be placed on the timeline; add EXT-X-PROGRAM-DATE-TIME to the first segment."))
        }
        return PlaylistParseResult(playlist: .media(media), diagnostics: diagnostics)
    }

    private mutating func checkGroups() {
        for variant in multivariant.variants {
            if variant.codecs.isEmpty {
                diagnostics.append(Diagnostic(.warning, line: variant.line, .variantMissingCodecs,
                    "Variant '\(variant.uri)' has no CODECS; receivers must guess whether they can play it."))
            }
            if variant.bandwidth == nil {
                diagnostics.append(Diagnostic(.error, line: variant.line, .attributeMissing,
                    "Variant '\(variant.uri)' has no BANDWIDTH, which EXT-X-STREAM-INF requires."))
            }
            let groups: [(RenditionType, String?, String)] = [
                (.audio, variant.audioGroup, "AUDIO"), (.video, variant.videoGroup, "VIDEO"),
                (.subtitles, variant.subtitlesGroup, "SUBTITLES"),
            ]
            for (type, group, attribute) in groups {
                guard let group, multivariant.renditions(ofType: type, group: group).isEmpty else { continue }
                diagnostics.append(Diagnostic(.error, line: variant.line, .variantUnknownGroup,
                    "Variant '\(variant.uri)' names \(attribute) group '\(group)', but no EXT-X-MEDIA defines it."))
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
        diagnostics.append(Diagnostic(.error, line: line, .tagDuplicate, "\(name) appears more than once; the first one applies."))
        return false
    }

    private mutating func attributeList(_ tag: String, _ value: UnsafeBufferPointer<UInt8>, _ line: Int) -> AttributeList? {
        let reading = AttributeList.read(value)
        if let reason = reading.syntaxError {
            diagnostics.append(Diagnostic(.error, line: line, .tagMalformed, "\(tag) is ignored: \(reason)."))
            return nil
        }
        for name in reading.duplicates {
            diagnostics.append(Diagnostic(.error, line: line, .attributeDuplicate,
                "\(tag) has the attribute \(name) more than once; the first value is used."))
        }
        return reading.list
    }

    private mutating func malformed(_ tag: String, _ value: UnsafeBufferPointer<UInt8>, _ line: Int, expected: String) {
        diagnostics.append(Diagnostic(.error, line: line, .tagMalformed,
            "#\(tag):\(value.string) is ignored: expected \(expected)."))
    }

    private mutating func missingAttribute(_ attribute: String, of tag: String, _ line: Int) {
        diagnostics.append(Diagnostic(.error, line: line, .attributeMissing, "\(tag) has no \(attribute); the tag is ignored."))
    }

    private mutating func invalidValue(_ attribute: String, _ value: AttributeValue, of tag: String, _ line: Int, expected: String) {
        diagnostics.append(Diagnostic(.error, line: line, .attributeInvalidValue,
            "\(tag) has \(attribute)=\(value); expected \(expected)."))
    }

    private func decimalInteger(_ value: UnsafeBufferPointer<UInt8>) -> Int? {
        AttributeValue.unquoted(value.string).integer
    }
}

/// Reads decimal-floating-point numbers from bytes without building a String: EXTINF is on every segment.
enum DecimalReader {
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var integer: UInt64 = 0
        var fraction: UInt64 = 0
        var fractionDigits = 0
        var sawDigit = false
        var inFraction = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                let digit = UInt64(byte - UInt8(ascii: "0"))
                if inFraction {
                    // Digits past 18 add nothing a Double can hold.
                    if fractionDigits < 18 {
                        fraction = fraction * 10 + digit
                        fractionDigits += 1
                    }
                } else {
                    let (product, overflow) = integer.multipliedReportingOverflow(by: 10)
                    guard !overflow else { return nil }
                    integer = product + digit
                }
            case UInt8(ascii: ".") where !inFraction:
                inFraction = true
            default:
                return nil
            }
        }
        guard sawDigit else { return nil }
        return Double(integer) + Double(fraction) / powersOfTen[fractionDigits]
    }

    private static let powersOfTen: [Double] = (0...18).map { pow(10, Double($0)) }
}
