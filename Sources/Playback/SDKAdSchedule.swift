import Foundation
import HLS
import JSONDocument
import Profiles

/// Ad breaks that an ad SDK on the sender side starts itself (Google IMA's `adsManager.start()` on the
/// content player), as a VMAP response would give them: breaks at content times, each a pod of ads.
///
/// Declared by the sender (`airlab cast|simulate --sdk-ads FILE`, the JSON `/play` member
/// `sdkAdBreaks`) in this JSON form, read strictly: unknown members are refused, numbers are
/// range-checked, and an error names the member (`$.breaks[1].ads[0].duration`).
///
/// ```json
/// {"breaks": [
///   {"id": "pre", "time": "start", "ads": [{"duration": 15}]},
///   {"id": "mid-1", "time": 600, "ads": [{"duration": 30}, {"duration": 15, "uri": "https://ads.example/b.mp4"}]},
///   {"id": "post", "time": "end", "ads": [{"duration": 20}]}
/// ]}
/// ```
/// `time` is `"start"` (a pre-roll), `"end"` (a post-roll) or seconds of content. `id` defaults to
/// `break-N` (N counting from 1) and must be unique. SDK ads do not replace content: content resumes
/// where it paused, as IMA resumes it.
public struct SDKAdSchedule: Sendable, Hashable {
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public enum Time: Sendable, Hashable {
        case start
        case seconds(Double)
        case end
    }

    public struct Ad: Sendable, Hashable {
        public var duration: Double
        public var uri: String?
    }

    public struct Break: Sendable, Hashable {
        public var id: String
        public var time: Time
        public var ads: [Ad]

        /// Seconds of ads the break holds.
        public var seconds: Double { ads.reduce(0) { $0 + $1.duration } }
    }

    public var breaks: [Break]

    public init(breaks: [Break] = []) {
        self.breaks = breaks
    }

    /// The engine's event ID of a break: prefixed so that it never meets a playlist's event ID.
    public static func eventID(of breakID: String) -> String { "sdk:\(breakID)" }

    /// More breaks or ads than any VMAP holds is a mistake, and bounds the plan's size.
    static let maximumBreaks = 1_000
    static let maximumAdsPerBreak = 100

    public init(parsing data: Data) throws(Failure) {
        guard let document = JSONValue(document: data) else { throw Failure(path: "$", reason: JSONValue.unreadableDocument) }
        try self.init(document)
    }

    /// The breaks of a document already read (the `/play` member's value).
    public init(_ document: JSONValue) throws(Failure) {
        guard case .object(let members) = document else {
            throw Failure(path: "$", reason: "expected an object with a \"breaks\" array")
        }
        try Self.refuseUnknown(members, known: ["breaks"], path: "$")
        guard case .array(let list)? = members["breaks"] else {
            throw Failure(path: "$.breaks", reason: "expected an array of ad breaks")
        }
        guard list.count <= Self.maximumBreaks else {
            throw Failure(path: "$.breaks", reason: "holds \(list.count) breaks; at most \(Self.maximumBreaks) are accepted")
        }
        var breaks: [Break] = []
        var seen: Set<String> = []
        for (index, value) in list.enumerated() {
            let read = try Self.adBreak(value, index: index)
            guard seen.insert(read.id).inserted else {
                throw Failure(path: "$.breaks[\(index)].id", reason: "'\(read.id)' names an earlier break too; ids must be unique")
            }
            breaks.append(read)
        }
        self.breaks = breaks
    }

    private static func adBreak(_ value: JSONValue, index: Int) throws(Failure) -> Break {
        let path = "$.breaks[\(index)]"
        guard case .object(let members) = value else { throw Failure(path: path, reason: "expected an object") }
        try refuseUnknown(members, known: ["id", "time", "ads"], path: path)
        var id = "break-\(index + 1)"
        switch members["id"] {
        case nil: break
        case .string(let text)? where !text.isEmpty && text.count <= 200: id = text
        default: throw Failure(path: "\(path).id", reason: "expected text of 1 to 200 characters")
        }
        let time: Time
        switch members["time"] {
        case .string("start")?: time = .start
        case .string("end")?: time = .end
        case .number(let seconds)?:
            guard NumericRange.timeline.contains(seconds) else {
                throw Failure(path: "\(path).time", reason: "\(JSONValue.number(seconds).description) is outside \(NumericRange.timeline)")
            }
            time = .seconds(seconds)
        case nil: throw Failure(path: "\(path).time", reason: "is required: \"start\", \"end\" or seconds of content")
        default: throw Failure(path: "\(path).time", reason: "expected \"start\", \"end\" or seconds of content")
        }
        guard case .array(let list)? = members["ads"] else {
            throw Failure(path: "\(path).ads", reason: "expected an array of ads")
        }
        guard !list.isEmpty, list.count <= maximumAdsPerBreak else {
            throw Failure(path: "\(path).ads", reason: "holds \(list.count) ads; a break holds 1 to \(maximumAdsPerBreak)")
        }
        var ads: [Ad] = []
        for (adIndex, ad) in list.enumerated() {
            ads.append(try self.ad(ad, path: "\(path).ads[\(adIndex)]"))
        }
        return Break(id: id, time: time, ads: ads)
    }

    private static func ad(_ value: JSONValue, path: String) throws(Failure) -> Ad {
        guard case .object(let members) = value else { throw Failure(path: path, reason: "expected an object") }
        try refuseUnknown(members, known: ["duration", "uri"], path: path)
        guard case .number(let duration)? = members["duration"] else {
            throw Failure(path: "\(path).duration", reason: "is required: the ad's seconds")
        }
        guard NumericRange.playoutLimit.contains(duration) else {
            throw Failure(path: "\(path).duration", reason: "\(JSONValue.number(duration).description) is outside \(NumericRange.playoutLimit)")
        }
        var uri: String?
        switch members["uri"] {
        case nil: break
        case .string(let text)?: uri = text
        default: throw Failure(path: "\(path).uri", reason: "expected text")
        }
        return Ad(duration: duration, uri: uri)
    }

    private static func refuseUnknown(_ members: [String: JSONValue], known: Set<String>, path: String) throws(Failure) {
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw Failure(path: "\(path).\(unknown)", reason: "is not a member airlab knows (\(known.sorted().joined(separator: ", ")))")
        }
    }
}

/// What the emulated SDK does with a break that falls due while picture in picture is active.
///
/// IMA does not say; its sample never starts the break (so `skip` is the default), an app may start
/// it once PiP ends (`defer`), or ignore the rule and call start anyway (`attempt`, refused and counted
/// as a violation).
public enum SDKAdInPictureInPicture: String, Sendable, Hashable, Codable, CaseIterable {
    case skip
    case `defer`
    case attempt
}

extension SDKAdSchedule {
    /// The engine's pods for these breaks: one pod a break, one asset an ad, each resuming content
    /// where it paused. Pre-rolls sit at `startPosition`, post-rolls at the end; live content has no
    /// end, so its post-rolls are left out, as are mid-rolls past a VOD's end.
    ///
    /// - Parameter transition: the latency of a named switch (into a break, between its ads, back to
    ///   content), from the session's transition model.
    public func plannedPods(
        primaryDuration: Double, isLive: Bool, startPosition: Double, transition: (String) -> Transition = { _ in .instant }
    ) -> [PlannedPod] {
        var pods: [PlannedPod] = []
        for adBreak in breaks {
            let position: Double
            switch adBreak.time {
            case .start: position = startPosition
            case .seconds(let seconds):
                guard isLive || seconds <= primaryDuration + InterstitialSchedule.tolerance else { continue }
                position = isLive ? seconds : min(seconds, primaryDuration)
            case .end:
                guard !isLive else { continue }
                position = primaryDuration
            }
            let eventID = Self.eventID(of: adBreak.id)
            let assets = adBreak.ads.enumerated().map { index, ad in
                PlannedAsset(
                    uri: ad.uri ?? "sdk-ad:\(adBreak.id)/\(index)", duration: ad.duration,
                    transitionFromPrevious: index == 0 ? .instant : transition("\(eventID)/\(index)"))
            }
            let member = PlannedBreak(
                eventID: eventID, position: position, resumeOffset: 0, cue: [.once], assets: assets,
                transitionIn: transition("\(eventID)/in"), transitionOut: transition("\(eventID)/out"), startedBySDK: true)
            pods.append(PlannedPod(placement: .mid, position: position, resumeAt: position, members: [member]))
        }
        return pods
    }
}
