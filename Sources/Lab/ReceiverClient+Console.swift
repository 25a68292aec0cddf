import Console
import Foundation
import HLS
import Playback
import SenderProtocol

extension ReceiverClient {
    /// `GET /getProperty?interstitialEvents` as JSON: the breaks the session playing will play, with
    /// their restrictions and assets; empty when no session plays.
    public func schedule() async throws(ReceiverError) -> [ScheduledInterstitial] {
        let response = try await exchange(.get, ReadableProperty.interstitialEvents.path, accept: "application/json")
        do {
            return try WireJSON.decoder.decode([ScheduledInterstitial].self, from: response.body)
        } catch {
            throw failure(.unreadableAnswer("getProperty?interstitialEvents is not a list of events: \(error)"))
        }
    }

    /// `POST /setProperty?presentationMode`: picture in picture on or off, as a sender asks for it.
    public func setPictureInPicture(_ on: Bool) async throws(ReceiverError) {
        let body = Data(#"{"value": "\#(on ? "pictureInPicture" : "standard")"}"#.utf8)
        _ = try await exchange(.post, SettableProperty.presentationMode.path, json: body)
    }
}

extension ReceiverClient {
    /// `GET /picture`: the JPEG of the frame at an airlab receiver's playhead (`focused`: for the tile in
    /// focus, which may ask more often), or with `of` (`into-before`, `into-after`, `back-before`,
    /// `back-after`) one side of its last switch, with the break it is of; `notFound` with the
    /// receiver's reason when it has none.
    public func picture(of shot: String? = nil, focused: Bool = false) async throws(ReceiverError) -> (jpeg: Data, eventID: String?) {
        var query: [String] = []
        if let shot { query.append("of=\(shot)") }
        if focused { query.append("focus") }
        let answer = try await exchange(.get, Route.picture.path() + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
        guard answer.header("Content-Type") == "image/jpeg" else { throw failure(.unreadableAnswer("/picture is not a JPEG")) }
        return (answer.body, answer.header(SenderEvent.eventHeader))
    }
}

extension BreakRules {
    /// The rules of the breaks a receiver says it will play (`getProperty?interstitialEvents`): their
    /// restrictions, skip control and asset durations.
    public init(schedule: [ScheduledInterstitial]) {
        var rules: [String: Rule] = [:]
        for event in schedule where rules[event.identifier] == nil {
            rules[event.identifier] = Rule(restrictions: event.restrictions, skipControl: event.skipControl, assetDurations: event.assets.map(\.duration))
        }
        self.init(rules)
    }
}
