import Foundation
import Testing
import TestSupport
@testable import Lab

/// `airlab cast --sdk-ads FILE` against the real `airlabd`: the breaks travel in the JSON `/play`.
@Suite("airlab cast --sdk-ads")
struct CastSDKAdsTests {
    @Test("The SDK's breaks reach the receiver, which plays them between the content and reports them")
    func breaksTravelWithTheCast() async throws {
        let media = try await LabStream.stage()
        defer { media.remove() }
        let fleet = try await EndToEnd.fleet(["apple-tv-4k"], timeScale: 20, in: media.url)
        defer { Task { await fleet.stop() } }
        let receiver = try #require(fleet.receivers.first)
        let breaks = media.url.appendingPathComponent("sdk-ads.json")
        try Data(#"{"breaks": [{"id": "mid", "time": 6, "ads": [{"duration": 1.5}]}]}"#.utf8).write(to: breaks)

        let played = try await BlockingWork.airlab([
            "cast", media.url.appendingPathComponent("show.m3u8").path, "--to", EndToEnd.address(receiver), "--json",
            "--sdk-ads", breaks.path, "--sdk-ad-in-pip", "defer",
        ])
        #expect(played.status == 0, "\(played.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(played.stdout.utf8)) as? [String: Any])
        let sdk = try #require(report["sdkAds"] as? [String: Any])
        #expect(sdk["policy"] as? String == "defer")
        #expect((sdk["started"] as? [String: Any])?["seconds"] as? Double == 1.5)
        #expect((report["totals"] as? [String: Any])?["interstitialsPlayed"] as? Int == 3)

        let bad = try await BlockingWork.airlab(["cast", "x.m3u8", "--to", EndToEnd.address(receiver), "--sdk-ad-in-pip", "never"])
        #expect(bad.status == 2 && bad.stderr.contains("--sdk-ad-in-pip must be skip, defer or attempt"), "\(bad.stderr)")
    }
}
