import Foundation
import JSONDocument
@testable import Lab
import SenderProtocol
import Testing

/// What the receiver's answers become on the sender's side.
@Suite("Receiver client")
struct ReceiverClientTests {
    func check(status: Int, headers: KeyValuePairs<String, String> = [:], body: String, password: String? = nil) -> ReceiverError? {
        let client = ReceiverClient(Receiver(name: "Living Room", address: ReceiverAddress(host: "10.0.0.5", port: 7000)), password: password)
        do throws(ReceiverError) {
            try client.check(ReceiverAnswer(status: status, headers: headers.map { ($0.key, $0.value) }, body: Data(body.utf8)))
            return nil
        } catch {
            return error
        }
    }

    @Test("A 403 keeps the receiver's sentence, and its headers name the restriction and the interstitial")
    func refusal() {
        let error = check(
            status: 403, headers: ["X-Airlab-Restriction": "SKIP", "X-Airlab-Event": "ad-1"],
            body: "seek 25 refused by the SKIP restriction of interstitial 'ad-1'\n")
        #expect(error?.description == "receiver \"Living Room\" (10.0.0.5:7000): seek 25 refused by the SKIP restriction of interstitial 'ad-1'")
        #expect(error?.problem == .refused(restriction: "SKIP", eventID: "ad-1", message: "seek 25 refused by the SKIP restriction of interstitial 'ad-1'"))
        let bare = check(status: 403, headers: ["X-Airlab-Restriction": "JUMP", "X-Airlab-Event": "ad-2"], body: "")
        #expect(bare?.reason == "refused the command (JUMP restriction of interstitial 'ad-2')")
    }

    @Test("Each status a receiver answers with becomes a sentence naming the receiver")
    func statuses() {
        #expect(check(status: 200, body: "") == nil)
        #expect(check(status: 409, body: "no session is playing\n")?.reason == "plays no session (no session is playing)")
        #expect(check(status: 422, body: "x.m3u8: HTTP 404\n")?.reason == "cannot play the playlist: x.m3u8: HTTP 404")
        #expect(check(status: 401, body: "", password: "wrong")?.reason == "refused the password (HTTP 401)")
        #expect(check(status: 400, body: "start in the /play JSON is not a number of seconds\n")?.reason
            == "rejected the request: start in the /play JSON is not a number of seconds")
        #expect(check(status: 503, body: "the receiver is shutting down\n")?.reason == "answered HTTP 503: the receiver is shutting down")
    }

    @Test("The /play body reads back through the receiver's own decoder with every field as sent")
    func playOrderRoundTrip() throws {
        var order = PlayOrder(url: "http://10.0.0.2:8000/show.m3u8")
        order.start = 12.5
        order.detached = true
        order.automaticallyHandlesInterstitialEvents = false
        order.interstitialEvents = try JSONDecoder().decode(JSONValue.self, from: Data(#"[{"identifier": "ad-1", "restrictions": []}]"#.utf8))
        order.audioLanguage = "fr"
        order.seed = UInt64.max
        order.script = "at 3 seek 40; at 12 pause"
        let request = try PlayRequest.decode(body: order.jsonBody(), contentType: "application/json", sessionHeader: nil)
        #expect(request.contentLocation == "http://10.0.0.2:8000/show.m3u8")
        #expect(request.start == .seconds(12.5))
        #expect(request.detached)
        #expect(!request.automaticallyHandlesInterstitialEvents)
        #expect(request.clientEvents != nil)
        #expect(request.preferredLanguage == "fr")
        #expect(request.seed == UInt64.max)
        #expect(request.script?.steps.count == 2)

        let plain = try PlayRequest.decode(body: PlayOrder(url: "http://h/x.m3u8").jsonBody(), contentType: "application/json", sessionHeader: nil)
        #expect(!plain.detached && plain.automaticallyHandlesInterstitialEvents && plain.start == nil && plain.seed == nil)
    }

    @Test("Events read leniently: the event name stands in for a missing kind; one this sender cannot read keeps its kind and session")
    func lenientEvents() throws {
        let event = try SessionEvent(eventName: "seeked", data: #"{"session": "s1", "time": 3, "state": "playing-primary", "position": 40, "rate": 1}"#)
        #expect(event.kind.name == "seeked" && event.knownKind == .seeked && event.session == "s1")
        let malformed = try SessionEvent(eventName: "seeked", data: #"{"session": "s1", "time": "soon", "position": 40}"#)
        #expect(malformed.knownKind == .seeked && malformed.session == "s1" && malformed.event == nil)
        let unknown = try SessionEvent(eventName: nil, data: #"{"kind": "volume-changed", "volume": 0.5, "state": "buffering"}"#)
        #expect(unknown.kind.name == "volume-changed" && unknown.knownKind == nil && unknown.event == nil)
        #expect(throws: (any Error).self) { try SessionEvent(eventName: nil, data: "not json") }
        #expect(throws: (any Error).self) { try SessionEvent(eventName: nil, data: #"{"session": "s1"}"#) }
    }

    @Test("GET /scrub's text gives the position and duration; a missing line is nil")
    func scrubText() {
        #expect(PlaybackProgress(scrubText: "duration: 30.000000\nposition: 12.500000\n") == PlaybackProgress(duration: 30, position: 12.5))
        #expect(PlaybackProgress(scrubText: "position: 1\r\n") == PlaybackProgress(duration: nil, position: 1))
    }
}
