import Foundation
import TestSupport
import Testing

/// The presentation mode and SDK ad breaks against the real daemon: `setProperty?presentationMode`
/// in its body forms, the 409 refusals, `/playback-info`, and the events on `/events` in order.
@Suite(.serialized) struct PictureInPictureDaemonTests {
    static let json = ["Content-Type": "application/json"]
    static let plist = ["Content-Type": "text/x-apple-plist+xml"]

    static func plistBody(_ value: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>value</key><string>\(value)</string></dict></plist>
            """.utf8)
    }

    /// Casts with a script that pauses the session at 1 s on the receiver's clock, and waits for that
    /// pause on the stream, so the commands below meet a session that is still playing.
    static func castAndHold(_ daemon: DaemonProcess, _ media: CastFixture, _ stream: EventStreamListener, script: String = "at 1 pause") async throws -> String {
        let id = try await daemon.cast(media.playlist, extra: ["script": script])
        try await BlockingWork.run { _ = stream.connection.socket.read(untilContains: "\"state\":\"paused\"") }
        return id
    }

    @Test("setProperty?presentationMode takes JSON and property-list bodies; /playback-info and the events show the mode in order")
    func bodyFormsAndPlaybackInfo() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20"]) { daemon in
                let stream = try await EventStreamListener.connect(port: daemon.port)
                _ = try await Self.castAndHold(daemon, media, stream)
                let before = try #require(try await daemon.send("GET", "/playback-info").plist)
                #expect(before["presentationMode"] as? String == "standard" && before["pictureInPictureSupported"] as? Bool == true)

                let toPiP = try await daemon.send("PUT", "/setProperty?presentationMode", headers: Self.json, body: Data(#"{"mode": "pictureInPicture"}"#.utf8))
                #expect(toPiP.status == 200, "\(toPiP)")
                let during = try #require(try await daemon.send("GET", "/playback-info").plist)
                #expect(during["presentationMode"] as? String == "pictureInPicture" && during["pictureInPictureActive"] as? Bool == true)

                let toExternal = try await daemon.send("PUT", "/setProperty?presentationMode", headers: Self.json, body: Data(#"{"value": "external"}"#.utf8))
                #expect(toExternal.status == 200, "\(toExternal)")
                let toStandard = try await daemon.send("PUT", "/setProperty?presentationMode", headers: Self.plist, body: Self.plistBody("standard"))
                #expect(toStandard.status == 200, "\(toStandard)")
                let after = try #require(try await daemon.send("GET", "/playback-info").plist)
                #expect(after["presentationMode"] as? String == "standard" && after["pictureInPictureActive"] as? Bool == false)

                let bad = try await daemon.send("PUT", "/setProperty?presentationMode", headers: Self.json, body: Data(#""sideways""#.utf8))
                #expect(bad.status == 400 && bad.text.contains("presentationMode"), "\(bad)")

                let events = try await ReceiverProtocolTests.stop(daemon, stream)
                let changes = events.filter { $0["kind"] as? String == "presentation-mode-changed" }
                #expect(changes.map { $0["mode"] as? String } == ["pictureInPicture", "external", "standard"])
                let times = changes.compactMap { $0["time"] as? Double }
                #expect(times == times.sorted())
            }
        }
    }

    @Test("A profile without picture in picture answers 409 pip-not-supported, and a pip-start-failed event follows")
    func notSupported() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "smart-tv-high", "--port", "0", "--time-scale", "20"]) { daemon in
                let stream = try await EventStreamListener.connect(port: daemon.port)
                _ = try await Self.castAndHold(daemon, media, stream)
                let reply = try await daemon.send("PUT", "/setProperty?presentationMode", headers: Self.plist, body: Self.plistBody("pip"))
                #expect(reply.status == 409, "\(reply)")
                #expect(reply.text.hasPrefix("pip-not-supported") && reply.text.split(separator: "\n").count == 1, "\(reply.text)")
                let info = try #require(try await daemon.send("GET", "/playback-info").plist)
                #expect(info["presentationMode"] as? String == "standard" && info["pictureInPictureSupported"] as? Bool == false)
                #expect(info["pictureInPicturePossible"] as? Bool == false)
                let events = try await ReceiverProtocolTests.stop(daemon, stream)
                #expect(events.filter { $0["kind"] as? String == "pip-start-failed" }.count == 1)
                #expect(!events.contains { $0["kind"] as? String == "presentation-mode-changed" })
                #expect(try await daemon.send("GET", "/metrics").text.contains("airlab_pip_starts_failed_total 1\n"))
            }
        }
    }

    @Test("While another app holds picture in picture (a script step) the mode answers 409 pip-not-possible")
    func notPossible() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20"]) { daemon in
                let stream = try await EventStreamListener.connect(port: daemon.port)
                _ = try await Self.castAndHold(daemon, media, stream, script: "at 0 pip impossible; at 1 pause")
                let reply = try await daemon.send("PUT", "/setProperty?presentationMode", headers: Self.json, body: Data(#"{"mode": "pip"}"#.utf8))
                #expect(reply.status == 409 && reply.text.hasPrefix("pip-not-possible"), "\(reply)")
                let info = try #require(try await daemon.send("GET", "/playback-info").plist)
                #expect(info["pictureInPicturePossible"] as? Bool == false)
                _ = try await ReceiverProtocolTests.stop(daemon, stream)
            }
        }
    }

    @Test("SDK ad breaks sent in the /play JSON: one due in picture in picture is refused under attempt, in order on /events, and counted in the report")
    func sdkBreaksOverPlay() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20"]) { daemon in
                let stream = try await EventStreamListener.connect(port: daemon.port)
                let id = try await daemon.cast(media.playlist, extra: [
                    "script": "at 0 pip on",
                    "sdkAdBreaks": ["breaks": [["id": "mid", "time": 5, "ads": [["duration": 2]]], ["id": "post", "time": "end", "ads": [["duration": 1]]]]],
                    "sdkAdInPictureInPicture": "attempt",
                ])
                let events = try await stream.eventsUntilEnded()
                let kinds = events.compactMap { $0["kind"] as? String }
                let modeChanged = try #require(kinds.firstIndex(of: "presentation-mode-changed"))
                let refusals = events.enumerated().filter { $0.element["kind"] as? String == "sdk-ad-start-refused" }
                #expect(refusals.map { $0.element["eventID"] as? String } == ["sdk:mid", "sdk:post"])
                #expect(refusals.allSatisfy { $0.offset > modeChanged } && refusals.last!.offset < kinds.count - 1)
                #expect(kinds.last == "ended")

                let report = try await daemon.reportWhenEnded(id)
                let sdk = try #require(report["sdkAds"] as? [String: Any])
                #expect(sdk["violations"] as? Int == 2 && sdk["policy"] as? String == "attempt")
                #expect((sdk["lostToPictureInPicture"] as? [String: Any])?["seconds"] as? Double == 3)
                #expect(timelineShape(report) == ["P0-2", "I:ad-matching", "P2-8", "I:ad-mismatching", "P8-12"])
                let metrics = try await daemon.send("GET", "/metrics").text
                #expect(metrics.contains("airlab_sdk_ad_breaks_in_pip_total{outcome=\"refused\"} 2\n"), "\(metrics)")
                #expect(metrics.contains("airlab_sdk_ad_breaks_in_pip_total{outcome=\"skipped\"} 0\n"))
            }
        }
    }

    @Test("A /play whose sdkAdBreaks are malformed answers 400 naming the member")
    func malformedBreaks() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0"]) { daemon in
                let reply = try await daemon.send("POST", "/play", json: [
                    "url": media.playlist, "detached": true, "sdkAdBreaks": ["breaks": [["time": 5, "ads": [["duration": -2]]]]],
                ])
                #expect(reply.status == 400 && reply.text.contains("$.breaks[0].ads[0].duration"), "\(reply)")
            }
        }
    }
}
