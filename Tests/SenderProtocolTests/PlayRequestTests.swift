import Foundation
import Playback
import Profiles
@testable import SenderProtocol
import Testing

private func plist(_ dictionary: [String: Any], _ format: PropertyListSerialization.PropertyListFormat) throws -> Data {
    try PropertyListSerialization.data(fromPropertyList: dictionary, format: format, options: 0)
}

@Suite("POST /play bodies")
struct PlayRequestTests {
    @Test(
        "text/parameters with CRLF or bare LF, with or without a Content-Type, reads the same",
        arguments: [
            ("Content-Location: http://h/a.m3u8\r\nStart-Position: 0.25\r\n", "text/parameters"),
            ("Content-Location: http://h/a.m3u8\nStart-Position: 0.25\n", "text/parameters"),
            ("Content-Location: http://h/a.m3u8\nStart-Position: 0.25", nil),
            ("content-location:http://h/a.m3u8\r\nstart-position:   0.25\r\n", "text/parameters; charset=utf-8"),
        ] as [(String, String?)])
    func textParameters(body: String, contentType: String?) throws {
        let request = try PlayRequest.decode(body: Data(body.utf8), contentType: contentType, sessionHeader: nil)
        #expect(request.contentLocation == "http://h/a.m3u8")
        #expect(request.start == .fraction(0.25))
    }

    @Test("Binary and XML property lists, with or without a Content-Type, read Start-Position as integer or real",
        arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
    func propertyLists(format: PropertyListSerialization.PropertyListFormat) throws {
        let real = try plist(["Content-Location": "http://h/a.m3u8", "Start-Position": 0.5], format)
        #expect(try PlayRequest.decode(body: real, contentType: "application/x-apple-binary-plist", sessionHeader: nil).start == .fraction(0.5))
        let integer = try plist(["Content-Location": "http://h/a.m3u8", "Start-Position": 0], format)
        #expect(try PlayRequest.decode(body: integer, contentType: nil, sessionHeader: nil).start == .fraction(0))
        let seconds = try plist(["Content-Location": "http://h/a.m3u8", "Start-Position-Seconds": 42], format)
        #expect(try PlayRequest.decode(body: seconds, contentType: nil, sessionHeader: nil).start == .seconds(42))
    }

    @Test("The session ID comes from the header, the body, or nowhere")
    func sessionID() throws {
        let body = Data("Content-Location: http://h/a.m3u8\n".utf8)
        #expect(try PlayRequest.decode(body: body, contentType: nil, sessionHeader: "ABC").sessionID == "ABC")
        #expect(try PlayRequest.decode(body: body, contentType: nil, sessionHeader: nil).sessionID == nil)
        let withUUID = try plist(["Content-Location": "http://h/a.m3u8", "uuid": "DEF"], .binary)
        #expect(try PlayRequest.decode(body: withUUID, contentType: nil, sessionHeader: nil).sessionID == "DEF")
    }

    @Test("The JSON extension carries start seconds, interstitial events, automatic handling and detachment")
    func jsonExtension() throws {
        let body = Data("""
            {"url": "http://h/a.m3u8", "start": 12.5, "detached": true, "automaticallyHandlesInterstitialEvents": false,
             "audioLanguage": "fr", "interstitialEvents": [{"identifier": "ad-2", "restrictions": []}]}
            """.utf8)
        let request = try PlayRequest.decode(body: body, contentType: "application/json", sessionHeader: nil)
        #expect(request.contentLocation == "http://h/a.m3u8")
        #expect(request.start == .seconds(12.5))
        #expect(request.detached && !request.automaticallyHandlesInterstitialEvents)
        #expect(request.preferredLanguage == "fr")
        #expect(request.clientEvents != nil)
    }

    @Test(
        "Bad /play bodies are 400s with a one-line reason",
        arguments: [
            ("Start-Position: 0.5\n", nil, "names no content"),
            ("Content-Location: http://h/a.m3u8\nStart-Position: half\n", nil, "Start-Position 'half' is not a number"),
            ("Content-Location: http://h/a.m3u8\nStart-Position: 2\n", nil, "not a fraction from 0 to 1"),
            ("Content-Location: http://h/a.m3u8\nStart-Position-Seconds: -4\n", nil, "is negative"),
            ("Content-Location: http://h/a.m3u8\nStart-Position-Seconds: nan\n", nil, "is not a number"),
            ("{\"url\": ", "application/json", "not a JSON object"),
            ("{\"url\": \"http://h/a\", \"start\": \"soon\"}", nil, "start in the /play JSON is not a number"),
            ("{\"url\": \"http://h/a\", \"interstitialEvents\": [{\"time\": 3}]}", nil, "interstitialEvents"),
            ("bplist00garbage", nil, "not a property list"),
        ] as [(String, String?, String)])
    func badBodies(body: String, contentType: String?, reason: String) {
        let error = #expect(throws: ProtocolError.self) {
            try PlayRequest.decode(body: Data(body.utf8), contentType: contentType, sessionHeader: nil)
        }
        #expect(error?.status == 400)
        #expect(error?.reason.contains(reason) == true, "reason: \(error?.reason ?? "")")
        #expect(error?.reason.contains("\n") == false)
    }
}

@Suite("Query commands, playback info, identity and events")
struct SenderMessagesTests {
    @Test("scrub and rate read their numbers and refuse bad ones")
    func queryCommands() throws {
        #expect(try QueryCommand.scrub(["position": "40"]) == .seek(to: 40))
        #expect(try QueryCommand.rate(["value": "0"]) == .setRate(0))
        #expect(try QueryCommand.rate(["value": "2.0"]) == .setRate(2))
        for bad in [["position": "-1"], ["position": "NaN"], ["position": "inf"], [:]] {
            #expect(throws: ProtocolError.self) { try QueryCommand.scrub(bad) }
        }
        #expect(throws: ProtocolError.self) { try QueryCommand.rate(["value": "fast"]) }
    }

    @Test("A command a sender writes as a target is read back by the receiver as the same command, on the route it names")
    func queryCommandsRoundTrip() throws {
        let commands: [PlaybackCommand] = [
            .seek(to: 0), .seek(to: 40), .seek(to: 12.345678901234), .seek(to: 1e-9), .seek(to: 3e11), .seek(to: 1e300),
            .setRate(0), .setRate(1), .setRate(0.5), .setRate(-1), .setRate(64), .stop,
        ]
        for command in commands {
            let target = try #require(QueryCommand.target(of: command))
            let parts = try #require(URLComponents(string: target))
            let route = try #require(Route(path: parts.path))
            #expect(QueryCommand.route(of: command) == route)
            let query = Dictionary(uniqueKeysWithValues: (parts.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(try QueryCommand.command(route, query: query) == command, "\(target)")
        }
        #expect(QueryCommand.target(of: .play(from: nil)) == nil && QueryCommand.target(of: .setPresentationMode(.pictureInPicture)) == nil)
    }

    @Test("Every path under /groups a sender or participant writes is read back by the host as the same path, participants' odd names included")
    func groupPathsRoundTrip() throws {
        var paths: [GroupPath] = [.all]
        for id in ["g1", "watch-party.2", "A_b"] {
            paths += [.group(id), .clock(id), .inputs(id), .messages(id), .events(id, participant: nil)]
            for participant in ["p1", "living room", "a&b=c+d", "Zoë/2?x", "100%"] {
                paths.append(.events(id, participant: participant))
            }
        }
        for path in paths {
            // As the server hands it over: the path and the query's values percent-decoded.
            let parts = try #require(URLComponents(string: path.target), "\(path.target)")
            let query = Dictionary(uniqueKeysWithValues: (parts.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(GroupPath(path: parts.path, query: query) == path, "\(path.target)")
            #expect(Route(path: parts.path) == (path == .all ? .groups : .group))
        }
        #expect(GroupPath(path: "/groups/g1/elsewhere") == nil && GroupPath(path: "/groups/g1/clock/more") == nil)
    }

    @Test("A session's report, timeline and fetch trace paths are read back by the receiver as written, odd IDs included")
    func sessionPathsRoundTrip() throws {
        for id in ["3f2c9a4e-0d1b-4c55-9a1e-7f00d2b6c001", "living room", "Zoë", "a?b#c", "100%"] {
            for path in [SessionPath.report(id), .timeline(id), .fetches(id)] {
                let decoded = try #require(URLComponents(string: path.target)?.path, "\(path.target)")
                #expect(SessionPath(path: decoded) == path, "\(path.target)")
                #expect(Route(path: decoded) == .session)
            }
        }
        #expect(SessionPath(path: "/sessions/") == nil && SessionPath(path: "/sessions/x/nope") == nil && SessionPath(path: "/sessions/x/fetches/y") == nil)
    }

    @Test("playback-info carries duration exactly while a session plays")
    func durationOnlyWhilePlaying() throws {
        var engine = PlaybackEngine(plan: PlaybackPlan(primaryDuration: 60))
        let idle = try #require(try PropertyListSerialization.propertyList(from: PlaybackInfo(engine: engine).propertyList(), format: nil) as? [String: Any])
        #expect(idle["duration"] == nil)
        _ = engine.handle(.play(from: nil), at: 0)
        _ = engine.advance(to: 10)
        let playing = try #require(try PropertyListSerialization.propertyList(from: PlaybackInfo(engine: engine).propertyList(), format: nil) as? [String: Any])
        #expect((playing["duration"] as? NSNumber)?.doubleValue == 60)
        #expect((playing["position"] as? NSNumber)?.doubleValue == 10)
        #expect((playing["readyToPlay"] as? NSNumber)?.boolValue == true)
        #expect(PlaybackInfo(engine: engine).scrubText() == "duration: 60.000000\nposition: 10.000000\n")
        _ = engine.handle(.stop, at: 11)
        let stopped = try #require(try PropertyListSerialization.propertyList(from: PlaybackInfo(engine: engine).propertyList(), format: nil) as? [String: Any])
        #expect(stopped["duration"] == nil)
    }

    @Test("The device ID is stable for a seed, differs between seeds, and is a locally administered MAC")
    func deviceID() {
        let first = ReceiverIdentity(name: "Living room", model: "AppleTV14,1", deviceIDSeed: "apple-tv-4k", profile: "apple-tv-4k")
        let again = ReceiverIdentity(name: "Other", model: "AppleTV14,1", deviceIDSeed: "apple-tv-4k", profile: "apple-tv-4k")
        let other = ReceiverIdentity(name: "Living room", model: "AppleTV14,1", deviceIDSeed: "smart-tv-low", profile: "smart-tv-low")
        #expect(first.deviceID == again.deviceID && first.deviceID != other.deviceID)
        #expect(first.deviceID.range(of: "^([0-9A-F]{2}:){5}[0-9A-F]{2}$", options: .regularExpression) != nil)
        let firstByte = UInt8(first.deviceID.prefix(2), radix: 16)!
        #expect(firstByte & 0x02 == 0x02 && firstByte & 0x01 == 0)
    }

    @Test("A receiver without a device record publishes the AirPlay 1 record: video, HLS and audio bits, no pairing keys; pw with a password")
    func txtRecord() {
        let open = ReceiverIdentity(name: "TV", model: "M", deviceIDSeed: "s", profile: "p")
        let record = Dictionary(uniqueKeysWithValues: open.txtRecord.map { ($0.key, $0.value) })
        #expect(record["features"] == "0x211" && record["srcvers"] == "220.68" && !open.isAirPlay2)
        #expect(record["flags"] == "0x4" && record["pw"] == nil && record["pk"] == nil && record["pi"] == nil)
        #expect(Set(record.keys) == ["deviceid", "features", "flags", "model", "srcvers", "vv", "airlab.profile"])
        let locked = ReceiverIdentity(name: "TV", model: "M", deviceIDSeed: "s", hasPassword: true, profile: "p")
        let lockedRecord = Dictionary(uniqueKeysWithValues: locked.txtRecord.map { ($0.key, $0.value) })
        #expect(lockedRecord["pw"] == "1" && lockedRecord["flags"] == "0x84")
    }

    @Test("An AirPlay 2 record writes both feature words, the device's flags and versions, pi stable for the seed, pk once there is a key")
    func airPlay2Record() throws {
        let device = AirPlayDevice(
            features: try #require(AirPlayFeatures(text: "0x4A7FDFD5,0xBC155FDE")), statusFlags: "0x644", sourceVersion: "566.25.43",
            osVersion: "15.0", protocolVersion: "1.1", vv: 2)
        let key = [UInt8](repeating: 0xAB, count: 32)
        let identity = ReceiverIdentity(name: "TV", model: "AppleTV6,2", deviceIDSeed: "s", profile: "p", device: device, publicKey: key)
        let record = Dictionary(uniqueKeysWithValues: identity.txtRecord.map { ($0.key, $0.value) })
        #expect(identity.isAirPlay2 && record["features"] == "0x4A7FDFD5,0xBC155FDE" && record["flags"] == "0x644")
        #expect(record["srcvers"] == "566.25.43" && record["osvers"] == "15.0" && record["protovers"] == "1.1" && record["acl"] == "0")
        #expect(record["pk"] == String(repeating: "ab", count: 32))
        let again = ReceiverIdentity(name: "Other", model: "AppleTV6,2", deviceIDSeed: "s", profile: "p", device: device)
        #expect(record["pi"] == again.pairingID && again.pairingID != ReceiverIdentity(name: "TV", model: "M", deviceIDSeed: "t", profile: "p").pairingID)
        #expect(identity.pairingID.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", options: .regularExpression) != nil)

        let info = try #require(DeviceInfo(propertyList: identity.deviceInfo.propertyList()))
        #expect(identity.deviceInfo.propertyList().starts(with: Array("bplist00".utf8)))
        #expect(info.features == 0xBC15_5FDE_4A7F_DFD5 && info.statusFlags == 0x644 && info.publicKey == key && info.pairingID == identity.pairingID)
        #expect(info.deviceID == identity.deviceID && info.sourceVersion == "566.25.43" && info.vv == 2 && info.profile == "p")
    }

    @Test("Feature words read in both forms, and a malformed one is refused")
    func featureWords() {
        #expect(AirPlayFeatures(text: "0x38bcb46007f8ad0")?.text == "0x7F8AD0,0x38BCB46")
        #expect(AirPlayFeatures(text: "0x7F8AD0,0x38BCB46")?.rawValue == 0x38b_cb46_007f_8ad0)
        #expect(AirPlayFeatures(text: "0x211")?.isAirPlay2 == false && AirPlayFeatures(text: "0x0,0x40")?.isAirPlay2 == true)
        for bad in ["", "211", "0x", "0xG1", "0x1,0x2,0x3", "0x100000000,0x1", "0x1,", "0x11111111111111111"] {
            #expect(AirPlayFeatures(text: bad) == nil, "\(bad)")
        }
    }

    @Test("Engine events become a POST /event plist request and a named server-sent event")
    func events() throws {
        var engine = PlaybackEngine(plan: PlaybackPlan(primaryDuration: 60))
        let event = try #require(engine.handle(.play(from: nil), at: 0).events.first)
        let request = String(decoding: SenderEvent.reverseRequest(event, sessionID: "S1"), as: UTF8.self)
        #expect(request.hasPrefix("POST /event HTTP/1.1\r\nContent-Type: text/x-apple-plist+xml\r\nContent-Length: "))
        #expect(request.contains("X-Apple-Session-ID: S1\r\n\r\n<?xml"))
        #expect(request.contains("<string>loading</string>") && request.contains("<string>video</string>"))
        let sse = SenderEvent.serverSentEvent(event, sessionID: "S1")
        #expect(sse.name == "state-changed")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(sse.data.utf8)) as? [String: Any])
        #expect(json["session"] as? String == "S1" && json["kind"] as? String == "state-changed" && json["state"] as? String == "loading")
    }
}
