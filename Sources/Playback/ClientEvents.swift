import Foundation
import HLS
import JSONDocument

/// Interstitial events a sender schedules itself, in the shape of AVPlayerInterstitialEvent, read from
/// JSON (`airlab simulate --events FILE`, `PUT /setProperty?interstitialEvents`).
///
/// An event whose `identifier` matches a playlist event overrides it: the members it gives replace
/// the playlist's values and the rest are kept, so `{"identifier": "ad-2", "restrictions": []}` lifts
/// the restrictions of ad-2 and nothing else. An event with a new identifier needs a `time` or `date`
/// and `assets` or `assetList`.
///
/// Members (AVFoundation's names; HLS spellings accepted where noted): `identifier`; `time` (seconds
/// on the primary timeline) or `date` (ISO 8601); `assets` (`[{"uri", "duration"}]`) or `assetList`
/// (a URI); `restrictions` (`constrainsSeekingForwardInPrimaryContent` / `JUMP`,
/// `requiresPlaybackAtPreferredRateForAdvancement` / `SKIP`); `resumptionOffset` (seconds, or null for
/// "the interstitial's duration"); `playoutLimit`; `cue` (`joinCue`/`PRE`, `leaveCue`/`POST`, `noCue`);
/// `willPlayOnce`; `alignsStartWithPrimarySegmentBoundary`; `alignsResumptionWithPrimarySegmentBoundary`;
/// `timelineOccupancy` (`singlePoint`/`POINT`, `range`/`RANGE`); `supplementsPrimaryContent` (true is
/// the PRIMARY timeline style); `contentMayVary`; `plannedDuration`; `skipControl`
/// (`{"offset", "duration", "labelID"}`); `userDefinedAttributes` (an object of X- attributes).
public struct ClientEvents: Sendable {
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// One event as the sender wrote it: only the members present are set.
    struct Override: Sendable {
        var identifier: String
        var anchor: InterstitialEvent.Anchor?
        var asset: InterstitialEvent.Asset?
        var restrictions: InterstitialEvent.Restrictions?
        var resumeOffset: Double??
        var playoutLimit: Double??
        var cue: InterstitialEvent.Cue?
        var willPlayOnce: Bool?
        var snapOut: Bool?
        var snapIn: Bool?
        var timelineOccupies: InterstitialEvent.TimelineOccupancy?
        var timelineStyle: InterstitialEvent.TimelineStyle?
        var contentMayVary: Bool?
        var plannedDuration: Double?
        var skipControl: InterstitialEvent.SkipControl?
        var clientAttributes: [AttributeList.Entry]?
    }

    var overrides: [Override]

    public init(parsing data: Data) throws(Failure) {
        guard let document = JSONValue(document: data) else { throw Failure(path: "$", reason: JSONValue.unreadableDocument) }
        try self.init(document)
    }

    /// The events of a document already read (a wire message's member, a property list's value).
    public init(_ document: JSONValue) throws(Failure) {
        let list: [JSONValue]
        switch document {
        case .array(let events): list = events
        case .object(let members):
            guard case .array(let events)? = members["events"] else {
                throw Failure(path: "$", reason: "expected an array of events, or an object with an \"events\" array")
            }
            list = events
        default:
            throw Failure(path: "$", reason: "expected an array of events, or an object with an \"events\" array")
        }
        var overrides: [Override] = []
        for (index, value) in list.enumerated() {
            overrides.append(try Self.override(value, path: "$[\(index)]"))
        }
        self.overrides = overrides
    }

    /// The sender's events after it sent `newer` (`PUT /setProperty?interstitialEvents`): an event
    /// with an identifier seen before replaces the earlier one whole; the others are kept.
    public func merging(_ newer: ClientEvents) -> ClientEvents {
        let replaced = Set(newer.overrides.map(\.identifier))
        var merged = self
        merged.overrides = overrides.filter { !replaced.contains($0.identifier) } + newer.overrides
        return merged
    }

    /// The identifiers of the sender's events, in the order given.
    public var identifiers: [String] { overrides.map(\.identifier) }

    /// The playlist's events with the client's applied: overrides in place, new events after them.
    public func applied(to playlistEvents: [InterstitialEvent]) throws(Failure) -> [InterstitialEvent] {
        var events = playlistEvents
        for (index, override) in overrides.enumerated() {
            if let existing = events.firstIndex(where: { $0.id == override.identifier }) {
                events[existing] = apply(override, to: events[existing])
                continue
            }
            guard let anchor = override.anchor else {
                throw Failure(path: "$[\(index)]", reason: "event '\(override.identifier)' is new, so it needs a time or a date")
            }
            guard let asset = override.asset else {
                throw Failure(path: "$[\(index)]", reason: "event '\(override.identifier)' is new, so it needs assets or an assetList")
            }
            events.append(apply(override, to: InterstitialEvent(id: override.identifier, anchor: anchor, asset: asset)))
        }
        return events
    }

    private func apply(_ override: Override, to original: InterstitialEvent) -> InterstitialEvent {
        var event = original
        if let anchor = override.anchor { event.anchor = anchor }
        if let asset = override.asset { event.asset = asset }
        if let restrictions = override.restrictions { event.restrictions = restrictions }
        if let resumeOffset = override.resumeOffset { event.resumeOffset = resumeOffset }
        if let playoutLimit = override.playoutLimit { event.playoutLimit = playoutLimit }
        if let cue = override.cue { event.cue = event.cue.subtracting([.pre, .post]).union(cue) }
        if let once = override.willPlayOnce {
            if once { event.cue.insert(.once) } else { event.cue.remove(.once) }
        }
        if let out = override.snapOut {
            if out { event.snap.insert(.out) } else { event.snap.remove(.out) }
        }
        if let snapIn = override.snapIn {
            if snapIn { event.snap.insert(.in) } else { event.snap.remove(.in) }
        }
        if let occupancy = override.timelineOccupies { event.timelineOccupies = occupancy }
        if let style = override.timelineStyle { event.timelineStyle = style }
        if let mayVary = override.contentMayVary { event.contentMayVary = mayVary }
        if let planned = override.plannedDuration { event.plannedDuration = planned }
        if let skipControl = override.skipControl { event.skipControl = skipControl }
        if let attributes = override.clientAttributes { event.clientAttributes = attributes }
        if case .inline(let assets)? = override.asset { event.duration = assets.reduce(0) { $0 + $1.duration } }
        return event
    }

    // MARK: - Reading

    private static func override(_ value: JSONValue, path: String) throws(Failure) -> Override {
        guard case .object(let members) = value else { throw Failure(path: path, reason: "an event is a JSON object") }
        func fail(_ member: String, _ reason: String) -> Failure { Failure(path: "\(path).\(member)", reason: reason) }
        func number(_ member: String, minimum: Double? = nil) throws(Failure) -> Double? {
            guard let value = members[member] else { return nil }
            guard case .number(let number) = value, NumericRange.offset.contains(number) else { throw fail(member, "expected a number of seconds within \(NumericRange.offset), found \(value.description)") }
            if let minimum, number < minimum { throw fail(member, "must be at least \(JSONValue.number(minimum).description)") }
            return number
        }
        func bool(_ member: String) throws(Failure) -> Bool? {
            guard let value = members[member] else { return nil }
            guard case .bool(let flag) = value else { throw fail(member, "expected true or false, found \(value.description)") }
            return flag
        }
        func string(_ member: String) throws(Failure) -> String? {
            guard let value = members[member] else { return nil }
            guard case .string(let text) = value, !text.isEmpty else { throw fail(member, "expected a non-empty string, found \(value.description)") }
            return text
        }

        let identifier: String
        if let given = try string("identifier") {
            identifier = given
        } else if let given = try string("id") {
            identifier = given
        } else {
            throw Failure(path: path, reason: "an event needs an \"identifier\"")
        }
        var override = Override(identifier: identifier)
        if let time = try number("time", minimum: 0) {
            override.anchor = .time(time)
        } else if let text = try string("date") {
            // No diagnostics travel back with client events, so a date without a zone cannot be read as
            // UTC with a warning as a playlist's is: the sender is asked for the zone instead.
            guard let reading = ProgramDate.read(text), reading.hasTimeZone else { throw fail("date", "\"\(text)\" is not an ISO 8601 date with a time zone") }
            override.anchor = .date(reading.date)
        }
        if let assets = members["assets"] {
            guard case .array(let items) = assets, !items.isEmpty else { throw fail("assets", "expected a non-empty array of {\"uri\", \"duration\"}") }
            var inline: [AssetList.Asset] = []
            for (index, item) in items.enumerated() {
                guard case .object(let asset) = item, case .string(let uri)? = asset["uri"], !uri.isEmpty,
                    case .number(let duration)? = asset["duration"], NumericRange.duration.contains(duration)
                else {
                    throw fail("assets[\(index)]", "an asset is {\"uri\": \"https://…\", \"duration\": seconds}")
                }
                inline.append(AssetList.Asset(uri: uri, duration: duration))
            }
            override.asset = .inline(inline)
        } else if let list = try string("assetList") {
            override.asset = .list(list)
        }
        if let restrictions = members["restrictions"] {
            guard case .array(let names) = restrictions else { throw fail("restrictions", "expected an array of restriction names") }
            var set: InterstitialEvent.Restrictions = []
            for (index, name) in names.enumerated() {
                guard case .string(let text) = name, let restriction = InterstitialEvent.Restriction(anySpelling: text) else {
                    let known = InterstitialEvent.Restriction.allCases.map { "\($0.avFoundationName) (\($0.rawValue))" }.joined(separator: " or ")
                    throw fail("restrictions[\(index)]", "\(name.description) is not a restriction; use \(known)")
                }
                set.insert(InterstitialEvent.Restrictions(restriction))
            }
            override.restrictions = set
        }
        if let value = members["resumptionOffset"] {
            switch value {
            case .null: override.resumeOffset = .some(nil)
            case .number(let offset) where NumericRange.offset.contains(offset): override.resumeOffset = .some(offset)
            default: throw fail("resumptionOffset", "expected seconds, or null for the interstitial's duration")
            }
        }
        if let value = members["playoutLimit"] {
            switch value {
            case .null: override.playoutLimit = .some(nil)
            case .number(let limit) where NumericRange.playoutLimit.contains(limit): override.playoutLimit = .some(limit)
            default: throw fail("playoutLimit", "expected a positive number of seconds, or null")
            }
        }
        if let cue = try string("cue") {
            switch cue {
            case "joinCue", "PRE": override.cue = .pre
            case "leaveCue", "POST": override.cue = .post
            case "noCue", "NONE": override.cue = []
            default: throw fail("cue", "\"\(cue)\" is not a cue; use joinCue (PRE), leaveCue (POST) or noCue")
            }
        }
        override.willPlayOnce = try bool("willPlayOnce")
        override.snapOut = try bool("alignsStartWithPrimarySegmentBoundary")
        override.snapIn = try bool("alignsResumptionWithPrimarySegmentBoundary")
        if let occupancy = try string("timelineOccupancy") {
            switch occupancy {
            case "singlePoint", "POINT": override.timelineOccupies = .point
            case "range", "RANGE": override.timelineOccupies = .range
            default: throw fail("timelineOccupancy", "\"\(occupancy)\" is not singlePoint (POINT) or range (RANGE)")
            }
        }
        if let supplements = try bool("supplementsPrimaryContent") {
            override.timelineStyle = supplements ? .primary : .highlight
        }
        override.contentMayVary = try bool("contentMayVary")
        override.plannedDuration = try number("plannedDuration", minimum: 0)
        if let value = members["skipControl"] {
            guard case .object(let control) = value else { throw fail("skipControl", "expected {\"offset\", \"duration\", \"labelID\"}") }
            var skip = InterstitialEvent.SkipControl()
            if case .number(let offset)? = control["offset"], NumericRange.duration.contains(offset) { skip.offset = offset }
            if case .number(let duration)? = control["duration"], NumericRange.duration.contains(duration) { skip.duration = duration }
            if case .string(let label)? = control["labelID"] { skip.labelID = label }
            override.skipControl = skip
        }
        if let value = members["userDefinedAttributes"] {
            guard case .object(let attributes) = value else { throw fail("userDefinedAttributes", "expected an object of X- attributes") }
            override.clientAttributes = attributes.sorted { $0.key < $1.key }.map { name, value in
                let attribute: AttributeValue = switch value {
                case .string(let text): .quoted(text)
                case let other: .unquoted(other.description)
                }
                return AttributeList.Entry(name: name, value: attribute)
            }
        }
        return override
    }
}
