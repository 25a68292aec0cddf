import Foundation
import Playback
@testable import SenderProtocol
import Testing

@Suite("Presentation mode and SDK ads on the wire")
struct PresentationWireTests {
    @Test("presentationMode arrives bare, as {value: …} or {mode: …}, in JSON or a plist, with pip for pictureInPicture", arguments: [
        (#""pictureInPicture""#, PresentationMode.pictureInPicture as PresentationMode?),
        (#"{"value": "standard"}"#, .standard), (#"{"mode": "pip"}"#, .pictureInPicture), (#"{"value": {"mode": "external"}}"#, .external),
        ("<plist><dict><key>value</key><string>pip</string></dict></plist>", .pictureInPicture),
        (#""sideways""#, nil), (#"{"mode": 1}"#, nil), (#"{"mode": "pip", "extra": true}"#, nil), ("", nil),
    ])
    func presentationModeBodies(_ body: String, _ expected: PresentationMode?) {
        do throws(ProtocolError) {
            let mode = try PropertyRequest.presentationMode(body: Data(body.utf8), contentType: nil)
            #expect(mode == expected, "\(body)")
        } catch {
            #expect(expected == nil, "\(body): \(error.reason)")
            #expect(error.status == 400)
        }
    }

    @Test("Playback info carries the mode and the picture-in-picture flags in its plist and its JSON, and reads them back")
    func playbackInfoKeys() throws {
        var plan = PlaybackPlan(primaryDuration: 60)
        plan.supportsPictureInPicture = true
        var engine = PlaybackEngine(plan: plan)
        _ = engine.handle(.play(from: nil), at: 0)
        _ = engine.handle(.setPresentationMode(.pictureInPicture), at: 5)
        let info = PlaybackInfo(engine: engine)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(info)) as? [String: Any])
        #expect(json["presentationMode"] as? String == "pictureInPicture")
        #expect(json["pictureInPictureActive"] as? Bool == true && json["pictureInPicturePossible"] as? Bool == true)
        let read = try JSONDecoder().decode(PlaybackInfo.self, from: JSONEncoder().encode(info))
        #expect(read.presentation == engine.presentation)
        #expect(PlaybackInfo.noSession.propertyListValue.document() == PlaybackInfo.noSession.propertyList())
        let idle = String(decoding: PlaybackInfo.noSession.propertyList(), as: UTF8.self)
        #expect(!idle.contains("presentationMode"), "no session, no mode")
        #expect(json["requiresLinearPlayback"] as? Bool == false)
    }

    @Test("requiresLinearPlayback is true exactly while a SKIP-restricted interstitial plays")
    func linearPlayback() throws {
        let ad = PlannedBreak(eventID: "ad", position: 10, resumeOffset: 0, restrictions: .skip, assets: [PlannedAsset(uri: "a", duration: 5)])
        var engine = PlaybackEngine(plan: PlaybackPlan(primaryDuration: 60, breaks: [ad]))
        _ = engine.handle(.play(from: nil), at: 0)
        _ = engine.advance(to: 5)
        #expect(!PlaybackInfo(engine: engine).requiresLinearPlayback)
        _ = engine.advance(to: 12)
        let during = PlaybackInfo(engine: engine)
        #expect(during.requiresLinearPlayback)
        let plist = String(decoding: during.propertyList(), as: UTF8.self)
        #expect(plist.contains("<key>requiresLinearPlayback</key>\n\t<true/>"))
        _ = engine.advance(to: 20)
        #expect(!PlaybackInfo(engine: engine).requiresLinearPlayback)
    }

    @Test("The JSON /play reads sdkAdBreaks and sdkAdInPictureInPicture strictly, naming what is wrong")
    func playExtension() throws {
        let body = #"{"url": "http://a/b.m3u8", "sdkAdBreaks": {"breaks": [{"time": 5, "ads": [{"duration": 10}]}]}, "sdkAdInPictureInPicture": "defer"}"#
        let request = try PlayRequest.decode(body: Data(body.utf8), contentType: "application/json", sessionHeader: nil)
        #expect(request.sdkAds?.breaks.map(\.seconds) == [10] && request.sdkAdInPictureInPicture == .defer)
        for (bad, mentions) in [
            (#"{"url": "u", "sdkAdInPictureInPicture": "later"}"#, "sdkAdInPictureInPicture"),
            (#"{"url": "u", "sdkAdInPictureInPicture": 1}"#, "sdkAdInPictureInPicture"),
            (#"{"url": "u", "sdkAdBreaks": {"breaks": [{"time": 5}]}}"#, "$.breaks[0].ads"),
        ] {
            #expect(throws: ProtocolError.self) { try PlayRequest.decode(body: Data(bad.utf8), contentType: "application/json", sessionHeader: nil) }
            do throws(ProtocolError) {
                _ = try PlayRequest.decode(body: Data(bad.utf8), contentType: "application/json", sessionHeader: nil)
            } catch {
                #expect(error.reason.contains(mentions), "\(bad): \(error.reason)")
            }
        }
        var order = PlayOrder(url: "u")
        order.sdkAdBreaks = .object(["breaks": .array([])])
        order.sdkAdInPictureInPicture = .attempt
        #expect(try JSONDecoder().decode(PlayOrder.self, from: order.jsonBody()) == order)
    }

    @Test("Events carry the mode in /events JSON and in /reverse plists")
    func eventsCarryTheMode() throws {
        let event = PlaybackEvent(
            time: 3, state: .playingPrimary, position: 3, rate: 1, detail: .presentationModeChanged(.pictureInPicture, command: nil), reason: "r")
        let wire = SessionEvent(event, session: "s").serverSentEvent()
        let read = try SessionEvent(eventName: wire.name, data: wire.data)
        #expect(read.event?.mode == .pictureInPicture && read.knownKind == .presentationModeChanged)
        #expect(ReverseEvent(event, sessionID: "s").presentationMode?.name == "pictureInPicture")
    }
}
