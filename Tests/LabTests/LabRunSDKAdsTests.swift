import Foundation
import Testing
import TestSupport
@testable import Lab

/// `airlab lab run --sdk-ads`: which receivers lose an SDK ad break to a viewer in picture in picture.
@Suite("airlab lab run --sdk-ads")
struct LabRunSDKAdsTests {
    @Test("With --fail-on-lost-ads the Apple TV, in picture in picture, fails the lost break in JUnit; the TV without PiP passes")
    func lostAdsFailOnPictureInPictureReceivers() async throws {
        let media = try await LabStream.stage()
        defer { media.remove() }
        let breaks = media.url.appendingPathComponent("sdk-ads.json")
        try Data(#"{"breaks": [{"id": "mid", "time": 6, "ads": [{"duration": 2}]}]}"#.utf8).write(to: breaks)
        let out = media.url.appendingPathComponent("reports")
        let result = try await BlockingWork.airlab([
            "lab", "run", media.url.appendingPathComponent("show.m3u8").path, "--profile", "apple-tv-4k", "--profile", "smart-tv-high",
            "--time-scale", "20", "--do", "at 0 pip on", "--sdk-ads", breaks.path, "--fail-on-lost-ads", "--out", out.path,
        ])
        #expect(result.status == 1, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        let junit = try String(contentsOf: out.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("<testsuite name=\"apple-tv-4k\" tests=\"3\" failures=\"1\""), "\(junit)")
        #expect(junit.contains("<testsuite name=\"smart-tv-high\" tests=\"3\" failures=\"0\""), "\(junit)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        let sessions = try #require(document["sessions"] as? [[String: Any]])
        let lost = sessions.map { (($0["sdkAds"] as? [String: Any])?["lostToPictureInPicture"] as? [String: Any])?["breaks"] as? Int }
        #expect(lost == [1, 0])
    }
}
