import Foundation
import Testing
import TestSupport

@Suite("airlab playlist inspect, run as a user runs it")
struct PlaylistInspectCommandTests {
    /// A VOD primary of six 6-second segments with a pre-roll, a mid-roll at 20 s and a post-roll.
    static let primary = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:6
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
        #EXT-X-DATERANGE:ID="preroll",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:00.000Z",CUE="PRE,ONCE",X-ASSET-URI="ads/bumper.m3u8",DURATION=5,X-RESTRICT="SKIP,JUMP"
        #EXT-X-DATERANGE:ID="midroll-1",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:20.000Z",X-ASSET-LIST="ads/break.json",PLANNED-DURATION=30,X-RESUME-OFFSET=0,X-RESTRICT="SKIP",X-SNAP="OUT,IN",X-SKIP-CONTROL-OFFSET=5,X-SKIP-CONTROL-DURATION=10,X-SKIP-CONTROL-LABEL-ID="skip-ad",X-COM-EXAMPLE-AD-ID="1234",X-COM-EXAMPLE-SLOT=2
        #EXT-X-DATERANGE:ID="postroll",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:36.000Z",CUE="POST",X-ASSET-URI="https://ads.example.com/post.m3u8",DURATION=10,X-TIMELINE-OCCUPIES="RANGE",X-CONTENT-MAY-VARY="NO"
        #EXTINF:6.000,
        s0.ts
        #EXTINF:6.000,
        s1.ts
        #EXTINF:6.000,
        s2.ts
        #EXTINF:6.000,
        s3.ts
        #EXTINF:6.000,
        s4.ts
        #EXTINF:6.000,
        s5.ts
        #EXT-X-ENDLIST

        """

    static let multivariant = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio/en.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Deutsch",LANGUAGE="de",DEFAULT=NO,AUTOSELECT=YES,URI="audio/de.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=29.970,VIDEO-RANGE=SDR,AUDIO="aud"
        v720/prog.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=6000000,CODECS="hvc1.2.4.L123.B0,mp4a.40.2",RESOLUTION=1920x1080,FRAME-RATE=25,VIDEO-RANGE=PQ,AUDIO="aud"
        v1080/prog.m3u8

        """

    /// A VOD media playlist of segments of the given durations.
    static func vod(_ durations: [Double]) -> String {
        "#EXTM3U\n#EXT-X-TARGETDURATION:10\n" + durations.enumerated().map { "#EXTINF:\($1),\nseg\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
    }

    func inspect(_ arguments: [String]) async throws -> CommandResult {
        try await BlockingWork.airlab(["playlist", "inspect"] + arguments)
    }

    /// Runs `body` with `files` written to a scratch folder, removed afterwards.
    func withFiles<T>(_ files: [String: String], _ body: (Scratch) async throws -> T) async throws -> T {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for (name, text) in files { try scratch.write(name, text) }
        return try await body(scratch)
    }

    /// Runs `body` against a real HTTP server on 127.0.0.1 serving `files`; stops it and removes them afterwards.
    func withServer<T>(_ files: [String: String] = [:], _ body: (TestHTTPServer) async throws -> T) async throws -> T {
        try await withFiles(files) { scratch in
            let server = try await BlockingWork.server(serving: scratch.url)
            defer { server.stop() }
            return try await body(server)
        }
    }

    func json(_ result: CommandResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any])
    }

    func interstitial(_ id: String, in document: [String: Any]) throws -> [String: Any] {
        let interstitials = try #require(document["interstitials"] as? [[String: Any]])
        return try #require(interstitials.first { $0["id"] as? String == id })
    }

    @Test("The summary names the playlist's kind, its interstitials with their attributes, the schedule and its diagnostics")
    func textSummary() async throws {
        let result = try await withFiles(["show/media.m3u8": Self.primary]) { scratch in
            try await inspect([scratch.url.appendingPathComponent("show/media.m3u8").path])
        }
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let text = result.stdout
        #expect(text.hasPrefix("media playlist: "))
        #expect(text.contains("6 segments, duration 36 s, target duration 6 s, VOD"))
        for expected in ["preroll (line 6)", "midroll-1 (line 7)", "postroll (line 8)", "cue               PRE,ONCE", "asset list         ads/break.json",
                         "skip control       offset 5 s, duration 10 s, label skip-ad", "X-COM-EXAMPLE-AD-ID=\"1234\" X-COM-EXAMPLE-SLOT=2",
                         "schedule (seconds)", "ENTRY         EVENT      START", "interstitial  midroll-1"] {
            #expect(text.contains(expected), "missing: \(expected)")
        }
        // A relative X-ASSET-URI is legal but worth a warning, printed as `severity line code message`.
        #expect(text.contains("\n  warning  6  interstitial.relative-asset-uri  X-ASSET-URI \"ads/bumper.m3u8\""))
    }

    @Test("--json prints one document with every interstitial attribute, absent values as absent keys")
    func jsonInterstitials() async throws {
        let result = try await withFiles(["media.m3u8": Self.primary]) { scratch in
            try await inspect([scratch.url.appendingPathComponent("media.m3u8").path, "--json"])
        }
        #expect(result.status == 0)
        let document = try json(result)
        #expect(document["kind"] as? String == "media")
        #expect(document["segments"] as? Int == 6)
        #expect(document["duration"] as? Double == 36)
        #expect(document["targetDuration"] as? Double == 6)
        #expect(document["live"] as? Bool == false)
        #expect(document["variants"] == nil)
        #expect(!result.stdout.contains("null"))

        let preroll = try interstitial("preroll", in: document)
        #expect(preroll["start"] as? Double == 0)
        #expect(preroll["cue"] as? [String] == ["PRE", "ONCE"])
        #expect(preroll["restrictions"] as? [String] == ["SKIP", "JUMP"])
        #expect(preroll["assetURI"] as? String == "ads/bumper.m3u8")
        #expect(preroll["assetList"] == nil)
        #expect(preroll["resumeOffset"] == nil)
        #expect(preroll["duration"] as? Double == 5)
        #expect(preroll["durationSource"] as? String == "duration")
        #expect(preroll["durationIsEstimate"] as? Bool == false)

        let midroll = try interstitial("midroll-1", in: document)
        #expect(midroll["start"] as? Double == 20)
        #expect(midroll["cue"] as? [String] == [])
        #expect(midroll["snap"] as? [String] == ["OUT", "IN"])
        #expect(midroll["restrictions"] as? [String] == ["SKIP"])
        #expect(midroll["resumeOffset"] as? Double == 0)
        #expect(midroll["assetList"] as? String == "ads/break.json")
        #expect(midroll["durationSource"] as? String == "planned-duration")
        #expect(midroll["durationIsEstimate"] as? Bool == true)
        #expect(midroll["timelineOccupies"] as? String == "POINT")
        #expect(midroll["timelineStyle"] as? String == "HIGHLIGHT")
        #expect(midroll["contentMayVary"] as? Bool == true)
        let skip = try #require(midroll["skipControl"] as? [String: Any])
        #expect(skip["offset"] as? Double == 5)
        #expect(skip["duration"] as? Double == 10)
        #expect(skip["labelID"] as? String == "skip-ad")
        let client = try #require(midroll["clientAttributes"] as? [String: Any])
        #expect(client["X-COM-EXAMPLE-AD-ID"] as? String == "1234")
        #expect(client["X-COM-EXAMPLE-SLOT"] as? Double == 2)

        let postroll = try interstitial("postroll", in: document)
        #expect(postroll["cue"] as? [String] == ["POST"])
        #expect(postroll["timelineOccupies"] as? String == "RANGE")
        #expect(postroll["contentMayVary"] as? Bool == false)
        #expect(postroll["skipControl"] == nil)
    }

    @Test("--json lists the schedule as primary and interstitial entries on the primary and playout timelines")
    func jsonSchedule() async throws {
        let result = try await withFiles(["media.m3u8": Self.primary]) { scratch in
            try await inspect([scratch.url.appendingPathComponent("media.m3u8").path, "--json"])
        }
        let document = try json(result)
        let schedule = try #require(document["schedule"] as? [[String: Any]])
        let breaks = schedule.filter { $0["type"] as? String == "interstitial" }
        #expect(breaks.map { $0["eventID"] as? String } == ["preroll", "midroll-1", "postroll"])
        // Primary resumes after a pre-roll and a mid-roll; nothing resumes after a post-roll.
        #expect(breaks.map { $0["resumeAt"] is Double } == [true, true, false])
        let primary = schedule.filter { $0["type"] as? String == "primary" }
        #expect(!primary.isEmpty)
        #expect(primary.allSatisfy { $0["eventID"] == nil })
        for entry in schedule {
            for key in ["start", "end", "playoutStart", "playoutEnd"] {
                #expect(entry[key] is Double, "\(key) missing in \(entry)")
            }
        }
        let ends = schedule.compactMap { $0["playoutEnd"] as? Double }
        #expect(ends == ends.sorted())
        #expect(ends.last == document["playoutDuration"] as? Double)
    }

    @Test("--resolve learns durations from an asset list and an asset playlist served over HTTP")
    func resolveOverHTTP() async throws {
        try await withServer([
            // The post-roll's server refuses connections: its asset cannot load.
            "show/media.m3u8": Self.primary.replacingOccurrences(of: "https://ads.example.com/post.m3u8", with: "http://127.0.0.1:1/post.m3u8"),
            "show/ads/bumper.m3u8": Self.vod([4, 4]),
            "show/ads/break.json": #"{"ASSETS": [{"URI": "a.m3u8", "DURATION": 10}, {"URI": "b.m3u8", "DURATION": 15}]}"#,
            "show/ads/a.m3u8": Self.vod([10]), "show/ads/b.m3u8": Self.vod([15]),
        ]) { server in
            let result = try await inspect([server.url("show/media.m3u8").absoluteString, "--json", "--resolve", "--timeout", "2"])
            let document = try json(result)
            let preroll = try interstitial("preroll", in: document)
            #expect(preroll["durationSource"] as? String == "asset-playlist")
            #expect(preroll["duration"] as? Double == 8)
            #expect(preroll["assetDurations"] as? [Double] == [8])
            let midroll = try interstitial("midroll-1", in: document)
            #expect(midroll["durationSource"] as? String == "asset-list")
            #expect(midroll["duration"] as? Double == 25)
            #expect(midroll["assetDurations"] as? [Double] == [10, 15])
            #expect(midroll["durationIsEstimate"] as? Bool == false)
            // A break whose asset cannot load is cancelled, which is an error in the stream.
            let postroll = try interstitial("postroll", in: document)
            #expect(postroll["cancelled"] as? Bool == true)
            let codes = try #require(document["diagnostics"] as? [[String: Any]]).compactMap { $0["code"] as? String }
            #expect(codes.contains("asset.unloadable"))
            #expect(result.status == 1)
        }
    }

    @Test("--resolve on a local playlist reads its relative assets from local files")
    func resolveLocal() async throws {
        let result = try await withFiles([
            "media.m3u8": Self.primary.replacingOccurrences(of: "https://ads.example.com/post.m3u8", with: "ads/post.m3u8"),
            "ads/bumper.m3u8": Self.vod([3]), "ads/post.m3u8": Self.vod([9]),
            "ads/break.json": #"{"ASSETS": []}"#,
        ]) { scratch in
            try await inspect([scratch.url.appendingPathComponent("media.m3u8").path, "--json", "--resolve"])
        }
        #expect(result.status == 0, "\(result.stdout)")
        let document = try json(result)
        #expect(try interstitial("preroll", in: document)["duration"] as? Double == 3)
        #expect(try interstitial("postroll", in: document)["duration"] as? Double == 9)
        #expect(try interstitial("midroll-1", in: document)["assetDurations"] as? [Double] == [])
    }

    @Test("A multivariant playlist lists its variants and renditions and has no schedule")
    func multivariantPlaylist() async throws {
        let (text, jsonResult) = try await withFiles(["main.m3u8": Self.multivariant]) { scratch in
            let path = scratch.url.appendingPathComponent("main.m3u8").path
            return (try await inspect([path]), try await inspect([path, "--json"]))
        }
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("multivariant playlist: "))
        #expect(text.stdout.contains("2000000    avc1.64001f,mp4a.40.2"))
        #expect(text.stdout.contains("1280x720"))
        #expect(text.stdout.contains("AUDIO  aud    English  en        YES      YES"))
        let document = try json(jsonResult)
        #expect(document["kind"] as? String == "multivariant")
        #expect(document["schedule"] == nil)
        #expect(document["interstitials"] == nil)
        let variants = try #require(document["variants"] as? [[String: Any]])
        #expect(variants.count == 2)
        #expect(variants[1]["resolution"] as? String == "1920x1080")
        #expect(variants[1]["frameRate"] as? Double == 25)
        #expect(variants[1]["videoRange"] as? String == "PQ")
        #expect(variants[1]["codecs"] as? [String] == ["hvc1.2.4.L123.B0", "mp4a.40.2"])
        #expect(variants[0]["audio"] as? String == "aud")
        let renditions = try #require(document["renditions"] as? [[String: Any]])
        #expect(renditions.map { $0["language"] as? String } == ["en", "de"])
        #expect(renditions[0]["default"] as? Bool == true)
        #expect(renditions[1]["default"] as? Bool == false)
        #expect(renditions[1]["autoselect"] as? Bool == true)
    }

    @Test("A playlist with errors exits 1 and still prints its report")
    func errorsExitOne() async throws {
        let broken = Self.primary.replacingOccurrences(of: #"X-ASSET-URI="ads/bumper.m3u8""#, with: #"X-ASSET-URI="a.m3u8",X-ASSET-LIST="b.json""#)
        let result = try await withFiles(["media.m3u8": broken]) { scratch in
            try await inspect([scratch.url.appendingPathComponent("media.m3u8").path, "--json"])
        }
        #expect(result.status == 1)
        let diagnostics = try #require(try json(result)["diagnostics"] as? [[String: Any]])
        let error = try #require(diagnostics.first { $0["code"] as? String == "interstitial.both-assets" })
        #expect(error["severity"] as? String == "error")
        #expect(error["line"] as? Int == 6)
        #expect((error["message"] as? String)?.contains("preroll") == true)
    }

    @Test("An empty or binary file is a report with an error, not an I/O failure", arguments: [
        (Data(), "playlist.empty"), (Data([0x47, 0x40, 0x00, 0x10, 0x00, 0x00]), "playlist.binary"),
    ])
    func notAPlaylist(contents: Data, code: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("input.m3u8", contents)
        let result = try await inspect([file.path, "--json"])
        #expect(result.status == 1)
        let document = try json(result)
        #expect(document["kind"] == nil)
        #expect((document["diagnostics"] as? [[String: Any]])?.first?["code"] as? String == code)
    }

    @Test("A 200 MB file exits 2 as too large, without being read")
    func hugeFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.writeSparse("huge.m3u8", prefix: "#EXTM3U\n", size: 200_000_000)
        let result = try await inspect([file.path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "airlab playlist inspect: \(file.path): too large: 200000000 bytes, more than the 64 MiB allowed\n")
    }

    @Test("Usage errors exit 2 with one line on stderr and nothing on stdout", arguments: [
        [], ["a.m3u8", "--bogus"], ["a.m3u8", "--timeout", "soon"], ["a.m3u8", "--timeout", "0.5"], ["a.m3u8", "b.m3u8"],
    ])
    func usageErrors(arguments: [String]) async throws {
        let result = try await inspect(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("airlab playlist inspect: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("A URL that answers 404 exits 2 with the URL and the status on stderr")
    func notFoundURL() async throws {
        let (url, result) = try await withServer { server in
            let url = server.url("absent.m3u8").absoluteString
            return (url, try await inspect([url]))
        }
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "airlab playlist inspect: \(url): the server answered HTTP 404 (not found)\n")
    }

    @Test("A server that never answers exits 2 after --timeout seconds")
    func timeout() async throws {
        let result = try await withServer { server in try await inspect([server.url("_hang").absoluteString, "--timeout", "1"]) }
        #expect(result.status == 2)
        #expect(result.stderr.contains("timed out after 1 s"))
    }

    @Test("A missing file and an unsupported scheme exit 2, naming the input", arguments: ["/nonexistent/airlab/media.m3u8", "ftp://example.com/media.m3u8"])
    func unreadableInputs(argument: String) async throws {
        let result = try await inspect([argument])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("airlab playlist inspect: \(argument): "))
    }
}
