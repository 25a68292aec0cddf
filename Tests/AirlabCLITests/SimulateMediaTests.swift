import Foundation
import TestSupport
import Testing

/// `airlab simulate --media verify`: every segment fetched once over real HTTP on 127.0.0.1, then
/// played through each profile's network and buffer model.
@Suite("airlab simulate --media")
struct SimulateMediaTests {
    func withCast<T>(_ body: (URL, Scratch) async throws -> T) async throws -> T {
        let scratch = try await AdSupportedStream.stage()
        defer { scratch.remove() }
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }
        let playlist = try AdSupportedStream.writePlaylist(in: scratch, assetBase: server.baseURL.absoluteString)
        return try await body(server.url(playlist), scratch)
    }

    /// The sizes of the .ts files in `folder` of the staged stream.
    func segmentBytes(_ scratch: Scratch, _ folder: String) throws -> [Int] {
        let directory = scratch.url.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".ts") }.map { name in
            (try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int) ?? 0
        }
    }

    @Test("verify fetches a separate audio rendition alongside the video: every segment of both playlists once, at its measured size")
    func verifyFetchesSeparateAudio() async throws {
        let video = try await TestMedia.hls(MediaRecipe.baseline("video-only") { $0.streams = .videoOnly }, .fragmentedMP4)
        let audio = try await TestMedia.hls(MediaRecipe.baseline("audio-only") { $0.streams = .audioOnly }, .fragmentedMP4)
        let scratch = try await TestMedia.stage(["video": video, "audio": audio])
        defer { scratch.remove() }
        _ = try scratch.write("master.m3u8", """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="audio/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.64001e,mp4a.40.2",AUDIO="aac"
            video/index.m3u8

            """)
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }
        let result = try await BlockingWork.airlab(["simulate", server.url("master.m3u8").absoluteString, "--profile", "apple-tv-4k", "--media", "verify", "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let session = try #require((document["sessions"] as? [[String: Any]])?.first)
        let media = try #require(session["media"] as? [String: Any], "no media totals: \(session.keys)")
        // The segments each playlist lists (its media lines), and their sizes on disk.
        var counts: [String: Int] = [:]
        var bytes = 0
        for folder in ["video", "audio"] {
            let directory = scratch.url.appendingPathComponent(folder)
            let playlist = try String(contentsOf: directory.appendingPathComponent("index.m3u8"), encoding: .utf8)
            for line in playlist.split(separator: "\n") where !line.hasPrefix("#") && !line.isEmpty {
                counts[folder, default: 0] += 1
                bytes += (try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(String(line)).path)[.size] as? Int) ?? 0
            }
        }
        let count = counts.values.reduce(0, +)
        #expect(counts["video", default: 0] > 0 && counts["audio", default: 0] > 0, "\(counts)")
        #expect(media["segments"] as? Int == count && media["bytes"] as? Int == bytes, "\(counts) segments of \(bytes) bytes listed: \(media)")
        #expect(session["endReason"] as? String == "the primary content played to its end")
    }

    @Test("verify plays the segments' measured sizes: the bytes fetched are the files' sizes, and each break gets segments and rebuffer cases")
    func verifyMeasuresSegments() async throws {
        try await withCast { url, scratch in
            let junit = scratch.url.appendingPathComponent("junit.xml")
            let result = try await BlockingWork.airlab([
                "simulate", url.absoluteString, "--profile", "apple-tv-4k", "--media", "verify", "--json", "--junit", junit.path,
            ])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let session = try #require((document["sessions"] as? [[String: Any]])?.first)
            let media = try #require(session["media"] as? [String: Any], "no media totals: \(session.keys)")
            // Both ads play on the Apple TV and replace no primary time (resume offset 0): every file is fetched once.
            let files = try segmentBytes(scratch, "primary") + segmentBytes(scratch, "ad1") + segmentBytes(scratch, "ad2")
            #expect(media["segments"] as? Int == files.count, "\(media)")
            #expect(media["bytes"] as? Int == files.reduce(0, +), "\(media)")
            let totals = try #require(session["totals"] as? [String: Any])
            #expect(totals["stalls"] as? Int == 0, "an Apple TV at 200 Mbit/s does not stall on a few hundred kB")
            let xml = try String(contentsOf: junit, encoding: .utf8)
            #expect(xml.contains("name=\"ad-matching segments\"") && xml.contains("name=\"ad-mismatching rebuffer\""))
        }
    }

    @Test("--media realtime and a trace without verify are usage errors, and a malformed trace names the field")
    func usageErrors() async throws {
        let realtime = try await BlockingWork.airlab(["simulate", "x.m3u8", "--profile", "apple-tv-4k", "--media", "realtime"])
        #expect(realtime.status == 2 && realtime.stderr.contains("real clock"), "\(realtime.stderr)")
        let unknown = try await BlockingWork.airlab(["simulate", "x.m3u8", "--profile", "apple-tv-4k", "--media", "fast"])
        #expect(unknown.status == 2 && unknown.stderr.contains("--media must be probe, verify or realtime, not 'fast'"), "\(unknown.stderr)")
        let scratch = try Scratch()
        defer { scratch.remove() }
        let trace = scratch.url.appendingPathComponent("trace.json")
        try Data(#"{"rows": [{"uri": "https://cdn.example/0.ts", "attempt": 0, "status": 200, "bytes": 1, "firstByteSeconds": 0, "seconds": 1}]}"#.utf8).write(to: trace)
        let probeTrace = try await BlockingWork.airlab(["simulate", "x.m3u8", "--profile", "apple-tv-4k", "--media", "probe", "--fetch-trace", trace.path])
        #expect(probeTrace.status == 2 && probeTrace.stderr.contains("needs --media verify"), "\(probeTrace.stderr)")
        let bad = try await BlockingWork.airlab(["simulate", "x.m3u8", "--profile", "apple-tv-4k", "--fetch-trace", trace.path])
        #expect(bad.status == 2 && bad.stderr.contains("$.rows[0].attempt") && bad.stderr.contains("from 1 to 100"), "\(bad.stderr)")
    }
}
