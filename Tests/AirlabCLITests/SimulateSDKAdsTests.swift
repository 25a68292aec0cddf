import Foundation
import TestSupport
import Testing

/// `airlab simulate --sdk-ads FILE` with a scripted viewer who goes to picture in picture.
@Suite("airlab simulate --sdk-ads")
struct SimulateSDKAdsTests {
    /// A mid-roll at 6 s of content (between the stream's ads at 4 and 8 s) and a post-roll.
    static let breaks = #"{"breaks": [{"id": "mid", "time": 6, "ads": [{"duration": 3}]}, {"id": "post", "time": "end", "ads": [{"duration": 2}]}]}"#

    /// Runs simulate on the ad-supported stream with the breaks file and `arguments`; returns the
    /// result, the JSON document (with --json) and the scratch folder's JUnit path.
    func simulate(_ arguments: [String], json: Bool = true) async throws -> (CommandResult, [String: Any]?, String) {
        let scratch = try await AdSupportedStream.stage()
        defer { scratch.remove() }
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }
        let playlist = try AdSupportedStream.writePlaylist(in: scratch, assetBase: server.baseURL.absoluteString)
        let file = try scratch.write("sdk-ads.json", Self.breaks)
        let junit = scratch.url.appendingPathComponent("junit.xml")
        let result = try await BlockingWork.airlab(
            ["simulate", server.url(playlist).absoluteString, "--sdk-ads", file.path, "--junit", junit.path] + arguments + (json ? ["--json"] : []))
        let document = json ? try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] : nil
        let report = (try? String(contentsOf: junit, encoding: .utf8)) ?? ""
        return (result, document, report)
    }

    static func sdk(_ profile: String, in document: [String: Any]?) throws -> [String: Any] {
        let sessions = try #require(document?["sessions"] as? [[String: Any]])
        let session = try #require(sessions.first { $0["profile"] as? String == profile })
        return try #require(session["sdkAds"] as? [String: Any])
    }

    static func outcomes(_ sdk: [String: Any]) -> [String?] {
        (sdk["breaks"] as? [[String: Any]] ?? []).map { $0["outcome"] as? String }
    }

    @Test("In picture in picture from the start, the Apple TV loses both SDK breaks (skip) while a TV without PiP plays them")
    func skipByDefault() async throws {
        let (result, document, junit) = try await simulate(["--profile", "apple-tv-4k", "--profile", "smart-tv-high", "--do", "at 0 pip on"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let appleTV = try Self.sdk("apple-tv-4k", in: document)
        #expect(Self.outcomes(appleTV) == ["skipped", "skipped"] && appleTV["policy"] as? String == "skip")
        #expect((appleTV["lostToPictureInPicture"] as? [String: Any])?["seconds"] as? Double == 5)
        let tv = try Self.sdk("smart-tv-high", in: document)
        #expect(Self.outcomes(tv) == ["started", "started"])
        #expect(junit.contains("failures=\"0\""), "lost breaks pass without --fail-on-lost-ads: \(junit)")
    }

    @Test("--sdk-ad-in-pip defer starts the mid-roll when picture in picture ends and reports the delay; attempt counts violations")
    func deferAndAttempt() async throws {
        let (deferred, deferredDocument, _) = try await simulate(["--profile", "apple-tv-4k", "--sdk-ad-in-pip", "defer", "--do", "at 0 pip on; at 14 pip off"])
        #expect(deferred.status == 0, "stderr: \(deferred.stderr)")
        let late = try Self.sdk("apple-tv-4k", in: deferredDocument)
        #expect(Self.outcomes(late) == ["started-late", "started"])
        let delay = try #require((late["breaks"] as? [[String: Any]])?.first?["delay"] as? Double)
        #expect(delay > 0 && late["longestDelaySeconds"] as? Double == delay)

        let (attempted, attemptedDocument, _) = try await simulate(["--profile", "apple-tv-4k", "--sdk-ad-in-pip", "attempt", "--do", "at 0 pip on"])
        #expect(attempted.status == 0)
        let refused = try Self.sdk("apple-tv-4k", in: attemptedDocument)
        #expect(Self.outcomes(refused) == ["refused", "refused"] && refused["violations"] as? Int == 2)
    }

    @Test("--fail-on-lost-ads fails each lost break in JUnit and exits 1; the text report counts them")
    func failOnLostAds() async throws {
        let (result, _, junit) = try await simulate(["--profile", "apple-tv-4k", "--do", "at 0 pip on", "--fail-on-lost-ads"], json: false)
        #expect(result.status == 1)
        #expect(junit.contains("<testsuite name=\"apple-tv-4k\" tests=\"4\" failures=\"2\""), "\(junit)")
        #expect(junit.contains("name=\"sdk:mid\"") && junit.contains("lost to picture in picture"))
        #expect(result.stdout.contains("2 (5.0 s) lost to picture in picture"), "\(result.stdout)")
    }

    @Test("A bad --sdk-ad-in-pip or a malformed breaks file exits 2 with one line naming it")
    func badInput() async throws {
        let policy = try await BlockingWork.airlab(["simulate", "x.m3u8", "--profile", "apple-tv-4k", "--sdk-ad-in-pip", "sometimes"])
        #expect(policy.status == 2 && policy.stderr.contains("--sdk-ad-in-pip must be skip, defer or attempt"), "\(policy.stderr)")
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("bad.json", #"{"breaks": [{"time": 6, "ads": [{"duration": 0}]}]}"#)
        let malformed = try await BlockingWork.airlab(["simulate", "x.m3u8", "--profile", "apple-tv-4k", "--sdk-ads", file.path])
        #expect(malformed.status == 2 && malformed.stderr.contains("$.breaks[0].ads[0].duration"), "\(malformed.stderr)")
        #expect(malformed.stderr.split(separator: "\n").count == 1)
    }
}
