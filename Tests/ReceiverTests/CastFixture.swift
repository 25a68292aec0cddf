import Foundation
import TestSupport
import Testing

/// Media for casts to the real daemon: an ffmpeg-made primary (H.264 30 fps 16:9, AAC 48 kHz stereo,
/// 12 s in 4 s segments) with two interstitials, served over HTTP on 127.0.0.1:
/// - `ad-matching` at 2 s, which matches the primary on every dimension;
/// - `ad-mismatching` at 8 s: HEVC, 25 fps, 4:3, 44.1 kHz 5.1.
/// Both resume where they left primary, and both carry SKIP and JUMP.
struct CastFixture {
    static let primary = MediaRecipe.baseline("primary-12s") { $0.seconds = 12 }
    static let matchingAd = MediaRecipe.baseline("ad-matching-4s") { $0.seconds = 4 }
    static let mismatchingAd = MediaRecipe.baseline("ad-mismatching-4s") {
        $0.seconds = 4
        $0.videoCodec = "libx265"
        $0.frameRate = "25"
        $0.size = "240x180"
        $0.sampleRate = 44100
        $0.channels = 6
    }

    let server: TestHTTPServer
    let scratch: Scratch

    /// The playlist with both interstitials.
    var playlist: String { server.url("primary/show.m3u8").absoluteString }
    /// ffmpeg's own playlist of the primary, without interstitials.
    var plainPlaylist: String { server.url("primary/index.m3u8").absoluteString }

    func url(_ path: String) -> String { server.url(path).absoluteString }

    static func with<T>(_ body: (CastFixture) async throws -> T) async throws -> T {
        let folders = [
            "primary": try await TestMedia.hls(primary, .transportStream, segmentSeconds: 4),
            "ad1": try await TestMedia.hls(matchingAd, .transportStream, segmentSeconds: 4),
            "ad2": try await TestMedia.hls(mismatchingAd, .transportStream, segmentSeconds: 4),
        ]
        let scratch = try TestMedia.stage(folders)
        defer { scratch.remove() }
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }

        let index = try String(contentsOf: scratch.url.appendingPathComponent("primary/index.m3u8"), encoding: .utf8)
        let segments = index.split(separator: "\n").drop { !$0.hasPrefix("#EXTINF") }.filter { $0 != "#EXT-X-ENDLIST" }
        func interstitial(_ id: String, at seconds: Int, _ folder: String) -> String {
            "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:0\(seconds).000Z\","
                + "X-ASSET-URI=\"\(server.url("\(folder)/index.m3u8").absoluteString)\",X-RESUME-OFFSET=0,X-RESTRICT=\"SKIP,JUMP\""
        }
        let playlist = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD",
            "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z",
            interstitial("ad-matching", at: 2, "ad1"), interstitial("ad-mismatching", at: 8, "ad2")]
            + segments.map(String.init) + ["#EXT-X-ENDLIST", ""]
        try scratch.write("primary/show.m3u8", playlist.joined(separator: "\n"))
        try scratch.write("not-a-playlist.txt", "hello\n")
        return try await body(CastFixture(server: server, scratch: scratch))
    }
}

/// A running daemon for one test, stopped afterwards whatever the test does.
func withDaemon<T>(_ arguments: [String], _ body: (DaemonProcess) async throws -> T) async throws -> T {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let daemon = try await DaemonProcess.start(arguments, in: scratch.url)
    do {
        let result = try await body(daemon)
        await daemon.stop()
        return result
    } catch {
        await daemon.stop()
        throw error
    }
}

extension DaemonProcess {
    var port: UInt16 { receivers.first?.port ?? 0 }

    func send(_ method: String, _ target: String, headers: [String: String] = [:], body: Data = Data()) async throws -> HTTPReply {
        try await HTTPTestClient.send(port: port, method, target, headers: headers, body: body)
    }

    func send(_ method: String, _ target: String, json: Any) async throws -> HTTPReply {
        try await HTTPTestClient.send(port: port, method, target, json: json)
    }

    /// A detached JSON cast; returns the session id.
    func cast(_ url: String, extra: [String: Any] = [:]) async throws -> String {
        var body: [String: Any] = ["url": url, "detached": true]
        body.merge(extra) { _, new in new }
        let reply = try await send("POST", "/play", json: body)
        try #require(reply.status == 200, "POST /play: \(reply)")
        let json = try #require(reply.json as? [String: Any])
        return try #require(json["sessionID"] as? String)
    }

    /// Polls `GET /sessions/{id}` (bounded: 30 s) until the session has ended; returns its report.
    func reportWhenEnded(_ id: String) async throws -> [String: Any] {
        for _ in 0..<600 {
            let reply = try await send("GET", "/sessions/\(id)")
            if let report = reply.json as? [String: Any], report["endReason"] is String { return report }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("session \(id) did not end within 30 s")
        return [:]
    }
}

/// What a report's timeline shows, in order: "P0-2", "T", "I:ad-matching", …
func timelineShape(_ report: [String: Any]) -> [String] {
    (report["timeline"] as? [[String: Any]] ?? []).compactMap { entry in
        switch entry["kind"] as? String {
        case "primary": "P\(Int(((entry["positionStart"] as? Double) ?? 0).rounded()))-\(Int(((entry["positionEnd"] as? Double) ?? 0).rounded()))"
        case "interstitial": "I:\(entry["eventID"] as? String ?? "?")"
        default: nil
        }
    }
}
