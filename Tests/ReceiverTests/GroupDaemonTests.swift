import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// Groups across real daemons: a group hosted by one `airlabd`, participants in it and in a second
/// `airlabd`, joined over the JSON `/play` extension, with real HTTP, SSE and ffmpeg-made media. What
/// happened is read from the host's event stream, in order, and waited on as events, never with sleeps.
@Suite(.serialized) struct GroupDaemonTests {
    /// Fast enough that the 12 s programme with its two 4 s ads plays in a few seconds, slow enough
    /// that the second participant has joined before the first break at 2 s.
    static let scale = "4"

    static func create(_ host: DaemonProcess, _ body: [String: Any]) async throws -> String {
        let reply = try await host.send("POST", "/groups", json: body)
        try #require(reply.status == 201, "POST /groups: \(reply)")
        return try #require((reply.json as? [String: Any])?["id"] as? String)
    }

    static func join(_ receiver: DaemonProcess, _ url: String, host: DaemonProcess, group: String, participant: String, extra: [String: Any] = [:]) async throws -> HTTPReply {
        var membership: [String: Any] = ["url": "http://127.0.0.1:\(host.port)/groups/\(group)", "participant": participant, "contentID": "show"]
        membership.merge(extra) { _, new in new }
        return try await receiver.send("POST", "/play", json: ["url": url, "detached": true, "group": membership])
    }

    @Test("Wait policy over two daemons: the ad-free participant waits for the other's ad, both resume together, and /playback-info shows the wait")
    func waitAcrossDaemons() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", Self.scale]) { host in
                try await withDaemon(["--profile", "smart-tv-low", "--port", "0", "--time-scale", Self.scale]) { other in
                    let group = try await Self.create(host, [
                        "id": "g1", "contentID": "show", "startWith": 2, "policy": ["waitFor": ["playingInterstitial"]],
                    ])
                    let observer = try await GroupObserver.connect(port: host.port, group: group)
                    let a = try await Self.join(host, media.playlist, host: host, group: group, participant: "A")
                    #expect(a.status == 200, "\(a)")
                    let b = try await Self.join(other, media.plainPlaylist, host: host, group: group, participant: "B")
                    #expect(b.status == 200, "\(b)")

                    // B waits while A plays its first ad: its receiver shows the coordinated wait.
                    _ = try await observer.waitFor { $0.contains { $0.kind == "follow" && $0["participant"] == "B" && $0["follow"] == "waiting" } }
                    let info = try #require(try await other.send("GET", "/playback-info").plist)
                    let status = info["timeControlStatus"] as? String
                    let reason = info["reasonForWaitingToPlay"] as? String
                    #expect(info["groupID"] as? String == "g1")
                    try await Self.expectClockAgrees(host, host: host, group: group)
                    try await Self.expectClockAgrees(other, host: host, group: group)
                    // The wait may have ended by the time the answer is read, but it is never plain paused.
                    #expect((status == "waitingToPlayAtSpecifiedRate" && reason == "waitingForCoordinatedPlayback") || status == "playing", "\(info)")

                    let events = try await observer.waitFor { events in events.filter { $0.kind == "waited" && $0["participant"] == "B" }.count >= 2 }
                    let kinds = events.map(\.kind)
                    let joinedA = try #require(events.firstIndex { $0.kind == "joined" && $0["participant"] == "A" }, "\(events)")
                    let joinedB = try #require(events.firstIndex { $0.kind == "joined" && $0["participant"] == "B" })
                    let suspended = try #require(events.firstIndex { $0.kind == "suspended" && $0["participant"] == "A" })
                    let held = try #require(events.firstIndex { $0.kind == "held" })
                    let released = try #require(events.firstIndex { $0.kind == "released" })
                    let waited = events.filter { $0.kind == "waited" }
                    #expect(joinedA < joinedB && joinedB < suspended && suspended < held && held < released, "\(kinds)")
                    #expect(waited.allSatisfy { $0["participant"] == "B" && $0.list("holders") == ["A"] }, "\(waited)")
                    // Each wait is for A's ad; how long of it B sat out depends on when B reached the break,
                    // which a loaded machine moves, so the rule is that each wait is real and ended by A.
                    for wait in waited {
                        let seconds = try #require(wait.number("seconds"))
                        #expect(seconds > 0, "\(wait)")
                    }
                    // Nobody was sent on with a catch-up: under wait there is nothing to catch up.
                    #expect(!events.contains { $0.kind == "caught-up" && ($0.number("primary") ?? 0) - ($0.number("from") ?? 0) > 0.5 }, "\(kinds)")
                    observer.close()
                }
            }
        }
    }

    /// The participant's estimate of the group clock, read between two readings of the host's own.
    static func expectClockAgrees(_ participant: DaemonProcess, host: DaemonProcess, group: String) async throws {
        let before = try #require((try await host.send("GET", "/groups/\(group)/clock").json as? [String: Any])?["sentAt"] as? Double)
        let info = try #require(try await participant.send("GET", "/playback-info").plist)
        let after = try #require((try await host.send("GET", "/groups/\(group)/clock").json as? [String: Any])?["receivedAt"] as? Double)
        let estimate = try #require(info["groupTime"] as? Double, "\(info)")
        let bound = try #require(info["groupClockBound"] as? Double)
        #expect(estimate >= before - bound - 0.01 && estimate <= after + bound + 0.01, "group time \(estimate) outside [\(before), \(after)] ± \(bound)")
    }

    @Test("A participant behind a link that delays 40 ms each way follows the group within the tolerance plus its measured clock bound")
    func delayedLink() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", Self.scale]) { host in
                try await withDaemon(["--profile", "smart-tv-low", "--port", "0", "--time-scale", Self.scale]) { other in
                    let proxy = try DelayingProxy(to: host.port, delaySeconds: 0.04)
                    defer { proxy.stop() }
                    let group = try await Self.create(host, ["contentID": "show", "startWith": 2, "policy": ["waitFor": ["playingInterstitial"]]])
                    let observer = try await GroupObserver.connect(port: host.port, group: group)
                    #expect(try await Self.join(host, media.playlist, host: host, group: group, participant: "A").status == 200)
                    let delayed = try await other.send("POST", "/play", json: ["url": media.plainPlaylist, "detached": true, "group": [
                        "url": "http://127.0.0.1:\(proxy.port)/groups/\(group)", "participant": "B", "contentID": "show",
                    ]])
                    #expect(delayed.status == 200, "\(delayed)")
                    // The wait is reported after the release, in the same batch of actions: wait for the report itself.
                    let events = try await observer.waitFor { $0.contains { $0.kind == "waited" && $0["participant"] == "B" } }
                    #expect(events.contains { $0.kind == "released" }, "\(events.map(\.kind))")
                    let wait = try #require(events.first { $0.kind == "waited" && $0["participant"] == "B" })
                    // How long depends on when B reached the break on a loaded machine; that it waited at all
                    // for A's ad, and was let go at A's release, is the rule.
                    #expect((wait.number("seconds") ?? 0) > 0, "\(wait)")
                    // Once B follows again, its receiver measures how far it is from the group.
                    var measured: (error: Double, bound: Double)?
                    for _ in 0..<200 where measured == nil {
                        let info = try #require(try await other.send("GET", "/playback-info").plist)
                        if let error = info["groupSyncError"] as? Double, let bound = info["groupClockBound"] as? Double { measured = (error, bound) }
                    }
                    let (error, bound) = try #require(measured, "B never reported a sync error")
                    try await Self.expectClockAgrees(other, host: host, group: group)
                    // 80 ms of round trip at --time-scale 4 is 0.32 s of group time: half of it bounds the clock.
                    #expect(bound >= 0.15 && bound < 1, "clock bound \(bound)")
                    #expect(abs(error) <= 0.5 + bound, "sync error \(error) against tolerance 0.5 + bound \(bound)")
                    observer.close()
                }
            }
        }
    }

    @Test("A legacy /scrub to a grouped receiver moves the whole group; one across a JUMP-restricted ad is refused there with 403 and moves nobody")
    func legacyScrubBecomesIntent() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "1"]) { host in
                try await withDaemon(["--profile", "smart-tv-high", "--port", "0", "--time-scale", "1"]) { other in
                    let group = try await Self.create(host, ["contentID": "show", "startWith": 2])
                    let observer = try await GroupObserver.connect(port: host.port, group: group)
                    #expect(try await Self.join(host, media.playlist, host: host, group: group, participant: "A").status == 200)
                    #expect(try await Self.join(other, media.plainPlaylist, host: host, group: group, participant: "B").status == 200)
                    _ = try await observer.waitFor { $0.contains { $0.kind == "timeline" && $0.timelineRate == 1 } }

                    // A is before its first ad (at 2 s, SKIP and JUMP): its own receiver refuses the jump past it.
                    let jump = try await host.send("POST", "/scrub?position=10")
                    #expect(jump.status == 403 && jump.headers["x-airlab-restriction"] == "JUMP", "\(jump)")
                    // B's sender seeks: the group moves, and both are sent there.
                    let seek = try await other.send("POST", "/scrub?position=1.5")
                    #expect(seek.status == 200, "\(seek)")
                    let events = try await observer.waitFor { events in
                        ["A", "B"].allSatisfy { name in events.contains { $0.kind == "command" && $0["to"] == name && $0.commandPrimary == 1.5 } }
                    }
                    #expect(!events.contains { $0.kind == "timeline" && $0.timelineAnchor == 10 }, "the refused jump moved the group")
                    #expect(try await host.send("POST", "/stop").status == 200)
                    #expect(try await other.send("POST", "/stop").status == 200)
                    observer.close()
                }
            }
        }
    }

    @Test("A participant whose daemon is killed mid-wait leaves the group, and the group it held is released")
    func killedHolderReleases() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", Self.scale]) { host in
                let scratch = try Scratch()
                defer { scratch.remove() }
                let doomed = try await DaemonProcess.start(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", Self.scale], in: scratch.url)
                defer { Task { await doomed.stop() } }
                let group = try await Self.create(host, ["contentID": "show", "startWith": 2, "policy": ["waitFor": ["playingInterstitial"]]])
                let observer = try await GroupObserver.connect(port: host.port, group: group)
                #expect(try await Self.join(host, media.plainPlaylist, host: host, group: group, participant: "B").status == 200)
                #expect(try await Self.join(doomed, media.playlist, host: host, group: group, participant: "A").status == 200)
                _ = try await observer.waitFor { $0.contains { $0.kind == "held" } }
                doomed.process.signal(SIGKILL)
                let events = try await observer.waitFor { $0.contains { $0.kind == "released" } }
                let left = try #require(events.firstIndex { $0.kind == "left" && $0["participant"] == "A" }, "\(events.map(\.kind))")
                let released = try #require(events.firstIndex { $0.kind == "released" })
                #expect(left < released)
                let summary = try #require(try await host.send("GET", "/groups/\(group)").json as? [String: Any])
                let members = summary["participants"] as? [[String: Any]] ?? []
                #expect(members.first { $0["name"] as? String == "A" }?["follow"] as? String == "left", "\(summary)")
                observer.close()
            }
        }
    }

    @Test("A receiver at another --time-scale, and a participant whose primary length differs, are refused with 409 and the reason")
    func refusals() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", Self.scale]) { host in
                try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "2"]) { slower in
                    let group = try await Self.create(host, ["contentID": "show", "startWith": 3])
                    #expect(try await Self.join(host, media.playlist, host: host, group: group, participant: "A").status == 200)

                    let scale = try await Self.join(slower, media.plainPlaylist, host: host, group: group, participant: "B")
                    #expect(scale.status == 409 && scale.text.contains("time scale") && scale.text.contains("--time-scale 2"), "\(scale)")

                    // The plain primary lasts 12 s; declaring its first 2 s an ad leaves 10 s of primary.
                    let length = try await Self.join(host, media.plainPlaylist, host: host, group: group, participant: "C", extra: ["stitched": "ranges:0+2"])
                    #expect(length.status == 409 && length.text.contains("group.primary-length-mismatch") && length.text.contains("'C'"), "\(length)")

                    let content = try await Self.join(host, media.plainPlaylist, host: host, group: group, participant: "D", extra: ["contentID": "other"])
                    #expect(content.status == 409 && content.text.contains("'other'"), "\(content)")

                    let missing = try await Self.join(host, media.plainPlaylist, host: host, group: "nope", participant: "E")
                    #expect(missing.status == 409 && missing.text.contains("nope"), "\(missing)")
                }
            }
        }
    }

    @Test("/groups refuses bad creations and inputs with 4xx naming the field, and lists, shows and deletes groups")
    func groupsEndpoint() async throws {
        try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", Self.scale]) { host in
            let bad = try await host.send("POST", "/groups", json: ["contentID": ""])
            #expect(bad.status == 400 && bad.text.contains("contentID"), "\(bad)")
            let badID = try await host.send("POST", "/groups", json: ["contentID": "x", "id": "a/b"])
            #expect(badID.status == 400 && badID.text.contains("a/b"), "\(badID)")
            let group = try await Self.create(host, ["id": "g7", "contentID": "movie-42"])
            let twice = try await host.send("POST", "/groups", json: ["contentID": "x", "id": "g7"])
            #expect(twice.status == 409, "\(twice)")

            let input = try await host.send("POST", "/groups/\(group)/inputs", json: ["participant": "A", "op": "begin", "reason": "playingInterstitial", "primary": 1e300])
            #expect(input.status == 400 && input.text.contains("primary"), "\(input)")
            let join = try await host.send("POST", "/groups/\(group)/inputs", json: ["participant": "A", "op": "join"])
            #expect(join.status == 200, "\(join)")
            let intent = try await host.send("POST", "/groups/\(group)/inputs", json: ["participant": "A", "op": "seek", "target": 30, "primary": 0])
            #expect(intent.status == 200, "\(intent)")

            let clock = try #require(try await host.send("GET", "/groups/\(group)/clock").json as? [String: Any])
            let received = try #require(clock["receivedAt"] as? Double)
            let sent = try #require(clock["sentAt"] as? Double)
            #expect(received <= sent)

            let shown = try #require(try await host.send("GET", "/groups/\(group)").json as? [String: Any])
            #expect(shown["contentID"] as? String == "movie-42" && (shown["position"] as? Double) == 30, "\(shown)")
            let listed = try #require(try await host.send("GET", "/groups").json as? [String: Any])
            #expect((listed["groups"] as? [[String: Any]])?.map { $0["id"] as? String } == ["g7"])
            #expect(try await host.send("DELETE", "/groups/\(group)").status == 200)
            #expect(try await host.send("GET", "/groups/\(group)").status == 404)
            #expect(try await host.send("GET", "/server-info").status == 200)
        }
    }
}

/// One event of a group's stream: its name and its JSON members.
struct GroupStreamEvent: Sendable, CustomStringConvertible {
    var kind: String
    var members: [String: String]
    var numbers: [String: Double]
    var lists: [String: [String]]
    /// A timeline event's rate and anchor; a command's primary position.
    var timelineRate: Double?
    var timelineAnchor: Double?
    var commandPrimary: Double?

    subscript(key: String) -> String? { members[key] }
    func number(_ key: String) -> Double? { numbers[key] }
    func list(_ key: String) -> [String] { lists[key] ?? [] }

    var description: String { "\(kind) \(members) \(numbers)" }
}

/// An observer on `GET /groups/ID/events`: every command and event of the group, kept in order.
final class GroupObserver: Sendable {
    let connection: HTTPTestConnection
    /// Bytes read and not yet taken apart as chunks, and the stream's text so far.
    private let received = Mutex<(raw: [UInt8], headEnded: Bool, text: String)>(([], false, ""))

    static func connect(port: UInt16, group: String) async throws -> GroupObserver {
        try await BlockingWork.run {
            let observer = GroupObserver(connection: try HTTPTestConnection(port: port))
            try observer.connection.socket.send("GET /groups/\(group)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            // The first event is the group as it stands: from then on nothing can be missed.
            while !observer.take(observer.connection.socket.read { !$0.isEmpty }).contains(where: { $0.kind == "group" }) {}
            return observer
        }
    }

    private init(connection: HTTPTestConnection) {
        self.connection = connection
    }

    /// Adds what was read and returns the events so far. The body is chunked, and a chunk may end in
    /// the middle of an event, so chunks are joined before the events are read.
    private func take(_ bytes: Data) -> [GroupStreamEvent] {
        received.withLock { state in
            state.raw += bytes
            if !state.headEnded {
                guard let end = Self.find([13, 10, 13, 10], in: state.raw, from: 0) else { return [] }
                state.raw.removeFirst(end + 4)
                state.headEnded = true
            }
            while let lineEnd = Self.find([13, 10], in: state.raw, from: 0),
                let size = Int(String(decoding: state.raw[..<lineEnd], as: UTF8.self), radix: 16),
                state.raw.count >= lineEnd + 2 + size + 2 {
                state.text += String(decoding: state.raw[(lineEnd + 2)..<(lineEnd + 2 + size)], as: UTF8.self)
                state.raw.removeFirst(lineEnd + 2 + size + 2)
            }
            return Self.parse(state.text)
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (start...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    /// Reads until the events so far satisfy `done` (or the socket's 20 s receive timeout ends the read),
    /// and returns them all.
    func waitFor(_ done: @escaping @Sendable ([GroupStreamEvent]) -> Bool) async throws -> [GroupStreamEvent] {
        try await BlockingWork.run { [self] in
            var events = take(Data())
            while !done(events) {
                let more = connection.socket.read { !$0.isEmpty }
                if more.isEmpty { break }
                events = take(more)
            }
            try #require(done(events), "the group's events never got there: \(events.map(\.kind))")
            return events
        }
    }

    func close() { connection.close() }

    /// The events of the stream's text, in order.
    static func parse(_ text: String) -> [GroupStreamEvent] {
        text.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.components(separatedBy: "\n")
            guard let name = lines.first(where: { $0.hasPrefix("event: ") })?.dropFirst(7),
                let data = lines.first(where: { $0.hasPrefix("data: ") })?.dropFirst(6),
                let object = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]
            else { return nil }
            var event = GroupStreamEvent(kind: String(name), members: [:], numbers: [:], lists: [:])
            let timeline = object["timeline"] as? [String: Any]
            event.timelineRate = timeline?["rate"] as? Double
            event.timelineAnchor = timeline?["anchorPrimary"] as? Double
            event.commandPrimary = (object["command"] as? [String: Any])?["primary"] as? Double
            for (key, value) in object {
                if let text = value as? String { event.members[key] = text }
                if let number = value as? Double { event.numbers[key] = number }
                if let list = value as? [String] { event.lists[key] = list }
            }
            return event
        }
    }
}
