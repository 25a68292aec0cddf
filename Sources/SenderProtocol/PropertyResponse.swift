import Emulation
import HLS
import Foundation

/// `POST /getProperty?NAME` answers: a property list `{"errorCode": 0, "value": …}` as AirPlay
/// receivers send, or the bare value as JSON for tools that ask for `application/json`.
public enum PropertyResponse {
    /// The effective schedule: every break the engine plays, after the playlist's events, the
    /// sender's and the schedule's rules were applied.
    public static func interstitialEvents(_ plan: PlaybackPlan) -> [[String: Any]] {
        plan.breaks.map { planned in
            var event: [String: Any] = [
                "identifier": planned.eventID,
                "time": planned.position,
                "resumptionOffset": planned.resumeOffset,
                "restrictions": restrictionNames(planned.restrictions),
                "cue": planned.cue.contains(.pre) ? "joinCue" : planned.cue.contains(.post) ? "leaveCue" : "noCue",
                "willPlayOnce": planned.cue.contains(.once),
                "alignsStartWithPrimarySegmentBoundary": planned.snap.contains(.out),
                "alignsResumptionWithPrimarySegmentBoundary": planned.snap.contains(.in),
                "assets": planned.assets.map { asset -> [String: Any] in
                    var entry: [String: Any] = ["uri": asset.uri, "duration": asset.duration]
                    if let failure = asset.failure { entry["failure"] = failure }
                    return entry
                },
            ]
            if let limit = planned.playoutLimit { event["playoutLimit"] = limit }
            if let failure = planned.failure { event["failure"] = failure }
            return event
        }
    }

    /// AVFoundation's names for the restrictions, which senders compare against.
    static func restrictionNames(_ restrictions: InterstitialEvent.Restrictions) -> [String] {
        var names: [String] = []
        if restrictions.contains(.jump) { names.append("constrainsSeekingForwardInPrimaryContent") }
        if restrictions.contains(.skip) { names.append("requiresPlaybackAtPreferredRateForAdvancement") }
        return names
    }

    /// The answer for `value`, in the form the request asked for; for JSON, dates become ISO 8601 text.
    public static func body(_ value: Any, json: Bool) -> (data: Data, contentType: String) {
        if json {
            let data = (try? JSONSerialization.data(withJSONObject: PropertyListValue.jsonCompatible(value), options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("null".utf8)
            return (data, "application/json")
        }
        let wrapped: [String: Any] = ["errorCode": 0, "value": value]
        let data = (try? PropertyListSerialization.data(fromPropertyList: wrapped, format: .xml, options: 0)) ?? Data()
        return (data, "text/x-apple-plist+xml")
    }
}
