import Foundation
import Testing
import TestSupport

@Suite("airlab origin")
struct OriginCommandTests {
    @Test("a fault plan with an error exits 2 with one line naming the plan's field")
    func planErrorNamesTheField() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let plan = try scratch.write("plan.json", #"{"rules": [{"path": "/a.ts", "status": 503}, {"path": "*", "paceBytesPerSec": -5}]}"#)
        let result = try await BlockingWork.airlab(["origin", scratch.url.path, "--port", "0", "--faults", plan.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("rules[1].paceBytesPerSec"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("the origin prints its URL, serves with its plan, logs to its file, and exits 0 on Ctrl-C")
    func servesUntilInterrupted() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("root/seg.ts", Data(repeating: 7, count: 5_000))
        let plan = try scratch.write("plan.json", #"{"rules": [{"name": "first", "path": "/seg.ts", "requests": {"through": 1}, "status": 503}]}"#)
        let log = scratch.url.appendingPathComponent("log.jsonl")
        let process = try ChildProcess(
            [CommandRunner.productsDirectory.appendingPathComponent("airlab").path, "origin", scratch.url.appendingPathComponent("root").path,
             "--port", "0", "--faults", plan.path, "--log", log.path],
            standardOutput: .pipe)
        defer { process.signal(SIGKILL) }  // only when the test failed before its own stop
        let line = try await BlockingWork.run { process.readLine() ?? "" }
        let port = try #require(line.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }
            .flatMap { UInt16($0.dropFirst("http://127.0.0.1:".count).prefix { $0.isNumber }) }, "\(line)")
        let first = try await HTTPTestClient.send(port: port, "GET", "/seg.ts")
        let second = try await HTTPTestClient.send(port: port, "GET", "/seg.ts")
        #expect(first.status == 503 && second.status == 200)
        #expect(second.body.count == 5_000)
        process.signal(SIGINT)
        let status = try await BlockingWork.run { process.waitUntilExit() }
        #expect(status == 0)
        let rows = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 2)
        #expect(rows.first?.contains(#""rule":"first""#) == true)
    }

    @Test("the port is required and must fit 16 bits")
    func portIsRequired() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let missing = try await BlockingWork.airlab(["origin", scratch.url.path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--port"))
        let large = try await BlockingWork.airlab(["origin", scratch.url.path, "--port", "70000"])
        #expect(large.status == 2)
        #expect(large.stderr.contains("65535"))
    }

    @Test("a folder that does not exist exits 2 naming it")
    func missingFolder() async throws {
        let result = try await BlockingWork.airlab(["origin", "/nonexistent/airlab-origin", "--port", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/airlab-origin"))
    }

    @Test("--live serves the matching VOD playlists as sliding windows and the others as they are; bad live options exit 2 naming them")
    func liveWindows() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let vod = (["#EXTM3U", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"] + (0..<5).flatMap { ["#EXTINF:2.0,", "s\($0).ts"] } + ["#EXT-X-ENDLIST"])
            .joined(separator: "\n") + "\n"
        try scratch.write("root/live/index.m3u8", vod)
        try scratch.write("root/ad/index.m3u8", vod)
        let process = try ChildProcess(
            [CommandRunner.productsDirectory.appendingPathComponent("airlab").path, "origin", scratch.url.appendingPathComponent("root").path,
             "--port", "0", "--live", "/live/*.m3u8", "--live-window", "2", "--time-scale", "0.01"],
            standardOutput: .pipe)
        defer { process.signal(SIGKILL) }  // only when the test failed before its own stop
        let line = try await BlockingWork.run { process.readLine() ?? "" }
        #expect(line.contains("/live/*.m3u8 live"), "\(line)")
        let port = try #require(line.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }
            .flatMap { UInt16($0.dropFirst("http://127.0.0.1:".count).prefix { $0.isNumber }) }, "\(line)")
        // At a hundredth of real time the window moves on once in 200 s: a loaded machine's delays cannot move it.
        let live = String(decoding: try await HTTPTestClient.send(port: port, "GET", "/live/index.m3u8").body, as: UTF8.self)
        #expect(live.contains("#EXT-X-MEDIA-SEQUENCE:0") && live.contains("s1.ts") && !live.contains("s2.ts"), "\(live)")
        #expect(!live.contains("#EXT-X-ENDLIST") && !live.contains("PLAYLIST-TYPE"), "\(live)")
        let ad = String(decoding: try await HTTPTestClient.send(port: port, "GET", "/ad/index.m3u8").body, as: UTF8.self)
        #expect(ad == vod)
        process.signal(SIGINT)
        #expect(try await BlockingWork.run { process.waitUntilExit() } == 0)

        for (arguments, named) in [(["--live", "/a.m3u8", "--live-window", "0"], "--live-window"), (["--live", "/a.m3u8", "--time-scale", "-1"], "--time-scale"),
                                   (["--live-window", "4"], "--live GLOB")] {
            let result = try await BlockingWork.airlab(["origin", scratch.url.path, "--port", "0"] + arguments)
            #expect(result.status == 2 && result.stderr.contains(named), "\(arguments): \(result.stderr)")
        }
    }
}
