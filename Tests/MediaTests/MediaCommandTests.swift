import Foundation
import TestSupport
import Testing

/// `airlab probe` and `airlab compare` run as a user runs them.
@Suite("The probe and compare commands")
struct MediaCommandTests {
    @Test("probe --json prints each stream under ffprobe's key names and value forms, leaving unknowns out")
    func probeJSON() async throws {
        let file = try await TestMedia.file(.baseline)
        let result = try await BlockingWork.airlab(["probe", file.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let streams = try #require(object["streams"] as? [[String: Any]])
        #expect(streams.count == 2)
        #expect(streams[0]["codec_name"] as? String == "h264")
        #expect(streams[0]["width"] as? Int == 320)
        #expect(streams[0]["r_frame_rate"] as? String == "30/1")
        #expect(streams[0]["codec_string"] as? String == "avc1.64001E")
        #expect(streams[0]["color_transfer"] == nil)
        #expect(streams[1]["sample_rate"] as? String == "48000")
        #expect(streams[1]["channel_layout"] as? String == "stereo")
        #expect((streams[1]["tags"] as? [String: String])?["language"] == "eng")
        #expect(streams[1]["r_frame_rate"] == nil)
        #expect(!result.stdout.contains("null"))
    }

    @Test("probe prints one key: value line per known field, grouped by stream")
    func probeText() async throws {
        let file = try await TestMedia.file(.surround)
        let result = try await BlockingWork.airlab(["probe", file.path])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "input: \(file.path)")
        #expect(lines.contains("stream 1: audio"))
        #expect(lines.contains("  channel_layout: 5.1"))
        #expect(lines.contains("  channels: 6"))
    }

    @Test("compare exits 0 when the media match and 1 when they differ, printing each difference")
    func compareStatus() async throws {
        let same = try await BlockingWork.airlab(["compare", try await TestMedia.file(.baseline).path, try await TestMedia.file(.mp4).path])
        #expect(same.status == 0)
        #expect(same.stdout.hasSuffix("match: no differences on any dimension\n"))

        let differ = try await BlockingWork.airlab(["compare", try await TestMedia.file(.baseline).path, try await TestMedia.file(.fps25).path])
        #expect(differ.status == 1)
        #expect(differ.stdout.hasSuffix("1 difference:\n  frame_rate: primary 30/1, interstitial 25/1\n"))
    }

    @Test("compare --json gives both sides' parameters and each mismatch with both values")
    func compareJSON() async throws {
        let result = try await BlockingWork.airlab(
            ["compare", "--json", try await TestMedia.file(.baseline).path, try await TestMedia.file(.rate44100).path])
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["primary", "interstitial", "mismatches"])
        #expect((object["primary"] as? [String: Any])?["streams"] != nil)
        let mismatches = try #require(object["mismatches"] as? [[String: String]])
        #expect(mismatches == [["dimension": "sample_rate", "primary": "48000", "interstitial": "44100"]])
    }

    @Test("compare reads both sides over HTTP from a real server as it reads files")
    func compareOverHTTP() async throws {
        let server = try await BlockingWork.server(serving: TestMedia.cacheDirectory)
        defer { server.stop() }
        let primary = server.url(try await TestMedia.file(.hevcSDR10).lastPathComponent).absoluteString
        let interstitial = server.url(try await TestMedia.file(.hevcPQ).lastPathComponent).absoluteString
        let result = try await BlockingWork.airlab(["compare", primary, interstitial])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("1 difference:\n  dynamic_range: primary SDR, interstitial PQ\n"))
    }

    @Test("An input that cannot be probed gets one line naming it and the reason, and exit status 2")
    func badInputs() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }
        let text = try scratch.write("notes.ts", "these are notes, not a transport stream\n").path
        let baseline = try Data(contentsOf: try await TestMedia.file(.baseline))
        let truncated = try scratch.write("truncated.ts", baseline.prefix(2_000)).path
        let missing = scratch.url.appendingPathComponent("missing.ts").path
        let emptyPlaylist = try scratch.write("empty.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-ENDLIST\n").path
        let notFound = server.url("_status/404").absoluteString
        let serverError = server.url("_status/500").absoluteString
        let hang = server.url("_hang").absoluteString
        let hangingPlaylist = server.url("_hang/master.m3u8").absoluteString
        let notAPlaylist = try scratch.write("notes.m3u8", "these are notes, not a playlist\n").path
        // The fuzzer's find: a 3.7 KB fMP4 whose trun declares 83 million samples (the regression input,
        // less the byte that picks its name), which once grew FFmpeg's index to 2.7 GB.
        let regression = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/regressions/segment-probe/trun-declares-83-million-samples")
        let hugeTable = try scratch.write("huge-table.mp4", Data(try Data(contentsOf: regression).dropFirst())).path

        let cases: [(input: String, reason: String)] = [
            (missing, "no such file"),
            (URL(fileURLWithPath: missing).absoluteString, "no such file"),
            (notFound, "the server answered HTTP 404 Not Found"),
            (serverError, "the server answered HTTP 5xx (server error)"),
            (hang, "no answer within 1 s (timed out)"),
            (hangingPlaylist, "no answer within 1 s (timed out)"),
            (scratch.url.path, "a directory, not a file"),
            (notAPlaylist, "not a usable playlist: The first line is not #EXTM3U, so the file is not an HLS playlist"),
            (text, "not a media segment or playlist (invalid data: an unknown format, or a truncated or damaged file)"),
            (hugeTable, "the file declares tables larger than FFmpeg may allocate at once (32 MiB): a damaged or hostile file (FFmpeg error -12)"),
            (truncated, "the parameters of stream 1 (audio) could not be read; the file may be truncated or damaged"),
            (emptyPlaylist, "the playlist has no segments"),
            ("rtmp://127.0.0.1/live", "unsupported URL scheme 'rtmp'; use a file path, file:, http: or https:"),
        ]
        for (input, reason) in cases {
            // A short timeout only where a server hangs: the others must not race a loaded machine's
            // clock (opening FFmpeg's libraries and demuxing come within the same timeout).
            let timeout = reason.hasPrefix("no answer within") ? "1" : "30"
            let result = try await BlockingWork.airlab(["probe", input, "--timeout", timeout])
            #expect(result.status == 2, "\(input)")
            #expect(result.stderr == "airlab probe: \(input): \(reason)\n")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("compare exits 2 and names the side that cannot be probed")
    func compareBadSide() async throws {
        let missing = "/nonexistent/airlab/interstitial.ts"
        let result = try await BlockingWork.airlab(["compare", try await TestMedia.file(.baseline).path, missing])
        #expect(result.status == 2)
        #expect(result.stderr == "airlab compare: \(missing): no such file\n")
    }

    @Test("probe --variant N probes that variant of a multivariant playlist")
    func probeVariant() async throws {
        let scratch = try await TestMedia.stage(["avc": try await TestMedia.hls(.baseline, .transportStream), "hevc": try await TestMedia.hls(.hevc, .fragmentedMP4)])
        defer { scratch.remove() }
        let master = try scratch.write("master.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2\navc/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1\nhevc/index.m3u8\n")
        let result = try await BlockingWork.airlab(["probe", master.path, "--variant", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["variant"] as? Int == 1)
        #expect(((object["streams"] as? [[String: Any]])?.first)?["codec_name"] as? String == "hevc")
    }

    @Test("A negative variant is a usage error")
    func negativeVariant() async throws {
        let result = try await BlockingWork.airlab(["probe", "master.m3u8", "--variant", "-1"])
        #expect(result.status == 2)
        #expect(result.stderr == "airlab probe: --variant must be a whole number from 0, not '-1' (see 'airlab probe --help')\n")
    }

    @Test("A timeout that is not a positive number is a usage error")
    func badTimeout() async throws {
        let notANumber = try await BlockingWork.airlab(["probe", "x.ts", "--timeout", "soon"])
        #expect(notANumber.status == 2 && notANumber.stderr.hasPrefix("airlab probe: --timeout expects SECONDS, not 'soon'"), "\(notANumber.stderr)")
        for value in ["0", "-1"] {
            let result = try await BlockingWork.airlab(["probe", "x.ts", "--timeout", value])
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("airlab probe: --timeout must be more than 0 and at most 86400 seconds, not '\(value)'"), "\(result.stderr)")
        }
    }
}
