import Foundation
import Synchronization
import TestSupport
import Testing

/// `airlabd`'s live console against the real daemon: its event stream, its bounds and its controls.
@Suite("airlabd's live console")
struct ConsoleDaemonTests {
    /// The console's port, from the line the daemon announces it with.
    static func consolePort(_ daemon: DaemonProcess) throws -> UInt16 {
        let stdout = try String(contentsOf: daemon.stdoutFile, encoding: .utf8)
        let line = try #require(stdout.split(separator: "\n").first { $0.hasPrefix("airlabd: console for the process on http://127.0.0.1:") })
        return try #require(UInt16(line.split(separator: ":").last?.split(separator: "/").first ?? ""))
    }

    /// A page's event stream, read after its snapshot.
    final class ConsoleStream: Sendable {
        let connection: HTTPTestConnection
        let snapshot: String
        /// Everything read after the snapshot: a later wait sees what an earlier one read past.
        private let read = Mutex(Data())

        static func open(port: UInt16) async throws -> ConsoleStream {
            try await BlockingWork.run {
                let connection = try HTTPTestConnection(port: port)
                try connection.socket.send("GET /console/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                let text = connection.socket.read { String(decoding: $0, as: UTF8.self).contains("event: snapshot\ndata: {") && $0.last == 10 }
                return ConsoleStream(connection: connection, snapshot: String(decoding: text, as: UTF8.self))
            }
        }

        private init(connection: HTTPTestConnection, snapshot: String) {
            self.connection = connection
            self.snapshot = snapshot
        }

        /// The tiles of every `tiles` event until one shows receiver `index` in `state`, in order.
        func tiles(until index: Int, isIn state: String) async throws -> [[String: Any]] {
            try await tiles { $0["index"] as? Int == index && $0["state"] as? String == state }
        }

        /// The tiles of every `tiles` event since the snapshot until one satisfies `done`, in order.
        func tiles(until done: @escaping @Sendable ([String: Any]) -> Bool) async throws -> [[String: Any]] {
            let earlier = read.withLock { $0 }
            let text = try await BlockingWork.run { [connection] in
                connection.socket.read { data in Self.tiles(in: String(decoding: earlier + data, as: UTF8.self)).contains(where: done) }
            }
            let all = read.withLock { read in
                read.append(text)
                return read
            }
            return Self.tiles(in: String(decoding: all, as: UTF8.self))
        }

        /// Every tile of the complete `tiles` events in `text` (the chunk sizes of the response lie on
        /// lines of their own, between events).
        static func tiles(in text: String) -> [[String: Any]] {
            text.components(separatedBy: "\n").flatMap { line -> [[String: Any]] in
                guard line.hasPrefix("data: ["), let tiles = (try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8))) as? [[String: Any]] else { return [] }
                return tiles
            }
        }

        func close() { connection.close() }
    }

    @Test("A page hears every tile, then a cast's tile going from primary to the ad with its restrictions and back, and the refusal of a seek")
    func liveTiles() async throws {
        try await CastFixture.with { media in
            try await withDaemon([
                "--profile", "smart-tv-low", "--profile", "apple-tv-4k", "--port", "0", "--metrics-address", "127.0.0.1:0", "--console-control",
                "--time-scale", "2",
            ]) { daemon in
                let port = try Self.consolePort(daemon)
                let stream = try await ConsoleStream.open(port: port)
                defer { stream.close() }
                #expect(stream.snapshot.contains("\"control\":true"))
                #expect(stream.snapshot.contains("\"profile\":\"smart-tv-low\"") && stream.snapshot.contains("\"profile\":\"apple-tv-4k\""))
                #expect(!stream.snapshot.contains(media.scratch.url.path))

                let second = daemon.receivers[1]
                let reply = try await HTTPTestClient.send(port: second.port, "POST", "/play", json: ["url": media.playlist, "detached": true])
                try #require(reply.status == 200, "POST /play: \(reply)")
                let playing = try await stream.tiles(until: 1, isIn: "playing-primary")
                #expect(playing.allSatisfy { $0["index"] as? Int == 1 })
                // A seek across the JUMP ad is refused through the receiver's own route, with its reason.
                let refused = try await HTTPTestClient.send(port: port, "POST", "/console/receivers/1/control?command=seek&position=11")
                #expect(refused.status == 403, "\(refused)")
                #expect(refused.text.contains("JUMP") || refused.text.contains("SKIP"), "\(refused)")

                // Picture in picture through the receiver's setProperty, and the tile shows it.
                let pip = try await HTTPTestClient.send(port: port, "POST", "/console/receivers/1/control?command=pip")
                #expect(pip.status == 200, "\(pip)")
                _ = try await stream.tiles { $0["index"] as? Int == 1 && $0["pictureInPicture"] as? Bool == true }
                #expect(try await HTTPTestClient.send(port: port, "POST", "/console/receivers/1/control?command=rewind").status == 400)

                let tiles = try await stream.tiles(until: 1, isIn: "ended")
                let states = tiles.compactMap { $0["state"] as? String }
                let ad = try #require(tiles.first { $0["state"] as? String == "playing-interstitial" })
                let interstitial = try #require(ad["interstitial"] as? [String: Any])
                #expect(interstitial["restrictions"] as? [String] == ["SKIP", "JUMP"])
                let firstAd = try #require(states.firstIndex(of: "playing-interstitial"))
                #expect(states[firstAd...].contains("playing-primary"))
                let last = try #require(tiles.last)
                let trail = last["trail"] as? [String] ?? []
                let primary = try #require(trail.firstIndex(of: "playing-primary"))
                let inAd = try #require(trail[primary...].firstIndex(of: "playing-interstitial"))
                #expect(trail[inAd...].contains("playing-primary"), "\(trail)")
                #expect(tiles.contains { ($0["lastRefusal"] as? [String: Any])?["restriction"] != nil })
            }
        }
    }

    @Test("The picture at the playhead: none before a cast, primary's, the ad's with other pixels, none for a segment that does not decode, and the daemon serves on")
    func pictures() async throws {
        try await CastFixture.with { media in
            // Primary's last segment (8-12 s) is not media at all.
            try Data(repeating: 0x47, count: 50_000).write(to: media.scratch.url.appendingPathComponent("primary/seg2.ts"))
            // The second ad is the same test pattern as primary: negated, its every pixel differs.
            let ad = media.scratch.url.appendingPathComponent("ad2/seg0.ts"), negated = media.scratch.url.appendingPathComponent("negated.ts")
            _ = try await BlockingWork.run {
                try Tool.run("ffmpeg", [
                    "-v", "error", "-y", "-nostdin", "-i", ad.path, "-vf", "negate", "-c:v", "libx265", "-x265-params", "log-level=error",
                    "-c:a", "copy", "-copyts", "-f", "mpegts", negated.path,
                ])
            }
            try FileManager.default.removeItem(at: ad)
            try FileManager.default.moveItem(at: negated, to: ad)
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--media", "realtime", "--time-scale", "1", "--console", "127.0.0.1:0"]) { daemon in
                let port = try Self.consolePort(daemon)
                let before = try await HTTPTestClient.send(port: port, "GET", "/console/frames/0.jpg")
                #expect(before.status == 404 && before.text.hasPrefix("no picture"), "\(before)")
                let unknown = try await HTTPTestClient.send(port: port, "GET", "/console/frames/1.jpg")
                #expect(unknown.status == 404 && unknown.text == "no picture: frames are /console/frames/N.jpg for a receiver N\n", "\(unknown)")

                let stream = try await ConsoleStream.open(port: port)
                defer { stream.close() }
                let reply = try await HTTPTestClient.send(port: daemon.port, "POST", "/play", json: ["url": media.playlist, "detached": true])
                try #require(reply.status == 200, "POST /play: \(reply)")
                _ = try await stream.tiles(until: 0, isIn: "playing-primary")
                let primary = try await HTTPTestClient.send(port: port, "GET", "/console/frames/0.jpg")
                #expect(primary.status == 200 && primary.headers["content-type"] == "image/jpeg", "\(primary)")

                _ = try await stream.tiles { tile in
                    tile["state"] as? String == "playing-interstitial" && (tile["interstitial"] as? [String: Any])?["eventID"] as? String == "ad-mismatching"
                }
                let ad = try await HTTPTestClient.send(port: port, "GET", "/console/frames/0.jpg")
                #expect(ad.status == 200, "\(ad)")
                // A receiver that fetches its segments shows what it holds ahead, sampled while a page watches.
                _ = try await stream.tiles { $0["bufferAhead"] is Double }
                #expect(try await Self.pixelDifference(primary.body, ad.body) > 64)

                _ = try await stream.tiles { $0["state"] as? String == "playing-primary" && ($0["position"] as? Double ?? 0) >= 8 }
                let broken = try await HTTPTestClient.send(port: port, "GET", "/console/frames/0.jpg")
                #expect(broken.status == 404 && broken.text.contains("could not be decoded"), "\(broken)")
                #expect(try await HTTPTestClient.send(port: port, "GET", "/console").status == 200)
                #expect(try await daemon.send("GET", "/playback-info").status == 200)

                // The switch into the negated ad, as the focus view shows it: primary's last picture and the ad's first.
                var sides: [HTTPReply] = []
                while sides.count < 2 {
                    let before = try await HTTPTestClient.send(port: port, "GET", "/console/receivers/0/before.jpg")
                    let after = try await HTTPTestClient.send(port: port, "GET", "/console/receivers/0/after.jpg")
                    if [before, after].allSatisfy({ $0.status == 200 && $0.headers["x-airlab-event"] == "ad-mismatching" }) {
                        sides = [before, after]
                    } else {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
                #expect(try await Self.pixelDifference(sides[0].body, sides[1].body) > 64)
            }
        }
    }

    @Test("The switch back to primary has its pictures too: the break's last and primary's first after it")
    func returnPictures() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--media", "verify", "--time-scale", "2", "--console", "127.0.0.1:0"]) { daemon in
                let port = try Self.consolePort(daemon)
                let stream = try await ConsoleStream.open(port: port)
                defer { stream.close() }
                let none = try await HTTPTestClient.send(port: port, "GET", "/console/receivers/0/return-before.jpg")
                #expect(none.status == 404 && none.text.contains("no switch back to primary"), "\(none)")
                let reply = try await HTTPTestClient.send(port: daemon.port, "POST", "/play", json: ["url": media.playlist, "detached": true])
                try #require(reply.status == 200, "POST /play: \(reply)")
                _ = try await stream.tiles(until: 0, isIn: "ended")
                // The pictures are made once primary is back; the session's end does not wait for them.
                var sides: [HTTPReply] = []
                while sides.count < 2 {
                    let before = try await HTTPTestClient.send(port: port, "GET", "/console/receivers/0/return-before.jpg")
                    let after = try await HTTPTestClient.send(port: port, "GET", "/console/receivers/0/return-after.jpg")
                    if [before, after].allSatisfy({ $0.status == 200 && $0.headers["x-airlab-event"] == "ad-mismatching" }) {
                        sides = [before, after]
                    } else {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
                #expect(sides.allSatisfy { $0.body.starts(with: [0xFF, 0xD8]) })
                // The ad's last picture and primary's are different pictures (another codec and size).
                #expect(try await Self.pixelDifference(sides[0].body, sides[1].body) > 0)
            }
        }
    }

    @Test("In --media probe, primary's picture comes from its playlist's segments, read on demand")
    func probePictures() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "smart-tv-high", "--port", "0", "--time-scale", "1", "--console", "127.0.0.1:0"]) { daemon in
                let port = try Self.consolePort(daemon)
                let stream = try await ConsoleStream.open(port: port)
                defer { stream.close() }
                let reply = try await HTTPTestClient.send(port: daemon.port, "POST", "/play", json: ["url": media.plainPlaylist, "detached": true])
                try #require(reply.status == 200, "POST /play: \(reply)")
                _ = try await stream.tiles(until: 0, isIn: "playing-primary")
                let picture = try await HTTPTestClient.send(port: port, "GET", "/console/frames/0.jpg")
                #expect(picture.status == 200 && picture.body.starts(with: [0xFF, 0xD8]), "\(picture)")
            }
        }
    }

    @Test("In --media probe, an ad's picture comes from its asset's playlist, read on demand")
    func probeAdPicture() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "1", "--console", "127.0.0.1:0"]) { daemon in
                let port = try Self.consolePort(daemon)
                let stream = try await ConsoleStream.open(port: port)
                defer { stream.close() }
                let reply = try await HTTPTestClient.send(port: daemon.port, "POST", "/play", json: ["url": media.playlist, "detached": true])
                try #require(reply.status == 200, "POST /play: \(reply)")
                _ = try await stream.tiles(until: 0, isIn: "playing-primary")
                let primary = try await HTTPTestClient.send(port: port, "GET", "/console/frames/0.jpg?focus")
                #expect(primary.status == 200 && primary.body.starts(with: [0xFF, 0xD8]), "\(primary)")
                _ = try await stream.tiles { tile in
                    tile["state"] as? String == "playing-interstitial" && (tile["interstitial"] as? [String: Any])?["eventID"] as? String == "ad-mismatching"
                }
                let ad = try await HTTPTestClient.send(port: port, "GET", "/console/frames/0.jpg?focus")
                #expect(ad.status == 200 && ad.body.starts(with: [0xFF, 0xD8]), "\(ad)")
                // The ad (HEVC, its own picture) is not primary's picture.
                #expect(ad.body != primary.body)
            }
        }
    }

    @Test("A participant of a watch-together group shows its group on its tile, and its sync error once it follows")
    func group() async throws {
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "2", "--console", "127.0.0.1:0"]) { daemon in
                let port = try Self.consolePort(daemon)
                let stream = try await ConsoleStream.open(port: port)
                defer { stream.close() }
                let group = try await GroupDaemonTests.create(daemon, ["id": "g1", "contentID": "show", "policy": ["waitFor": ["playingInterstitial"]]])
                let joined = try await GroupDaemonTests.join(daemon, media.playlist, host: daemon, group: group, participant: "A")
                #expect(joined.status == 200, "\(joined)")
                let tiles = try await stream.tiles { $0["group"] as? String == "g1" && $0["groupSyncError"] is Double }
                #expect(tiles.last?["session"] as? String != nil)
            }
        }
    }

    /// The mean difference of two pictures' grey levels (0-255), both scaled to 16×16 by ffmpeg.
    static func pixelDifference(_ first: Data, _ second: Data) async throws -> Double {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var greys: [[UInt8]] = []
        for (name, jpeg) in [("first", first), ("second", second)] {
            let file = scratch.url.appendingPathComponent("\(name).jpg"), raw = scratch.url.appendingPathComponent("\(name).gray")
            try jpeg.write(to: file)
            _ = try await BlockingWork.run {
                try Tool.run("ffmpeg", ["-v", "error", "-i", file.path, "-vf", "scale=16:16,format=gray", "-f", "rawvideo", "-y", raw.path])
            }
            greys.append(Array(try Data(contentsOf: raw)))
        }
        try #require(greys[0].count == 256 && greys[1].count == 256)
        return Double(zip(greys[0], greys[1]).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / 256
    }

    @Test("Read-only by default; a page past the bound is answered 503; bad receiver numbers are 404")
    func boundsAndReadOnly() async throws {
        try await withDaemon(["--profile", "smart-tv-low", "--port", "0", "--console", "127.0.0.1:0"]) { daemon in
            let port = try Self.consolePort(daemon)
            let stdout = try String(contentsOf: daemon.stdoutFile, encoding: .utf8)
            #expect(!stdout.contains("metrics for the process"))
            let page = try await HTTPTestClient.send(port: port, "GET", "/console")
            #expect(page.status == 200 && page.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(try await HTTPTestClient.send(port: port, "POST", "/console/receivers/0/control?command=pause").status == 403)
            #expect(try await HTTPTestClient.send(port: port, "GET", "/console/receivers/1/log").status == 404)
            #expect(try await HTTPTestClient.send(port: port, "GET", "/console/receivers/-1/timeline.svg").status == 404)
            var streams: [ConsoleStream] = []
            defer { streams.forEach { $0.close() } }
            for _ in 0..<16 { streams.append(try await ConsoleStream.open(port: port)) }
            #expect(try await HTTPTestClient.send(port: port, "GET", "/console/events").status == 503)
            #expect(try await HTTPTestClient.send(port: port, "GET", "/metrics").status == 200)
        }
    }

    @Test("With a password the console asks for it, and /metrics stays open")
    func password() async throws {
        try await withDaemon(["--profile", "smart-tv-low", "--port", "0", "--metrics-address", "127.0.0.1:0", "--password", "secret"]) { daemon in
            let port = try Self.consolePort(daemon)
            #expect(try await HTTPTestClient.send(port: port, "GET", "/console").status == 401)
            #expect(try await HTTPTestClient.send(port: port, "GET", "/metrics").status == 200)
        }
    }
}
