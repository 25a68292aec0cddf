/// The attribute names of EXT-X-DATERANGE that airlab reads, spelled once, as the spec spells them.
public enum DateRangeAttribute: String, CaseIterable, Sendable {
    case id = "ID"
    case `class` = "CLASS"
    case startDate = "START-DATE"
    case cue = "CUE"
    case endDate = "END-DATE"
    case duration = "DURATION"
    case plannedDuration = "PLANNED-DURATION"
    case endOnNext = "END-ON-NEXT"
    case scte35Cmd = "SCTE35-CMD"
    case scte35Out = "SCTE35-OUT"
    case scte35In = "SCTE35-IN"

    // Appendix D: the interstitial class.
    case assetURI = "X-ASSET-URI"
    case assetList = "X-ASSET-LIST"
    case resumeOffset = "X-RESUME-OFFSET"
    case playoutLimit = "X-PLAYOUT-LIMIT"
    case snap = "X-SNAP"
    case restrict = "X-RESTRICT"
    case contentMayVary = "X-CONTENT-MAY-VARY"
    case timelineOccupies = "X-TIMELINE-OCCUPIES"
    case timelineStyle = "X-TIMELINE-STYLE"
    case skipControlOffset = "X-SKIP-CONTROL-OFFSET"
    case skipControlDuration = "X-SKIP-CONTROL-DURATION"
    case skipControlLabelID = "X-SKIP-CONTROL-LABEL-ID"

    /// The X- attributes that the interstitial class defines; every other X- attribute belongs to the client.
    static let interstitialNames: Set<String> = [
        assetURI, assetList, resumeOffset, playoutLimit, snap, restrict, contentMayVary, timelineOccupies,
        timelineStyle, skipControlOffset, skipControlDuration, skipControlLabelID,
    ].reduce(into: []) { $0.insert($1.rawValue) }
}

extension AttributeList {
    subscript(attribute: DateRangeAttribute) -> AttributeValue? {
        self[attribute.rawValue]
    }
}
