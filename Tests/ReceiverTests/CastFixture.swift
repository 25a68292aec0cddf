import Foundation
import TestSupport
import Testing

/// TestSupport's ad-supported stream for casts to the real daemon, served over HTTP on 127.0.0.1,
/// with `ad-matching` at 2 s and `ad-mismatching` at 8 s.
struct CastFixture {
    let server: TestHTTPServer
    let scratch: Scratch

    /// The playlist with both interstitials.
    var playlist: String { server.url("show.m3u8").absoluteString }
    /// ffmpeg's own playlist of the primary, without interstitials.
    var plainPlaylist: String { server.url("primary/index.m3u8").absoluteString }

    static func with<T>(_ body: (CastFixture) async throws -> T) async throws -> T {
        let scratch = try await AdSupportedStream.stage()
        defer { scratch.remove() }
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }
        try AdSupportedStream.writePlaylist(in: scratch, assetBase: server.baseURL.absoluteString, matchingAt: 2)
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
        // What the daemon said is the first thing to read when a test against it fails.
        let running = daemon.process.isRunning
        let status = await daemon.stop()
        let said = daemon.stderr.split(separator: "\n").suffix(20).joined(separator: "\n")
        Issue.record("airlabd \(running ? "was running" : "had exited (status \(status.map(String.init) ?? "unknown"))"); its last lines on stderr:\n\(said)")
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

    /// Polls `GET /sessions/{id}` until the session has ended; returns its report.
    func reportWhenEnded(_ id: String) async throws -> [String: Any] {
        try await DaemonMatchesSimulationTests.reportWhenEnded(id, on: port)
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
