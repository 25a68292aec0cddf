import Foundation
import FoundationXML
import TestSupport
import Testing

/// The sender protocol (docs/daemon.md) against the real `airlabd` on 127.0.0.1, casting ffmpeg-made
/// media served over real HTTP.
@Suite("airlabd speaks the sender protocol")
struct ReceiverProtocolTests {
    // MARK: - Identity and idle state

    @Test("server-info is a plist naming the receiver; without a session playback-info has no duration and /scrub reads 0")
    func identityAndIdle() async throws {
        try await withDaemon(["--profile", "smart-tv-low", "--port", "0"]) { daemon in
            let info = try await daemon.send("GET", "/server-info")
            #expect(info.status == 200 && info.reasonPhrase == "OK")
            #expect(info.headers["content-type"] == "text/x-apple-plist+xml")
            let plist = try #require(info.plist)
            #expect(plist["features"] as? Int == 0x211)
            #expect(plist["airlab.profile"] as? String == "smart-tv-low")
            #expect((plist["deviceid"] as? String)?.split(separator: ":").count == 6)

            let playback = try #require(try await daemon.send("GET", "/playback-info").plist)
            #expect(playback["duration"] == nil)
            #expect(playback["readyToPlay"] as? Bool == false)
            let scrub = try await daemon.send("GET", "/scrub")
            #expect(scrub.text == "duration: 0.000000\nposition: 0.000000\n")
        }
    }

    // MARK: - /play in every body form

    @Test("POST /play starts a session from each body form; playback-info then carries duration, and a fraction start lands mid-way", arguments: PlayBody.allCases)
    func playBodyForms(_ form: PlayBody) async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0"]) { daemon in
                let (headers, body) = form.request(url: media.plainPlaylist)
                // A legacy sender keeps the connection that sent /play open while it plays, and polls on it.
                let port = daemon.port
                let (reply, info) = try await BlockingWork.run {
                    let connection = try HTTPTestConnection(port: port)
                    defer { connection.close() }
                    let reply = try connection.send("POST", "/play", headers: headers, body: body)
                    return (reply, try connection.send("GET", "/playback-info"))
                }
                #expect(reply.status == 200, "\(form): \(reply)")
                let playback = try #require(info.plist)
                #expect(playback["duration"] as? Double == 12, "\(form)")
                let position = try #require(playback["position"] as? Double)
                // Every form asks for the middle: 0.5 of 12 s, or 6 s.
                #expect(position >= 6 && position < 9, "\(form): position \(position)")
                if form == .json {
                    #expect((reply.json as? [String: Any])?["sessionID"] is String)
                }
            }
        }
    }

    enum PlayBody: String, CaseIterable, CustomTestStringConvertible {
        case parametersCRLF, parametersLF, parametersWithoutContentType, binaryPlist, xmlPlist, json, secondsField

        var testDescription: String { rawValue }

        func request(url: String) -> (headers: [String: String], body: Data) {
            switch self {
            case .parametersCRLF:
                return (["Content-Type": "text/parameters"], Data("Content-Location: \(url)\r\nStart-Position: 0.5\r\n".utf8))
            case .parametersLF:
                return (["Content-Type": "text/parameters"], Data("Content-Location: \(url)\nStart-Position: 0.5\n".utf8))
            case .parametersWithoutContentType:
                return ([:], Data("Content-Location: \(url)\nStart-Position: 0.5\n".utf8))
            case .binaryPlist, .xmlPlist:
                let dictionary: [String: Any] = ["Content-Location": url, "Start-Position": 0.5, "uuid": "plist-sender"]
                let format: PropertyListSerialization.PropertyListFormat = self == .binaryPlist ? .binary : .xml
                let data = try! PropertyListSerialization.data(fromPropertyList: dictionary, format: format, options: 0)
                return (["Content-Type": self == .binaryPlist ? "application/x-apple-binary-plist" : "text/x-apple-plist+xml"], data)
            case .json:
                return (["Content-Type": "application/json"], Data("{\"url\": \"\(url)\", \"start\": 6, \"detached\": true}".utf8))
            case .secondsField:
                return (["X-Apple-Session-ID": "header-session"], Data("Content-Location: \(url)\nStart-Position-Seconds: 6\n".utf8))
            }
        }
    }

    // MARK: - A whole cast

    @Test("A cast with two interstitials at --time-scale 20 plays to the end; /reverse and /events hear the same events in order")
    func fullCastWithEvents() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20"]) { daemon in
                let stream = try await EventStreamListener.connect(port: daemon.port)
                let reverse = try await ReverseListener.connect(port: daemon.port)
                let id = try await daemon.cast(media.playlist)
                async let streamed = stream.eventsUntilEnded()
                async let reversed = reverse.eventsUntilEnded()
                let (sse, plists) = try await (streamed, reversed)

                let kinds = sse.dropFirst().map { $0["kind"] as? String ?? "?" }
                #expect(kinds.first == "state-changed" && kinds.last == "ended")
                #expect(sse.dropFirst().allSatisfy { $0["session"] as? String == id })
                let started = sse.filter { $0["kind"] as? String == "interstitial-started" }.compactMap { $0["eventID"] as? String }
                #expect(started == ["ad-matching", "ad-mismatching"])
                // Event times never go back, and the reverse channel carries the same sequence.
                let times = sse.dropFirst().compactMap { $0["time"] as? Double }
                #expect(times == times.sorted())
                #expect(plists.dropFirst().map { $0["airlab.kind"] as? String ?? "?" } == kinds)
                #expect(plists.allSatisfy { $0["category"] as? String == "video" })
                #expect(Set(plists.compactMap { $0["state"] as? String }).isSubset(of: ["loading", "playing", "paused", "stopped"]))

                let report = try await daemon.reportWhenEnded(id)
                #expect(timelineShape(report) == ["P0-2", "I:ad-matching", "P2-8", "I:ad-mismatching", "P8-12"])
                #expect(report["endReason"] as? String == "the primary content played to its end")
                let playback = try #require(try await daemon.send("GET", "/playback-info").plist)
                #expect(playback["duration"] == nil)
            }
        }
    }

    // MARK: - Restrictions

    @Test("SKIP: a seek forward or a rate above 1 during an interstitial answers 403 naming SKIP and the event")
    func skipRefusal() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20"]) { daemon in
                let stream = try await EventStreamListener.connect(port: daemon.port)
                // The receiver pauses itself 3 s into the session, inside the matching ad (2 s to 6 s), on its
                // own clock: the commands below then meet the ad however slow this machine is. Pausing is no
                // skipping, so SKIP allows it.
                _ = try await daemon.cast(media.playlist, extra: ["script": "at 3 pause"])
                try await BlockingWork.run { _ = stream.connection.socket.read(untilContains: "\"state\":\"paused\"") }
                let seek = try await daemon.send("POST", "/scrub?position=11")
                #expect(seek.status == 403, "\(seek)")
                #expect(seek.headers["x-airlab-restriction"] == "SKIP" && seek.headers["x-airlab-event"] == "ad-matching")
                #expect(seek.text.contains("SKIP") && seek.text.contains("ad-matching"))
                let rate = try await daemon.send("POST", "/rate?value=2")
                #expect(rate.status == 403 && rate.headers["x-airlab-restriction"] == "SKIP", "\(rate)")
                let events = try await Self.stop(daemon, stream)
                let refused = events.filter { $0["kind"] as? String == "command-refused" }
                #expect(refused.map { $0["restriction"] as? String } == ["SKIP", "SKIP"])
            }
        }
    }

    @Test("JUMP: a seek across an unplayed JUMP event answers 403 naming JUMP; the event plays first, then the seek lands")
    func jumpRefusal() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20"]) { daemon in
                // From 3 s (past the matching ad), paused by the receiver's own script until the seek has
                // arrived: a seek to 11 crosses the mismatching ad at 8 s, which then plays first.
                let stream = try await EventStreamListener.connect(port: daemon.port)
                let id = try await daemon.cast(media.playlist, extra: ["start": 3, "script": "at 0 pause"])
                // A seek while loading only moves the start; this one must meet primary content.
                try await BlockingWork.run { _ = stream.connection.socket.read(untilContains: "\"state\":\"paused\"") }
                stream.connection.close()
                let seek = try await daemon.send("POST", "/scrub?position=11")
                #expect(seek.status == 403, "\(seek)")
                #expect(seek.headers["x-airlab-restriction"] == "JUMP")
                let eventID = try #require(seek.headers["x-airlab-event"])
                #expect(eventID == "ad-mismatching")
                #expect(try await daemon.send("POST", "/rate?value=1").status == 200)
                let report = try await daemon.reportWhenEnded(id)
                let shape = timelineShape(report)
                #expect(shape.contains("I:\(eventID)"))
                #expect(shape.last == "P11-12")
                let refusals = report["refusals"] as? [[String: Any]] ?? []
                #expect(refusals.contains { $0["restriction"] as? String == "JUMP" && $0["eventID"] as? String == eventID })
            }
        }
    }

    @Test("A client event override through setProperty lifts the restrictions: the same seek is then answered 200 and no break plays")
    func overrideLiftsRestriction() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20"]) { daemon in
                // Paused from the start by the receiver's own clock, so the override lands before the first ad
                // however slow the machine is.
                let id = try await daemon.cast(media.playlist, extra: ["script": "at 0 pause"])
                let lifted = [["identifier": "ad-matching", "restrictions": [String]()], ["identifier": "ad-mismatching", "restrictions": [String]()]]
                let set = try await daemon.send("PUT", "/setProperty?interstitialEvents", json: lifted)
                #expect(set.status == 200, "\(set)")
                let schedule = try await daemon.send("POST", "/getProperty?interstitialEvents", headers: ["Accept": "application/json"])
                let events = try #require(schedule.json as? [[String: Any]])
                #expect(events.map { $0["identifier"] as? String } == ["ad-matching", "ad-mismatching"])
                #expect(events.allSatisfy { ($0["restrictions"] as? [String])?.isEmpty == true })
                let seek = try await daemon.send("POST", "/scrub?position=11")
                #expect(seek.status == 200, "\(seek)")
                #expect(try await daemon.send("POST", "/rate?value=1").status == 200)
                let report = try await daemon.reportWhenEnded(id)
                #expect(!timelineShape(report).contains { $0.hasPrefix("I:") })
            }
        }
    }

    @Test("automaticallyHandlesInterstitialEvents false: the effective schedule is empty and the cast plays without breaks")
    func automaticHandlingOff() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20"]) { daemon in
                let id = try await daemon.cast(media.playlist, extra: ["start": 0, "script": "at 0 pause"])
                let plist = try PropertyListSerialization.data(fromPropertyList: ["value": false], format: .binary, options: 0)
                let set = try await daemon.send(
                    "PUT", "/setProperty?automaticallyHandlesInterstitialEvents", headers: ["Content-Type": "application/x-apple-binary-plist"], body: plist)
                #expect(set.status == 200, "\(set)")
                let schedule = try #require(try await daemon.send("POST", "/getProperty?interstitialEvents").plist)
                #expect(schedule["errorCode"] as? Int == 0 && (schedule["value"] as? [Any])?.isEmpty == true)
                #expect(try await daemon.send("POST", "/rate?value=1").status == 200)
                let report = try await daemon.reportWhenEnded(id)
                #expect(!timelineShape(report).contains { $0.hasPrefix("I:") })
            }
        }
    }

    @Test("forwardEndTime ends the session at that primary time; actionAtItemEnd pause holds it paused there instead; 3 is refused naming the values")
    func itemEnd() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20"]) { daemon in
                func set(_ property: String, _ value: Any) async throws -> Int {
                    let plist = try PropertyListSerialization.data(fromPropertyList: ["value": value], format: .binary, options: 0)
                    return try await daemon.send(
                        "PUT", "/setProperty?\(property)", headers: ["Content-Type": "application/x-apple-binary-plist"], body: plist).status
                }
                // Paused at the start, so the settings are in before anything plays.
                let ended = try await daemon.cast(media.plainPlaylist, extra: ["start": 0, "script": "at 0 pause"])
                #expect(try await set("forwardEndTime", ["value": 4_000_000, "timescale": 1_000_000, "flags": 1, "epoch": 0]) == 200)
                #expect(try await daemon.send("POST", "/rate?value=1").status == 200)
                let report = try await daemon.reportWhenEnded(ended)
                #expect(report["endReason"] as? String == "playback reached the sender's forward end time")

                let held = try await daemon.cast(media.plainPlaylist, extra: ["start": 0, "script": "at 0 pause"])
                #expect(try await set("actionAtItemEnd", 1) == 200)
                #expect(try await set("actionAtItemEnd", 3) == 400)
                #expect(try await daemon.send("POST", "/rate?value=1").status == 200)
                // The session stays, paused at its end, until the sender stops it.
                var paused = false
                for _ in 0..<1500 where !paused {
                    let info = try #require(try await daemon.send("GET", "/playback-info").plist)
                    paused = (info["rate"] as? Double) == 0 && (info["position"] as? Double ?? 0) >= (info["duration"] as? Double ?? 1) - 0.01
                    if !paused { try await Task.sleep(for: .milliseconds(20)) }
                }
                #expect(paused)
                #expect(try await daemon.send("POST", "/stop").status == 200)
                let stopped = try await daemon.reportWhenEnded(held)
                #expect(stopped["endReason"] as? String == "stopped by the sender")
            }
        }
    }

    // MARK: - Session lifetime

    @Test("A second /play replaces the first: the first session ends with reason 'replaced', the second plays")
    func replacement() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0"]) { daemon in
                let first = try await daemon.cast(media.plainPlaylist)
                let second = try await daemon.cast(media.playlist)
                let firstReport = try await daemon.reportWhenEnded(first)
                #expect((firstReport["endReason"] as? String)?.contains("replaced") == true)
                let list = try #require((try await daemon.send("GET", "/sessions").json as? [String: Any])?["sessions"] as? [[String: Any]])
                #expect(list.map { $0["id"] as? String } == [first, second])
                #expect(list.map { $0["active"] as? Bool } == [false, true])
            }
        }
    }

    @Test("A legacy sender closing the connection that sent /play stops playback; a detached JSON session outlives its connection")
    func connectionCloseRule() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0"]) { daemon in
                let port = daemon.port
                let url = media.plainPlaylist
                // A legacy sender: text/parameters /play, polls on the same connection, then leaves.
                let polled = try await BlockingWork.run {
                    let connection = try HTTPTestConnection(port: port)
                    defer { connection.close() }
                    let play = try connection.send("POST", "/play", headers: ["Content-Type": "text/parameters"], body: Data("Content-Location: \(url)\n".utf8))
                    guard play.status == 200 else { return play }
                    return try connection.send("GET", "/playback-info")
                }
                #expect(polled.plist?["duration"] as? Double == 12, "\(polled)")
                let legacy = try #require(try await Self.sessions(daemon).last)
                let report = try await daemon.reportWhenEnded(try #require(legacy["id"] as? String))
                #expect(report["endReason"] as? String == "the sender closed the connection that sent /play")

                // The same, detached: the session keeps playing after the connection closed.
                let detached = try await daemon.cast(url)
                let info = try #require(try await daemon.send("GET", "/playback-info").plist)
                #expect(info["duration"] as? Double == 12)
                #expect(try await Self.sessions(daemon).last?["id"] as? String == detached)
                #expect(try await Self.sessions(daemon).last?["active"] as? Bool == true)
            }
        }
    }

    // MARK: - Reports, logs, metrics

    @Test("Reports: /sessions/{id} is the simulate report format, timeline.svg is SVG with one lane, logs and metrics count the cast")
    func reportsLogsAndMetrics() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "smart-tv-low", "--port", "0", "--time-scale", "20"]) { daemon in
                let id = try await daemon.cast(media.playlist, extra: ["seed": 7])
                let report = try await daemon.reportWhenEnded(id)
                #expect(report["profile"] as? String == "smart-tv-low" && report["seed"] as? Int == 7)
                // The low-end TV cannot decode HEVC: the mismatching ad is skipped, the matching one plays.
                #expect(timelineShape(report).filter { $0.hasPrefix("I:") } == ["I:ad-matching"])

                let svg = try await daemon.send("GET", "/sessions/\(id)/timeline.svg")
                #expect(svg.headers["content-type"] == "image/svg+xml")
                let document = try XMLDocument(data: svg.body)
                #expect(try document.nodes(forXPath: "//*[local-name()='g'][@data-profile='smart-tv-low']").count == 1)
                // A probe session fetches no segments: it has no fetch trace, and says why.
                let fetches = try await daemon.send("GET", "/sessions/\(id)/fetches")
                #expect(fetches.status == 404 && fetches.text.contains("--media probe"), "\(fetches.status) \(fetches.text)")
                let other = try await daemon.send("GET", "/sessions/\(id)/nothing")
                #expect(other.status == 404 && other.text.contains("/timeline.svg and /fetches"), "\(other.text)")

                let access = try #require(try await daemon.send("POST", "/getProperty?playbackAccessLog").plist?["value"] as? [[String: Any]])
                #expect(access.contains { ($0["uri"] as? String)?.hasSuffix("ad1/index.m3u8") == true }, "\(access)")
                #expect(access.allSatisfy { $0["c-duration-watched"] is Double && $0["cs-guid"] as? String == id })
                let errors = try #require(try await daemon.send("POST", "/getProperty?playbackErrorLog").plist?["value"] as? [[String: Any]])
                #expect(errors.contains { $0["uri"] as? String == "ad-mismatching" }, "\(errors) \(report["skipped"] ?? "")")

                let metrics = try await daemon.send("GET", "/metrics")
                #expect(metrics.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
                #expect(metrics.text.contains("airlab_sessions_started_total 1\n"))
                #expect(metrics.text.contains("airlab_interstitials_played_total 1\n"))
                #expect(metrics.text.contains("airlab_transition_seconds_count "))
                #expect(metrics.text.contains("airlab_receiver_info{"))
            }
        }
    }

    @Test("SIGTERM ends the session with reason shutdown, writes its report atomically, exits 0; the next daemon lists it")
    func shutdownKeepsReports() async throws {
        try await CastFixture.with { media in
            let state = try Scratch()
            defer { state.remove() }
            let arguments = ["--profile", "apple-tv-4k", "--port", "0", "--state-dir", state.url.path]
            let daemon = try await DaemonProcess.start(arguments, in: state.url)
            let id = try await daemon.cast(media.plainPlaylist)
            #expect(await daemon.stop() == 0, "stderr: \(daemon.stderr)")
            let file = state.url.appendingPathComponent("sessions/\(id).json")
            let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            #expect((stored["report"] as? [String: Any])?["endReason"] as? String == "shutdown")
            // Nothing half-written is left beside it.
            let files = try FileManager.default.contentsOfDirectory(atPath: state.url.appendingPathComponent("sessions").path)
            #expect(files == ["\(id).json"])

            try await withDaemon(arguments) { again in
                let list = try #require((try await again.send("GET", "/sessions").json as? [String: Any])?["sessions"] as? [[String: Any]])
                #expect(list.map { $0["id"] as? String } == [id])
                let report = try await again.send("GET", "/sessions/\(id)")
                #expect((report.json as? [String: Any])?["endReason"] as? String == "shutdown")
            }
        }
    }

    @Test("Live: the receiver reloads the playlist every target duration; an interstitial that arrives in a reload plays")
    func liveReloads() async throws {
        try await LiveStream.with { live in
            // The cast reads the playlist twice (load and probe); reloads bring the ad, then move the window on.
            try live.writeWindows([(0, nil), (0, nil), (1, "DURATION=4"), (2, "DURATION=4"), (3, "DURATION=4")])
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "10"]) { daemon in
                let stream = try await EventStreamListener.connect(port: daemon.port)
                // Paused a second in, well before the ad's 7 s, while reloads go on with the session's clock;
                // it plays on once a reload has brought the ad, however long that took here.
                let id = try await daemon.cast(live.playlistURL, extra: ["script": "at 1 pause"])
                var scheduled: [String] = []
                for _ in 0..<400 where !scheduled.contains("ad") {
                    let schedule = try await daemon.send("POST", "/getProperty?interstitialEvents", headers: ["Accept": "application/json"])
                    scheduled = (schedule.json as? [[String: Any]] ?? []).compactMap { $0["identifier"] as? String }
                    if !scheduled.contains("ad") { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(scheduled == ["ad"], "no reload brought the ad within 20 s")
                #expect(try await daemon.send("POST", "/rate?value=1").status == 200)
                try await BlockingWork.run { _ = stream.connection.socket.read(untilContains: "event: interstitial-ended") }
                #expect(try await daemon.send("POST", "/stop").status == 200)
                let report = try await daemon.reportWhenEnded(id)
                #expect(report["endReason"] as? String == "stopped by the sender")
                #expect((report["totals"] as? [String: Any])?["interstitialsPlayed"] as? Int == 1, "\(timelineShape(report))")
                #expect(timelineShape(report).contains("I:ad"))
            }
        }
    }

    // MARK: - Helpers

    static func sessions(_ daemon: DaemonProcess) async throws -> [[String: Any]] {
        (try await daemon.send("GET", "/sessions").json as? [String: Any])?["sessions"] as? [[String: Any]] ?? []
    }

    /// Stops the session and returns what the listener heard until its end.
    static func stop(_ daemon: DaemonProcess, _ stream: EventStreamListener) async throws -> [[String: Any]] {
        #expect(try await daemon.send("POST", "/stop").status == 200)
        return try await stream.eventsUntilEnded()
    }
}
