import Foundation
import TestSupport
import Testing

/// JSON booleans reach the real daemon as JSON types: 1 and 0 are not true and false.
@Suite("airlabd reads JSON booleans as booleans")
struct StrictBooleanTests {
    @Test("/play with \"detached\": 1 and setProperty with 0 are 400s naming the member; true and false are taken")
    func numbersAreNotBooleans() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20"]) { daemon in
                let json = ["Content-Type": "application/json"]
                let detachedOne = try await daemon.send(
                    "POST", "/play", headers: json, body: Data("{\"url\": \"\(media.plainPlaylist)\", \"detached\": 1}".utf8))
                #expect(detachedOne.status == 400 && detachedOne.text == "detached in the /play JSON is not true or false\n", "\(detachedOne)")
                let automaticZero = try await daemon.send(
                    "POST", "/play", headers: json,
                    body: Data("{\"url\": \"\(media.plainPlaylist)\", \"detached\": true, \"automaticallyHandlesInterstitialEvents\": 0}".utf8))
                #expect(automaticZero.status == 400 && automaticZero.text.contains("automaticallyHandlesInterstitialEvents"), "\(automaticZero)")
                // Nothing played: the refused casts started no session.
                #expect(try await daemon.send("POST", "/rate?value=1").status == 409)

                // The receiver pauses itself at once on its own clock, so the short stream cannot end before
                // the setProperty requests reach it, however loaded the machine is.
                let id = try await daemon.cast(media.plainPlaylist, extra: ["automaticallyHandlesInterstitialEvents": false, "script": "at 0.01 pause"])
                let flagZero = try await daemon.send(
                    "PUT", "/setProperty?automaticallyHandlesInterstitialEvents", headers: json, body: Data("{\"value\": 0}".utf8))
                #expect(flagZero.status == 400 && flagZero.text == "automaticallyHandlesInterstitialEvents must be true or false\n", "\(flagZero)")
                let flagTrue = try await daemon.send(
                    "PUT", "/setProperty?automaticallyHandlesInterstitialEvents", headers: json, body: Data("{\"value\": true}".utf8))
                #expect(flagTrue.status == 200, "\(flagTrue)")
                #expect(try await daemon.send("POST", "/rate?value=1").status == 200)
                let report = try await daemon.reportWhenEnded(id)
                #expect(report["endReason"] as? String == "the primary content played to its end")
            }
        }
    }
}
