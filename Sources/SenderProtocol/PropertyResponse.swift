import Foundation
import HLS
import Playback

/// `POST /getProperty?NAME` answers: a property list `{"errorCode": 0, "value": …}` as AirPlay
/// receivers send (`PropertyAnswer`), or the bare value as JSON for tools that ask for `application/json`.
public enum PropertyResponse {
    /// The effective schedule: every break the engine plays, with the skip control of the playlist's
    /// event of the same ID.
    public static func interstitialEvents(_ plan: PlaybackPlan, events: [InterstitialEvent] = []) -> [ScheduledInterstitial] {
        let skipControls = Dictionary(events.map { ($0.id, $0.skipControl) }, uniquingKeysWith: { first, _ in first })
        return plan.breaks.map { ScheduledInterstitial($0, skipControl: skipControls[$0.eventID] ?? nil) }
    }

    /// The answer for `value`, in the form the request asked for; JSON writes dates as ISO 8601 text.
    public static func body(_ value: some Codable & Sendable, json: Bool) -> (data: Data, contentType: String) {
        if json { return (WireJSON.data(value), "application/json") }
        return ((try? XMLPropertyList(encoding: PropertyAnswer(value: value)).document()) ?? Data(), "text/x-apple-plist+xml")
    }
}

/// The property list of a property route's answer: `errorCode` 0, and the value when there is one
/// (`setProperty` answers without).
public struct PropertyAnswer<Value: Codable & Sendable>: Sendable, Codable {
    public var errorCode = 0
    public var value: Value?

    public init(value: Value?) {
        self.value = value
    }
}

extension PropertyAnswer: Equatable where Value: Equatable {}
