import Foundation
import Testing
import TestSupport
@testable import Lab

/// `airlab cast` and the commands that drive a session, against the real `airlabd` on 127.0.0.1.
@Suite("airlab cast against airlabd")
struct CastEndToEndTests {
    @Test("Casting a local folder on a terminal shows one progress line redrawn in place, then the session's report")
    func progressOnATerminal() async throws {
        let media = try await LabStream.stage()
        defer { media.remove() }
        let fleet = try await EndToEnd.fleet(["apple-tv-4k"], timeScale: 20, in: media.url)
        defer { Task { await fleet.stop() } }
        let receiver = try #require(fleet.receivers.first)

        // script(1) gives airlab a pseudo-terminal as stdout and copies what it shows.
        let command = [CommandRunner.productsDirectory.appendingPathComponent("airlab").path, "cast",
            media.url.appendingPathComponent("show.m3u8").path, "--to", EndToEnd.address(receiver)]
        let result = try await BlockingWork.run {
            try CommandRunner.run(
                executableURL: URL(fileURLWithPath: "/usr/bin/script"),
                ["-qfec", command.map(EndToEnd.shellQuoted).joined(separator: " "), "/dev/null"])
        }
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let shown = result.stdout
        #expect(shown.contains("receiver \"\(receiver.name)\" (127.0.0.1:\(receiver.port)) plays "))
        // Every redraw returns to the start of the line and clears it: the progress never scrolls.
        let frames = shown.components(separatedBy: "\r\u{1B}[2K").dropFirst().map { $0.split(separator: "\r").first.map(String.init) ?? "" }
        #expect(frames.contains { $0.hasPrefix("playing-primary  ") && $0.contains(" s") })
        #expect(frames.contains { $0.hasPrefix("playing-interstitial  'ad-matching' asset 1") })
        #expect(frames.contains { $0.contains("'ad-mismatching'") && $0.contains("| last switch ") })
        #expect(frames.last?.hasPrefix("ended (the primary content played to its end); 2 interstitial(s) played") == true)
        // Then the report summary, as `airlab simulate` prints it.
        #expect(shown.contains("apple-tv-4k (seed "))
        #expect(shown.contains("interstitials: 2 played, 0 skipped"))
        let sessions = try await EndToEnd.sessions(receiver)
        #expect(sessions.count == 1 && sessions.first?.active == false)
        #expect(sessions.first?.playlist?.hasPrefix("http://127.0.0.1:") == true)
    }

    @Test("Ctrl-C stops the cast's session on the receiver, which records that the sender stopped it")
    func interruptStopsTheSession() async throws {
        let media = try await LabStream.stage(repeats: 20)
        defer { media.remove() }
        // Real time: 240 s of primary cannot end on its own while the test runs its steps.
        let fleet = try await EndToEnd.fleet(["smart-tv-high"], timeScale: 1, in: media.url)
        defer { Task { await fleet.stop() } }
        let receiver = try #require(fleet.receivers.first)
        let output = media.url.appendingPathComponent("cast.out")
        let cast = try EndToEnd.spawnAirlab(["cast", media.url.appendingPathComponent("show.m3u8").path, "--to", EndToEnd.address(receiver)], output: output)
        let started = try await EndToEnd.waitForOutput("Ctrl-C stops it", in: output, while: cast)
        try #require(started.contains("Ctrl-C stops it"), "airlab cast said: \(started)")
        let playing = try await EndToEnd.sessions(receiver)
        #expect(playing.count == 1 && playing.first?.active == true)

        cast.signal(SIGINT)
        try await BlockingWork.run { cast.waitUntilExit() }
        let said = try String(contentsOf: output, encoding: .utf8)
        #expect(cast.exitCode == 130, "\(said)")
        #expect(said.contains("airlab cast: interrupted; receiver \"\(receiver.name)\""))
        let sessions = try await EndToEnd.sessions(receiver)
        #expect(sessions.count == 1)
        #expect(sessions.first?.active == false)
        #expect(sessions.first?.endReason?.contains("sender") == true, "\(String(describing: sessions.first?.endReason))")
        // The summary of what played before the interruption.
        #expect(said.contains("ended: \(sessions.first?.endReason ?? "-")"))
    }

    @Test("seek, status, pause, play, stop and watch drive and follow a detached session; refusals, no session and an unknown receiver fail naming it")
    func driveADetachedSession() async throws {
        let media = try await LabStream.stage()
        defer { media.remove() }
        // A pre-roll the sender adds, declared ten minutes long and restricted SKIP: it still plays
        // whenever the test's steps happen.
        let events = try media.write("preroll.json", """
            [{"identifier": "preroll", "time": 0, "cue": "joinCue", "assets": [{"uri": "ad1/index.m3u8", "duration": 600}],
              "restrictions": ["requiresPlaybackAtPreferredRateForAdvancement"]}]
            """)
        let fleet = try await EndToEnd.fleet(["apple-tv-4k"], timeScale: 1, in: media.url)
        defer { Task { await fleet.stop() } }
        let receiver = try #require(fleet.receivers.first)
        let to = ["--to", EndToEnd.address(receiver)]

        let idle = try await BlockingWork.airlab(["seek", "30"] + to)
        #expect(idle.status == 1)
        #expect(idle.stderr == "airlab seek: receiver 127.0.0.1:\(receiver.port): plays no session (no session is playing; cast with POST /play first)\n")

        // watch subscribes first and says so with the state it joined in.
        let watchOutput = media.url.appendingPathComponent("watch.out")
        let watch = try EndToEnd.spawnAirlab(["watch", "--json", "--until-end"] + to, output: watchOutput)
        let greeting = try await EndToEnd.waitForOutput("\n", in: watchOutput, while: watch)
        #expect(greeting.contains("\"state\":\"idle\""), "\(greeting)")

        let cast = try await BlockingWork.airlab(
            ["cast", media.url.appendingPathComponent("show.m3u8").path, "--detach", "--json", "--events", events.path] + to)
        #expect(cast.status == 0, "\(cast.stderr)")
        let started = try #require(try JSONSerialization.jsonObject(with: Data(cast.stdout.utf8)) as? [String: Any])
        let sessionID = try #require(started["sessionID"] as? String)
        #expect(started["profile"] as? String == "apple-tv-4k")

        // Once the receiver says the pre-roll plays, seeking forward is refused by its SKIP restriction.
        let playing = try await EndToEnd.waitForOutput("\"interstitial-started\"", in: watchOutput, while: watch)
        try #require(playing.contains("\"interstitial-started\""), "\(playing)")
        let refused = try await BlockingWork.airlab(["seek", "10"] + to)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("airlab seek: receiver 127.0.0.1:\(receiver.port): seek 10 refused by the SKIP restriction of interstitial 'preroll'"))

        let status = try await BlockingWork.airlab(["status", "--json"] + to)
        let statusObject = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let session = try #require(statusObject["session"] as? [String: Any])
        #expect(session["id"] as? String == sessionID)
        #expect(session["state"] as? String == "playing-interstitial")
        #expect(statusObject["profile"] as? String == "apple-tv-4k")

        #expect(try await BlockingWork.airlab(["pause"] + to).status == 0)
        #expect(try await BlockingWork.airlab(["play"] + to).status == 0)
        #expect(try await BlockingWork.airlab(["stop"] + to).status == 0)

        try await BlockingWork.run { watch.waitUntilExit() }
        #expect(watch.exitCode == 0)
        let lines = try String(contentsOf: watchOutput, encoding: .utf8).split(separator: "\n")
        let received = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(received.count == lines.count, "every line is one JSON event")
        #expect(received.contains { $0["kind"] as? String == "command-refused" && $0["restriction"] as? String == "SKIP" })
        #expect(received.contains { $0["kind"] as? String == "rate-changed" && $0["rate"] as? Double == 0 && $0["session"] as? String == sessionID })
        #expect(received.last?["kind"] as? String == "ended")
        #expect(received.last?["reason"] as? String == "stopped by the sender")

        let unknown = try await BlockingWork.airlab(["status", "--to", "Nowhere TV", "--discovery-timeout", "1"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("airlab status: receiver \"Nowhere TV\": "))
    }

    @Test("A password-protected receiver takes an attached cast, its events and its polls with the password, and refuses it without")
    func password() async throws {
        let media = try await LabStream.stage()
        defer { media.remove() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let fleet = try await DaemonProcess.start(
            ["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20", "--password", "sésame", "--state-dir", scratch.url.appendingPathComponent("state").path],
            in: scratch.url)
        defer { Task { await fleet.stop() } }
        let receiver = try #require(fleet.receivers.first)
        let cast = ["cast", media.url.appendingPathComponent("show.m3u8").path, "--to", EndToEnd.address(receiver), "--json"]

        let refused = try await BlockingWork.airlab(cast)
        #expect(refused.status == 2)
        #expect(refused.stderr == "airlab cast: receiver \"\(receiver.name)\" (127.0.0.1:\(receiver.port)): requires a password (HTTP 401); give it with --password\n")
        let wrong = try await BlockingWork.airlab(cast + ["--password", "guess"])
        #expect(wrong.stderr.hasSuffix("refused the password (HTTP 401)\n"))

        let played = try await BlockingWork.airlab(cast + ["--password", "sésame"])
        #expect(played.status == 0, "\(played.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(played.stdout.utf8)) as? [String: Any])
        #expect((report["totals"] as? [String: Any])?["interstitialsPlayed"] as? Int == 2)
        #expect(report["endReason"] as? String == "the primary content played to its end")
    }
}
