import Foundation
import HLS
import Playback
@testable import SenderProtocol
import Testing

@Suite("setProperty and getProperty bodies")
struct PropertyTests {
    @Test("interstitialEvents arrive as a plist {value: […]} with dates, as JSON {value: …}, or as a bare JSON array")
    func interstitialEventForms() throws {
        let date = Date(timeIntervalSince1970: 1_767_225_610)
        let event: [String: Any] = ["identifier": "ad-9", "date": date, "assets": [["uri": "http://example.com/a.m3u8", "duration": 5.0]]]
        let plist = try PropertyListSerialization.data(fromPropertyList: ["value": [event]], format: .binary, options: 0)
        let fromPlist = try PropertyRequest.interstitialEvents(body: plist, contentType: "application/x-apple-binary-plist")
        #expect(fromPlist.identifiers == ["ad-9"])
        let applied = try fromPlist.applied(to: [])
        #expect(applied.first.map { if case .date(let anchor) = $0.anchor { anchor == date } else { false } } == true)

        let wrapped = try PropertyRequest.interstitialEvents(body: Data(#"{"value": [{"identifier": "ad-1", "restrictions": []}]}"#.utf8), contentType: "application/json")
        let bare = try PropertyRequest.interstitialEvents(body: Data(#"[{"identifier": "ad-1", "restrictions": []}]"#.utf8), contentType: nil)
        #expect(wrapped.identifiers == ["ad-1"] && bare.identifiers == ["ad-1"])
    }

    @Test("A later setProperty replaces an earlier event with the same identifier whole and keeps the others")
    func mergingByIdentifier() throws {
        let first = try ClientEvents(parsing: Data(#"[{"identifier": "a", "restrictions": []}, {"identifier": "b", "restrictions": []}]"#.utf8))
        let later = try ClientEvents(parsing: Data(#"[{"identifier": "a", "willPlayOnce": true}]"#.utf8))
        #expect(first.merging(later).identifiers == ["b", "a"])
    }

    @Test("Flags are JSON true or false, or a plist boolean (or a plist integer 1 or 0, as legacy senders write); anything else is a 400 naming the property", arguments: [
        ("<plist><dict><key>value</key><false/></dict></plist>", false as Bool?),
        ("<plist><dict><key>value</key><integer>1</integer></dict></plist>", true),
        ("<plist><dict><key>value</key><integer>2</integer></dict></plist>", nil),
        ("true", true), ("{\"value\": false}", false), ("{\"value\": 1}", nil), ("0", nil), ("\"yes\"", nil), ("{\"value\": 2}", nil), ("", nil),
    ])
    func flags(_ body: String, _ expected: Bool?) {
        let name = "automaticallyHandlesInterstitialEvents"
        do throws(ProtocolError) {
            let result = try PropertyRequest.flag(body: Data(body.utf8), contentType: nil, property: .automaticallyHandlesInterstitialEvents)
            #expect(result == expected)
        } catch {
            #expect(expected == nil, "refused: \(error)")
            #expect(error.status == 400 && error.reason.contains(name), "\(error)")
        }
    }

    @Test("The effective schedule names restrictions the way AVFoundation does, and the plist answer wraps it in errorCode and value")
    func scheduleAnswer() throws {
        let plan = PlaybackPlan(primaryDuration: 60, breaks: [
            PlannedBreak(eventID: "ad", position: 20, resumeOffset: 0, restrictions: [.skip, .jump], assets: [PlannedAsset(uri: "a.m3u8", duration: 5)]),
        ])
        let value = PropertyResponse.interstitialEvents(plan)
        let body = PropertyResponse.body(value, json: false)
        #expect(body.contentType == "text/x-apple-plist+xml")
        let decoded = try #require(try PropertyListSerialization.propertyList(from: body.data, format: nil) as? [String: Any])
        let first = try #require((decoded["value"] as? [[String: Any]])?.first)
        #expect(decoded["errorCode"] as? Int == 0 && first["identifier"] as? String == "ad")
        #expect(first["restrictions"] as? [String] == ["constrainsSeekingForwardInPrimaryContent", "requiresPlaybackAtPreferredRateForAdvancement"])
        let json = try #require(try JSONSerialization.jsonObject(with: PropertyResponse.body(value, json: true).data) as? [[String: Any]])
        #expect(json.first?["restrictions"] as? [String] == ["constrainsSeekingForwardInPrimaryContent", "requiresPlaybackAtPreferredRateForAdvancement"])
    }

    @Test("A property route takes exactly one name it knows, and its refusal lists the names it does")
    func propertyNames() throws {
        #expect(try SettableProperty(query: ["presentationMode": ""]) == .presentationMode)
        #expect(try ReadableProperty(query: ["playbackErrorLog": ""]) == .playbackErrorLog)
        #expect(ReadableProperty.playbackAccessLog.path == "/getProperty?playbackAccessLog")
        for query in [[:], ["interstitialEvents": "", "presentationMode": ""]] as [[String: String]] {
            #expect(throws: ProtocolError.self) { try SettableProperty(query: query) }
        }
        do throws(ProtocolError) {
            _ = try SettableProperty(query: ["playbackAccessLog": ""])
            Issue.record("a readable-only property was taken for setProperty")
        } catch {
            #expect(error.status == 400)
            #expect(
                error.reason
                    == "setProperty knows presentationMode, interstitialEvents, automaticallyHandlesInterstitialEvents, isInterestedInDateRange, "
                    + "actionAtItemEnd, forwardEndTime, reverseEndTime and selectedMediaArray, not 'playbackAccessLog'")
        }
    }

    @Test("The properties pyatv's AirPlay 2 path sets read as it sends them, and a malformed one is refused naming why")
    func airPlay2Properties() throws {
        func plist(_ value: Any) throws -> Data {
            try PropertyListSerialization.data(fromPropertyList: ["value": value], format: .binary, options: 0)
        }
        let type = "application/x-apple-binary-plist"
        #expect(try PropertyRequest.flag(body: plist(true), contentType: type, property: .isInterestedInDateRange))
        #expect(try PropertyRequest.actionAtItemEnd(body: plist(0), contentType: type) == 0)
        let none = try PropertyRequest.endTime(
            body: plist(["flags": 0, "value": 0, "epoch": 0, "timescale": 0]), contentType: type, property: .forwardEndTime)
        #expect(none.seconds == nil)
        let end = try PropertyRequest.endTime(
            body: plist(["flags": 1, "value": 90_000, "epoch": 0, "timescale": 600]), contentType: type, property: .reverseEndTime)
        #expect(end.seconds == 150)
        #expect(try PropertyRequest.mediaSelections(body: plist([["MediaSelectionGroupMediaType": "soun"]]), contentType: type) == 1)

        #expect(throws: ProtocolError("actionAtItemEnd must be 0 (advance), 1 (pause) or 2 (none)")) {
            try PropertyRequest.actionAtItemEnd(body: plist(7), contentType: type)
        }
        #expect(throws: ProtocolError("forwardEndTime.timescale must be a whole number from 0 to 2147483647")) {
            try PropertyRequest.endTime(body: plist(["value": 1, "timescale": -5]), contentType: type, property: .forwardEndTime)
        }
        #expect(throws: ProtocolError("selectedMediaArray must be an array of dictionaries")) {
            try PropertyRequest.mediaSelections(body: plist(["a"]), contentType: type)
        }
    }
}
