import Foundation
import TestSupport
import Testing

/// `airlab console RECEIVER…` against a real `airlabd`: the same page and tiles for receivers reached
/// over HTTP, fed by their `GET /events`.
@Suite("airlab console: the live console of receivers on other hosts")
struct RemoteConsoleTests {
    /// A running `airlab console` for one test, stopped afterwards whatever the test does.
    static func withConsole<T>(_ arguments: [String], _ body: (RemoteConsoleProcess) async throws -> T) async throws -> T {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let console = try await RemoteConsoleProcess.start(arguments, in: scratch.url)
        do {
            let result = try await body(console)
            #expect(await console.stop() == 0, "airlab console ends with 0 on Ctrl-C: \(console.stderr)")
            return result
        } catch {
            await console.stop()
            Issue.record("airlab console said on stderr:\n\(console.stderr.split(separator: "\n").suffix(20).joined(separator: "\n"))")
            throw error
        }
    }

    @Test("One page for receivers of two daemons: each tile goes from primary to the ad with its restrictions and back, a seek across the JUMP ad is refused with the receiver's reason, and a receiver that cannot be reached leaves the others live")
    func fleetOverHosts() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "2"]) { first in
                try await withDaemon(["--profile", "smart-tv-low", "--port", "0", "--time-scale", "2"]) { second in
                    let unreachable = try ClosedPort()
                    let list = ["127.0.0.1:\(first.port)", "127.0.0.1:\(second.port)", "127.0.0.1:\(unreachable.port)"].joined(separator: ",")
                    try await Self.withConsole([list, "--console-control"]) { console in
                        let stream = try await ConsoleDaemonTests.ConsoleStream.open(port: console.port)
                        defer { stream.close() }
                        // The tiles are named as the receivers answer /server-info; the one that did not answer by its address.
                        #expect(stream.snapshot.contains("\"profile\":\"apple-tv-4k\"") && stream.snapshot.contains("\"profile\":\"smart-tv-low\""))
                        #expect(stream.snapshot.contains("\"receiver\":\"127.0.0.1:\(unreachable.port)\""))
                        // The daemons' --time-scale 2, from their /server-info, moves their tiles' clocks.
                        #expect(stream.snapshot.contains("\"timeScale\":2"), "\(stream.snapshot.prefix(600))")
                        #expect(stream.snapshot.contains("\"control\":true") && stream.snapshot.contains("\"pictures\":true"))

                        for daemon in [first, second] {
                            let reply = try await HTTPTestClient.send(port: daemon.port, "POST", "/play", json: ["url": media.playlist, "detached": true])
                            try #require(reply.status == 200, "POST /play: \(reply)")
                        }
                        _ = try await stream.tiles(until: 0, isIn: "playing-primary")
                        // The tile's picture, made by the receiver's own daemon (GET /picture) and passed through.
                        let playing = try await HTTPTestClient.send(port: console.port, "GET", "/console/frames/0.jpg?focus")
                        #expect(playing.status == 200 && playing.body.starts(with: [0xFF, 0xD8]), "\(playing.status) \(playing.text.prefix(200))")
                        // A frame of no receiver is answered as airlabd's console answers it.
                        let unknown = try await HTTPTestClient.send(port: console.port, "GET", "/console/frames/3.jpg")
                        #expect(unknown.status == 404 && unknown.text == "no picture: frames are /console/frames/N.jpg for a receiver N\n", "\(unknown)")
                        // A page asks for its tile's picture as it plays; while it does, the receiver pictures its switches.
                        let page = Task {
                            while !Task.isCancelled {
                                _ = try? await HTTPTestClient.send(port: console.port, "GET", "/console/frames/0.jpg")
                                try? await Task.sleep(for: .milliseconds(200))
                            }
                        }
                        defer { page.cancel() }
                        // A seek across the JUMP ad, through the receiver's own /scrub, is refused with its reason.
                        let refused = try await HTTPTestClient.send(port: console.port, "POST", "/console/receivers/0/control?command=seek&position=11")
                        #expect(refused.status == 403, "\(refused)")
                        #expect(refused.text.contains("JUMP") || refused.text.contains("SKIP"), "\(refused)")
                        let badSeek = try await HTTPTestClient.send(port: console.port, "POST", "/console/receivers/0/control?command=seek&position=-3")
                        #expect(badSeek.status == 400 && badSeek.text.contains("negative"), "\(badSeek)")

                        for index in [0, 1] {
                            let tiles = try await stream.tiles(until: index, isIn: "ended").filter { $0["index"] as? Int == index }
                            let said = try await HTTPTestClient.send(port: console.port, "GET", "/console/receivers/\(index)/log").text
                            let ad = try #require(tiles.first { $0["state"] as? String == "playing-interstitial" }, "tile \(index): \(said)")
                            let interstitial = try #require(ad["interstitial"] as? [String: Any])
                            // The restrictions come from the receiver's getProperty?interstitialEvents.
                            #expect(interstitial["restrictions"] as? [String] == ["SKIP", "JUMP"], "tile \(index): \(interstitial)")
                            let trail = try #require(tiles.last?["trail"] as? [String])
                            let primary = try #require(trail.firstIndex(of: "playing-primary"), "\(trail)")
                            let inAd = try #require(trail[primary...].firstIndex(of: "playing-interstitial"), "\(trail)")
                            #expect(trail[inAd...].contains("playing-primary"), "\(trail)")
                            // Primary's duration, read from /scrub while primary played.
                            #expect((tiles.last?["duration"] as? Double ?? 0) > 10, "tile \(index)")
                            // The buffer ahead, sampled from /playback-info's loadedTimeRanges while the page watched.
                            #expect(tiles.contains { ($0["bufferAhead"] as? Double ?? 0) > 0 }, "tile \(index): no buffer ahead was sampled")
                        }
                        let refusedTile = try await stream.tiles { $0["index"] as? Int == 0 && $0["lastRefusal"] is [String: Any] }.last { $0["index"] as? Int == 0 }
                        #expect(((refusedTile?["lastRefusal"] as? [String: Any])?["reason"] as? String ?? "").isEmpty == false)

                        // The focus view's timeline and log; once the sessions ended, no picture, with the receiver's reason.
                        let timeline = try await HTTPTestClient.send(port: console.port, "GET", "/console/receivers/0/timeline.svg")
                        #expect(timeline.status == 200 && timeline.text.contains("<svg"), "\(timeline)")
                        let log = try await HTTPTestClient.send(port: console.port, "GET", "/console/receivers/0/log")
                        #expect(log.status == 200 && log.text.contains("interstitial-started"), "\(log)")
                        page.cancel()
                        // The focus view's pictures either side of the switch into the ad and back, of the ad.
                        for name in ["before", "after", "return-before", "return-after"] {
                            let side = try await HTTPTestClient.send(port: console.port, "GET", "/console/receivers/0/\(name).jpg")
                            #expect(side.status == 200 && side.body.starts(with: [0xFF, 0xD8]), "\(name): \(side.status) \(side.text.prefix(200))")
                            #expect(side.headers.first { $0.key.lowercased() == "x-airlab-event" }?.value.isEmpty == false, "\(name): \(side.headers)")
                        }
                        let picture = try await HTTPTestClient.send(port: console.port, "GET", "/console/frames/0.jpg")
                        #expect(picture.status == 404 && picture.text.hasPrefix("no picture: no session is playing"), "\(picture)")
                        // The receiver that cannot be reached is named on stderr, with the reason.
                        #expect(console.stderr.contains("127.0.0.1:\(unreachable.port)"), "\(console.stderr)")
                        #expect(try await HTTPTestClient.send(port: console.port, "GET", "/console").status == 200)
                    }
                }
            }
        }
    }

    @Test("Read-only without --console-control; a receiver's number outside the list is 404")
    func readOnly() async throws {
        try await withDaemon(["--profile", "apple-tv-4k", "--port", "0"]) { daemon in
            try await Self.withConsole(["127.0.0.1:\(daemon.port)"]) { console in
                let refused = try await HTTPTestClient.send(port: console.port, "POST", "/console/receivers/0/control?command=pause")
                #expect(refused.status == 403 && refused.text.contains("--console-control"), "\(refused)")
                #expect(try await HTTPTestClient.send(port: console.port, "GET", "/console/receivers/5/timeline.svg").status == 404)
                #expect(try await HTTPTestClient.send(port: console.port, "GET", "/metrics").status == 404)
            }
        }
    }

    @Test("With --password the receivers' Digest challenge is answered and the page asks for the same password")
    func password() async throws {
        try await withDaemon(["--profile", "smart-tv-low", "--port", "0", "--password", "secret"]) { daemon in
            try await Self.withConsole(["127.0.0.1:\(daemon.port)", "--password", "secret"]) { console in
                #expect(try await HTTPTestClient.send(port: console.port, "GET", "/console").status == 401)
                let base = "http://127.0.0.1:\(console.port)/console"
                let page = try await BlockingWork.run { try Tool.run("curl", ["--silent", "--fail", "--digest", "-u", "AirPlay:secret", base]) }
                #expect(String(decoding: page, as: UTF8.self).contains("airlab console"))
                let log = try await BlockingWork.run { try Tool.run("curl", ["--silent", "--fail", "--digest", "-u", "AirPlay:secret", base + "/receivers/0/log"]) }
                #expect(String(decoding: log, as: UTF8.self).hasPrefix("["))
                // The receiver's feed is followed with the password (without it, /events is a 401 and stderr says so).
                let deadline = Date().addingTimeInterval(30)
                while !console.stderr.contains("following receiver") {
                    guard Date() < deadline else { throw TestSupportError("airlab console never followed the receiver: \(console.stderr)") }
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(!console.stderr.contains("password"), "\(console.stderr)")
            }
        }
    }

    @Test("Receivers and addresses that do not fit are refused with the input and the reason", arguments: [
        (["127.0.0.1:99999"], "127.0.0.1:99999"),
        ([String](), "name the receivers"),
        (["127.0.0.1:7000", "--listen", "localhost:0"], "--listen"),
        (["127.0.0.1:7000,,127.0.0.1:7001"], "empty"),
        (["--receivers-file", "/nonexistent/receivers.txt"], "/nonexistent/receivers.txt"),
    ])
    func badInput(arguments: [String], named: String) async throws {
        let result = try await BlockingWork.run { try CommandRunner.run("airlab", ["console"] + arguments) }
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(named), "\(result.stderr)")
    }
}
