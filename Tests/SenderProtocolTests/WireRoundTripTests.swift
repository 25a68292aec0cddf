import Foundation
import HLS
import JSONDocument
import Playback
@testable import SenderProtocol
import Testing

/// Each wire message as the receiver writes it reads back on the sender's side as the same value, and
/// the sender's reading tolerates a newer receiver.
@Suite("Wire messages round trip between the two ends")
struct WireRoundTripTests {
    /// A whole-second date: XML property lists carry dates to the second.
    static let date = Date(timeIntervalSince1970: 1_767_225_600)

    @Test("The /play JSON a sender writes is read by the receiver with every member as sent")
    func playOrder() throws {
        var order = PlayOrder(url: "http://10.0.0.2:8000/show.m3u8")
        order.start = 12.5
        order.detached = true
        order.automaticallyHandlesInterstitialEvents = false
        order.interstitialEvents = .array([.object(["identifier": .string("ad-1"), "restrictions": .array([.string("SKIP")])])])
        order.audioLanguage = "fr"
        order.seed = UInt64.max
        order.script = "at 3 seek 40"
        order.sessionID = "S-1"
        #expect(try WireJSON.decoder.decode(PlayOrder.self, from: order.jsonBody()) == order)
        let request = try PlayRequest.decode(body: order.jsonBody(), contentType: "application/json", sessionHeader: nil)
        #expect(request.contentLocation == order.url && request.start == .seconds(12.5) && request.detached)
        #expect(!request.automaticallyHandlesInterstitialEvents && request.preferredLanguage == "fr" && request.seed == UInt64.max)
        #expect(request.sessionID == "S-1" && request.clientEvents?.identifiers == ["ad-1"] && request.script?.steps.count == 1)
    }

    @Test(
        "JSON booleans are read as booleans: 1 and 0 are refused with a 400 naming the member, true and false are taken",
        arguments: [
            (#"{"url": "http://h/a.m3u8", "detached": 1}"#, "detached in the /play JSON is not true or false"),
            (#"{"url": "http://h/a.m3u8", "automaticallyHandlesInterstitialEvents": 0}"#,
             "automaticallyHandlesInterstitialEvents in the /play JSON is not true or false"),
            (#"{"url": "http://h/a.m3u8", "detached": "true"}"#, "detached in the /play JSON is not true or false"),
            (#"{"url": "http://h/a.m3u8", "start": true}"#, "start in the /play JSON is not a number of seconds"),
            (#"{"url": "http://h/a.m3u8", "seed": -1}"#, "seed in the /play JSON is not a whole number from 0"),
            (#"{"url": "http://h/a.m3u8", "seed": 1.5}"#, "seed in the /play JSON is not a whole number from 0"),
            (#"{"url": "http://h/a.m3u8", "audioLanguage": 7}"#, "audioLanguage in the /play JSON is not"),
            (#"{"url": 7}"#, "url in the /play JSON is not"),
        ])
    func strictBooleans(body: String, reason: String) {
        let error = #expect(throws: ProtocolError.self) {
            try PlayRequest.decode(body: Data(body.utf8), contentType: "application/json", sessionHeader: nil)
        }
        #expect(error?.status == 400)
        #expect(error?.reason.hasPrefix(reason) == true, "reason: \(error?.reason ?? "")")
    }

    @Test("true and false, null and unknown members are taken in /play JSON")
    func booleansAccepted() throws {
        let body = #"{"url": "http://h/a.m3u8", "detached": true, "automaticallyHandlesInterstitialEvents": false, "seed": null, "volume": 3}"#
        let request = try PlayRequest.decode(body: Data(body.utf8), contentType: nil, sessionHeader: nil)
        #expect(request.detached && !request.automaticallyHandlesInterstitialEvents && request.seed == nil)
        let plain = try PlayRequest.decode(body: Data(#"{"url": "http://h/a.m3u8", "detached": false}"#.utf8), contentType: nil, sessionHeader: nil)
        #expect(!plain.detached && plain.automaticallyHandlesInterstitialEvents)
    }

    @Test("An attached order's body leaves out what it does not ask for")
    func defaultsLeftOut() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: PlayOrder(url: "http://h/a.m3u8").jsonBody()) as? [String: Any])
        #expect(object.keys.sorted() == ["url"])
    }

    @Test("The /play answer and the session list read back; a newer receiver's members, states and dates do not break the list")
    func sessions() throws {
        let started = StartedSession(sessionID: "abc", profile: "apple-tv-4k", receiver: "Living Room")
        #expect(try WireJSON.decoder.decode(StartedSession.self, from: WireJSON.data(started)) == started)

        let list = SessionList(sessions: [
            SessionSummary(id: "1", profile: "p", playlist: "http://h/a.m3u8", active: false, state: .ended, startedAt: Self.date, endReason: "stopped"),
            SessionSummary(id: "2", profile: "p", playlist: "http://h/b.m3u8", active: true, state: .playingInterstitial, startedAt: Self.date),
        ])
        let data = WireJSON.data(list)
        #expect(String(decoding: data, as: UTF8.self).contains(#""startedAt":"2026-01-01T00:00:00Z""#))
        #expect(try WireJSON.decoder.decode(SessionList.self, from: data) == list)

        let newer = #"{"sessions": [{"id": "3", "active": true, "state": "buffering", "startedAt": 1767225600, "group": "g"}]}"#
        let read = try #require(try WireJSON.decoder.decode(SessionList.self, from: Data(newer.utf8)).sessions.first)
        #expect(read.id == "3" && read.active && read.state?.name == "buffering" && read.state?.known == nil && read.startedAt == nil)
    }

    @Test("An engine event read back from its server-sent event has every field, the restriction in its spec spelling")
    func serverSentEvent() throws {
        let event = PlaybackEvent(
            time: 4.5, state: .playingInterstitial, position: 18, rate: 1,
            detail: .commandRefused(.seek(to: 40), restriction: .skip, eventID: "ad-1"), reason: "skip forbidden")
        let sse = SenderEvent.serverSentEvent(event, sessionID: "S1")
        #expect(sse.name == "command-refused" && sse.data.contains(#""restriction":"SKIP""#))
        let read = try SessionEvent(eventName: sse.name, data: sse.data)
        var expected = SessionEvent(event, session: "S1")
        expected.json = sse.data
        #expect(read == expected)
        #expect(read.knownKind == .commandRefused && read.event?.restriction == .skip && read.event?.state == .playingInterstitial)
        #expect(sse.data.contains(#""command":"seek 40""#))

        let idle = SenderEvent.serverSentEvent(
            PlaybackEvent(time: 0, state: .idle, position: 0, rate: 0, detail: .stateChanged(in: nil, startup: nil), reason: ""), sessionID: nil)
        #expect(idle.data.contains(#""session":null"#))
    }

    @Test("A /reverse event's property list reads back as the event it was written from")
    func reverseEvent() throws {
        let event = PlaybackEvent(
            time: 1, state: .paused, position: 7.25, rate: 0, detail: .commandRefused(.seek(to: 9), restriction: .jump, eventID: "ad-2"), reason: "no")
        let request = SenderEvent.reverseRequest(event, sessionID: "S2")
        let text = String(decoding: request, as: UTF8.self)
        let body = try #require(text.range(of: "\r\n\r\n")).upperBound
        let plist = Data(text[body...].utf8)
        #expect(try PropertyListDecoder().decode(ReverseEvent.self, from: plist) == ReverseEvent(event, sessionID: "S2"))
        let dictionary = try #require(try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
        #expect(dictionary["state"] as? String == "paused" && dictionary["airlab.restriction"] as? String == "JUMP")
        #expect(dictionary["category"] as? String == "video" && dictionary["airlab.kind"] as? String == "command-refused")
    }

    @Test("server-info reads back as the identity's, and a receiver that is not airlab's reads with what it has")
    func serverInfo() throws {
        let identity = ReceiverIdentity(name: "Living <Room> & co", model: "AppleTV14,1", deviceIDSeed: "s", profile: "apple-tv-4k")
        #expect(ServerInfo(propertyList: identity.serverInfo.propertyList()) == identity.serverInfo)
        let written = try #require(try PropertyListSerialization.propertyList(from: identity.serverInfo.propertyList(), format: nil) as? [String: Any])
        #expect(written["features"] as? Int == 0x211 && written["vv"] as? Int == 2 && written["protovers"] as? String == "1.0")
        let other = try PropertyListSerialization.data(fromPropertyList: ["name": "TV", "features": "0x5A7FFFF7,0x1E", "pk": Data([1])], format: .binary, options: 0)
        let read = try #require(ServerInfo(propertyList: other))
        #expect(read.name == "TV" && read.features == nil && read.profile == nil)
        #expect(ServerInfo(propertyList: Data("<plist><array/></plist>".utf8)) == nil)
    }

    @Test("playback-info reads back as the value it was written from", arguments: [
        PlaybackInfo.noSession,
        PlaybackInfo(duration: 60, position: 12.5, rate: 1, readyToPlay: true, bufferEmpty: false, loaded: 12.5...60, seekable: 0...60),
    ])
    func playbackInfo(info: PlaybackInfo) throws {
        #expect(try PropertyListDecoder().decode(PlaybackInfo.self, from: info.propertyList()) == info)
        // The value built directly for the polled answer is the one its Encodable conformance gives.
        #expect(try XMLPropertyList(encoding: info) == info.propertyListValue)
        #expect(try WireJSON.decoder.decode(PlaybackInfo.self, from: WireJSON.data(info)) == info)
    }

    @Test("The effective schedule and the logs read back from the plist answer and from JSON")
    func propertyAnswers() throws {
        let plan = PlaybackPlan(primaryDuration: 60, breaks: [
            PlannedBreak(eventID: "pre", position: 0, resumeOffset: 0, cue: [.pre, .once], snap: [.out], restrictions: [.jump], playoutLimit: 4,
                         assets: [PlannedAsset(uri: "a.m3u8", duration: 5)], failure: nil),
            PlannedBreak(eventID: "mid", position: 20, resumeOffset: 0, restrictions: [], assets: [PlannedAsset(uri: "b.m3u8", duration: 5)],
                         failure: "the asset list did not load"),
        ])
        let schedule = PropertyResponse.interstitialEvents(plan)
        #expect(schedule.map(\.cue) == [.joinCue, .noCue] && schedule[0].willPlayOnce && schedule[0].alignsStartWithPrimarySegmentBoundary)
        let plist = PropertyResponse.body(schedule, json: false).data
        let answer = try PropertyListDecoder().decode(PropertyAnswer<[ScheduledInterstitial]>.self, from: plist)
        #expect(answer.errorCode == 0 && answer.value == schedule)
        #expect(try WireJSON.decoder.decode([ScheduledInterstitial].self, from: PropertyResponse.body(schedule, json: true).data) == schedule)

        let access = [PlaybackLogs.AccessEntry(uri: "p.m3u8", sessionID: "S", startTime: Self.date, durationWatched: 3, startupTime: 0.5)]
        let accessPlist = PropertyResponse.body(access, json: false).data
        #expect(try PropertyListDecoder().decode(PropertyAnswer<[PlaybackLogs.AccessEntry]>.self, from: accessPlist).value == access)
        let accessJSON = PropertyResponse.body(access, json: true).data
        #expect(String(decoding: accessJSON, as: UTF8.self).contains(#""c-start-time":"2026-01-01T00:00:00Z""#))
        #expect(try WireJSON.decoder.decode([PlaybackLogs.AccessEntry].self, from: accessJSON) == access)

        let errors = [PlaybackLogs.ErrorEntry(date: Self.date, sessionID: "S", uri: "mid", domain: "airlab.interstitial", comment: "gone")]
        #expect(try PropertyListDecoder().decode(PropertyAnswer<[PlaybackLogs.ErrorEntry]>.self, from: PropertyResponse.body(errors, json: false).data).value == errors)

        let empty = try PropertyListDecoder().decode(PropertyAnswer<JSONValue>.self, from: XMLPropertyList(encoding: PropertyAnswer<JSONValue>(value: nil)).document())
        #expect(empty.errorCode == 0 && empty.value == nil)
    }

    @Test("The effective schedule reads either restriction spelling and leaves out one it does not know")
    func scheduleRestrictionsTolerated() throws {
        let json = #"""
            [{"identifier": "a", "time": 1, "resumptionOffset": 0, "restrictions": ["SKIP", "constrainsSeekingForwardInPrimaryContent", "futureRestriction"],
              "cue": "noCue", "willPlayOnce": false, "alignsStartWithPrimarySegmentBoundary": false,
              "alignsResumptionWithPrimarySegmentBoundary": false, "assets": []}]
            """#
        let read = try WireJSON.decoder.decode([ScheduledInterstitial].self, from: Data(json.utf8))
        #expect(read.first?.restrictions == [.skip, .jump])
    }
}

@Suite("Restriction spellings and routes are declared once")
struct WireVocabularyTests {
    @Test("Each restriction has its X-RESTRICT and its AVFoundation spelling, and reads back from either")
    func restrictionSpellings() {
        #expect(InterstitialEvent.Restriction.skip.rawValue == "SKIP")
        #expect(InterstitialEvent.Restriction.jump.rawValue == "JUMP")
        #expect(InterstitialEvent.Restriction.skip.avFoundationName == "requiresPlaybackAtPreferredRateForAdvancement")
        #expect(InterstitialEvent.Restriction.jump.avFoundationName == "constrainsSeekingForwardInPrimaryContent")
        for restriction in InterstitialEvent.Restriction.allCases {
            #expect(InterstitialEvent.Restriction(anySpelling: restriction.rawValue) == restriction)
            #expect(InterstitialEvent.Restriction(anySpelling: restriction.avFoundationName) == restriction)
        }
        #expect(InterstitialEvent.Restriction(anySpelling: "skip") == nil)
        #expect(InterstitialEvent.Restrictions([.jump, .skip]).members == [.skip, .jump])
        #expect(InterstitialEvent.Restrictions().members.isEmpty)
    }

    @Test("Every route has its own path and label, paths find their route, and a session's ID is escaped in its path")
    func routes() {
        #expect(Set(Route.allCases.map(\.label)).count == Route.allCases.count)
        #expect(!Route.allCases.map(\.label).contains(Route.otherLabel))
        for route in Route.allCases where route != .session {
            #expect(Route(path: route.path()) == route)
        }
        #expect(Route(path: "/sessions/abc/timeline.svg") == .session)
        #expect(Route(path: "/sessions/{id}") == .session)
        #expect(Route(path: "/nope") == nil && Route(path: "/play/") == nil)
        #expect(Route.session.path(session: "a/b c") == "/sessions/a%2Fb%20c")
        #expect(Route.scrub.methods == ["GET", "POST"] && Route.play.methods == ["POST"])
    }

    @Test("Every route round-trips: what airlab's sender writes for it, the receiver reads as the same request")
    func everyRouteRoundTrips() throws {
        // The switch is exhaustive on purpose: a new route cannot be added without saying how it crosses.
        for route in Route.allCases {
            switch route {
            case .serverInfo, .info, .playbackInfo, .events, .sessions, .metrics, .picture:
                // No parameters: the path alone.
                #expect(Route(path: route.path()) == route)
            case .pairPinStart, .pairSetup, .pairVerify, .feedback:
                // The path alone; the pairing bodies are TLV8, which Pairing writes and reads on both ends.
                #expect(Route(path: route.path()) == route && route.methods == ["POST"])
            case .scrub, .rate, .stop:
                // GET /scrub asks for the position; a POST carries a command, with what it needs in its query.
                #expect(Route(path: route.path()) == route)
                for command in [PlaybackCommand.seek(to: 12.5), .seek(to: 0), .setRate(0), .setRate(1), .stop] where QueryCommand.route(of: command) == route {
                    let target = try #require(QueryCommand.target(of: command).flatMap { URLComponents(string: $0) })
                    let query = Dictionary(uniqueKeysWithValues: (target.queryItems ?? []).map { ($0.name, $0.value ?? "") })
                    #expect(Route(path: target.path) == route)
                    #expect(try QueryCommand.command(route, query: query) == command)
                }
            case .play:
                var order = PlayOrder(url: "http://10.0.0.2:8000/a show.m3u8")
                order.start = 7
                order.group = GroupJoin(url: "http://10.0.0.3:7000/groups/g1", participant: "living-room")
                let request = try PlayRequest.decode(body: order.jsonBody(), contentType: "application/json", sessionHeader: nil)
                #expect(request.contentLocation == order.url && request.start == .seconds(7))
                #expect(request.group?.groupID == "g1" && request.group?.participant == "living-room")
                // The AirPlay 2 path: the property list a real receiver reads, with the order inside.
                let airPlay2 = try PlayRequest.decode(
                    body: order.airPlay2Body(sessionID: "S1"), contentType: "application/x-apple-binary-plist", sessionHeader: "S1")
                #expect(airPlay2.contentLocation == order.url && airPlay2.start == .seconds(7) && airPlay2.sessionID == "S1")
                #expect(airPlay2.group?.groupID == "g1" && airPlay2.isAirlabOrder && airPlay2.restrictions?.reference == 3)
            case .pairings, .pairing:
                let list = PairingList(controllers: [.init(identifier: "airlab-1 x/y", publicKey: [0xAB, 0x01], admin: true)])
                #expect(try WireJSON.decoder.decode(PairingList.self, from: WireJSON.data(list)) == list && list.controllers[0].publicKey == "ab01")
                let target = try #require(URLComponents(string: PairingList.target(removing: "airlab-1 x/y")))
                #expect(Route(path: target.path) == .pairing && target.path == "/pairings/airlab-1 x/y")
                #expect(Route(path: route.path()) == route)
            case .session:
                for path in [SessionPath.report("s 1"), .timeline("s 1"), .fetches("s 1")] {
                    let decoded = try #require(URLComponents(string: path.target)?.path)
                    #expect(Route(path: decoded) == .session && SessionPath(path: decoded) == path)
                }
            case .groups, .group:
                let creation = GroupCreation(id: "g1", contentID: "show")
                #expect(try WireJSON.decoder.decode(GroupCreation.self, from: WireJSON.data(creation)) == creation)
                for path in [GroupPath.all, .group("g1"), .clock("g1"), .events("g1", participant: "a&b"), .inputs("g1"), .messages("g1")] {
                    let parts = try #require(URLComponents(string: path.target))
                    let query = Dictionary(uniqueKeysWithValues: (parts.queryItems ?? []).map { ($0.name, $0.value ?? "") })
                    guard Route(path: parts.path) == route else { continue }
                    #expect(GroupPath(path: parts.path, query: query) == path)
                }
            case .setProperty, .getProperty, .reverse:
                // airlab's sender never sends these; the bodies real senders send are read in
                // PropertyRequestTests and the /reverse upgrade in the daemon's tests.
                #expect(Route(path: route.path()) == route)
            }
        }
    }

    @Test("Encoded as a property list, an absent optional is an absent key and a date is a UTC date")
    func propertyListEncoding() throws {
        struct Sample: Encodable {
            var present: String? = "x"
            var absent: Double?
            var when = WireRoundTripTests.date
            var nested = [[1, 2], [3]]
            var big: UInt64 = 7
        }
        let value = try XMLPropertyList(encoding: Sample())
        #expect(value == .dictionary([
            "present": .string("x"), "when": .date(WireRoundTripTests.date),
            "nested": .array([.array([.integer(1), .integer(2)]), .array([.integer(3)])]), "big": .integer(7),
        ]))
        let parsed = try #require(try PropertyListSerialization.propertyList(from: value.document(), format: nil) as? [String: Any])
        #expect(parsed["when"] as? Date == WireRoundTripTests.date && parsed["absent"] == nil)
    }
}
