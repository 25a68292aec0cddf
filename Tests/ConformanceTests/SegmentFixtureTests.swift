import Casting
import Conformance
import Foundation
import HLS
import MediaValues
import Testing
import TestSupport

/// Surveys `input` and runs every check; returns the errors and warnings.
func findings(_ input: String, networkBandwidth: Double? = nil) async throws -> [SegmentDiagnostic] {
    let survey = try await SegmentSurvey().survey(input)
    return SegmentConformance.check(survey.renditions, context: .init(networkBandwidth: networkBandwidth)).filter { $0.severity != .info }
}

/// The codes of `diagnostics`, for an exact comparison.
func codes(_ diagnostics: [SegmentDiagnostic]) -> Set<String> {
    Set(diagnostics.map(\.code.rawValue))
}

func index(of fixture: SegmentFixture) async throws -> String {
    try await fixture.folder().appendingPathComponent("index.m3u8").path
}

@Suite("Per-segment checks on ffmpeg fixtures: each defect fires exactly its code")
struct SegmentFixtureTests {
    @Test("A clean TS stream gives no error and no warning")
    func cleanTransportStream() async throws {
        let found = try await findings(try await index(of: .clean))
        #expect(found.isEmpty, "\(found)")
    }

    @Test("A clean fMP4 stream gives no error and no warning, its IDR frames read through length prefixes")
    func cleanFragmented() async throws {
        let found = try await findings(try await index(of: .cleanFragmented))
        #expect(found.isEmpty, "\(found)")
    }

    @Test(
        "Each defect fixture fires its code and nothing else at error or warning level",
        arguments: [
            (SegmentFixture.noIDR, "SEG-IDR"), (.sparseIDR, "SEG-IDR-INTERVAL"), (.lyingEXTINF, "SEG-EXTINF"), (.shortTarget, "SEG-TARGET"),
            (.gap, "SEG-TS-GAP"), (.overlap, "SEG-TS-OVERLAP"), (.unmarkedDiscontinuity, "SEG-DISC-MISSING"),
            (.parameterChange, "SEG-PARAM-CHANGE"), (.audioLate, "SEG-AV-START"), (.continuityBreak, "SEG-TS-CC"),
            (.missingSegment, "SEG-HTTP"),
        ])
    func defect(_ fixture: SegmentFixture, code: String) async throws {
        let found = try await findings(try await index(of: fixture))
        #expect(codes(found) == [code], "\(fixture): \(found)")
    }

    @Test("Segments that start on a P frame are errors; an IDR every 2 s is within the interval rule")
    func missingIDRSeverity() async throws {
        let found = try await findings(try await index(of: .noIDR))
        #expect(!found.isEmpty && found.allSatisfy { $0.severity == .error && $0.measured == "non-idr" }, "\(found)")
        #expect(found.allSatisfy { $0.mediaSequence != 0 }, "the first segment starts with an IDR frame")
    }

    @Test("A lying EXTINF is a warning on its segment and an error for its run, and no timeline drift")
    func lyingEXTINFSeverities() async throws {
        let found = try await findings(try await index(of: .lyingEXTINF))
        #expect(found.filter { $0.severity == .warning }.map(\.mediaSequence) == [1])
        #expect(found.filter { $0.severity == .error }.count == 1)
    }

    @Test("Timestamps jumping back at a marked discontinuity are not reported")
    func markedDiscontinuity() async throws {
        let found = try await findings(try await index(of: .markedDiscontinuity))
        #expect(found.isEmpty, "\(found)")
    }

    @Test("Audio 200 ms late where the stream starts is an error (more than 100 ms at a splice)")
    func audioLateSeverity() async throws {
        let found = try await findings(try await index(of: .audioLate))
        #expect(found.map(\.severity) == [.error], "\(found)")
        #expect(found.first?.mediaSequence == 0)
    }

    @Test("A 25 fps ad inside 30 fps content is a frame-rate warning; a 30 fps ad is not")
    func adFrameRate() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cases: [(asset: SegmentFixture, expected: Set<String>)] = [(.asset25fps, ["SEG-FPS-CHANGE"]), (.asset30fps, [])]
        for (asset, expected) in cases {
            let playlist = try await writePrimary(with: asset, declaredDuration: 4, in: scratch)
            let found = try await findings(playlist)
            #expect(codes(found) == expected, "\(asset): \(found)")
            #expect(found.allSatisfy { $0.severity == .warning && $0.role == .asset(interstitial: "ad", index: 0) })
        }
    }

    @Test("An asset shorter than its declared DURATION by more than a frame is an asset-length warning")
    func assetLength() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let found = try await findings(try await writePrimary(with: .asset30fps, declaredDuration: 4.5, in: scratch))
        #expect(codes(found) == ["SEG-ASSET-LEN"], "\(found)")
        let close = try await findings(try await writePrimary(with: .asset30fps, declaredDuration: 4.02, in: scratch))
        #expect(close.isEmpty, "within one frame: \(close)")
    }

    @Test("A variant whose segments need twice its BANDWIDTH fails the bitrate check; honest numbers pass")
    func bitrate() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let clean = try await SegmentFixture.clean.folder()
        let sizes = try (0..<4).map { try Data(contentsOf: clean.appendingPathComponent("seg\($0).ts")).count }
        let peak = Double(sizes.max()!) * 8 / 2
        let average = Double(sizes.reduce(0, +)) * 8 / 8
        let cases: [(declared: Double, expected: Set<String>)] = [(peak / 2, ["SEG-BITRATE"]), (peak, [])]
        for (declared, expected) in cases {
            let master = try scratch.write("master-\(Int(declared)).m3u8", """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=\(Int(declared)),AVERAGE-BANDWIDTH=\(Int(average)),CODECS="avc1.64001e,mp4a.40.2"
                \(clean.appendingPathComponent("index.m3u8").absoluteString)

                """)
            let found = try await findings(master.path)
            #expect(codes(found) == expected, "BANDWIDTH \(Int(declared)): \(found)")
        }
    }

    @Test("Segments that need more than 95 % of the profile's bandwidth are a network-fit warning")
    func networkFit() async throws {
        let input = try await index(of: .clean)
        let found = try await findings(input, networkBandwidth: 100_000)
        #expect(codes(found) == ["SEG-NET-FIT"], "\(found)")
        #expect(try await findings(input, networkBandwidth: 100_000_000).isEmpty)
    }

    @Test("A variant with its audio in a rendition of its own is surveyed as two renditions, and audio is judged against video across them")
    func separateAudio() async throws {
        let video = try await TestMedia.hls(MediaRecipe.baseline("video-only") { $0.streams = .videoOnly }, .fragmentedMP4)
        let audio = try await TestMedia.hls(MediaRecipe.baseline("audio-only") { $0.streams = .audioOnly }, .fragmentedMP4)
        let scratch = try await TestMedia.stage(["video": video, "audio": audio])
        defer { scratch.remove() }
        let master = try scratch.write("master.m3u8", """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="audio/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=10000000,CODECS="avc1.64001e,mp4a.40.2",AUDIO="aac"
            video/index.m3u8

            """)
        let survey = try await SegmentSurvey().survey(master.path)
        #expect(survey.renditions.map(\.kind) == [.main, .audio])
        #expect(survey.renditions.allSatisfy { !$0.segments.isEmpty && $0.segments.allSatisfy { $0.facts != nil } })
        #expect(survey.renditions[1].segments.first?.facts?.video == nil)
        // Encoded apart, the video starts two frames late (x264's B-frame delay) and the audio does not:
        // the 67 ms a player meets at the start is just past the 60 ms warning, and nothing else fires.
        let found = SegmentConformance.check(survey.renditions).filter { $0.severity != .info }
        #expect(found.map(\.code.rawValue) == ["SEG-AV-START"] && found.first?.severity == .warning, "\(found)")
        #expect(found.first?.measured == "-67 ms" || found.first?.measured == "-66 ms", "\(found)")
    }

    @Test("Every asset of an asset list is surveyed under its own role and judged against the DURATION the list gives it")
    func assetList() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let clean = try await SegmentFixture.clean.folder()
        let fast = try await SegmentFixture.asset25fps.folder().appendingPathComponent("index.m3u8")
        let same = try await SegmentFixture.asset30fps.folder().appendingPathComponent("index.m3u8")
        let list = try scratch.write("break.json", """
            {"ASSETS": [{"URI": "\(fast.absoluteString)", "DURATION": 4}, {"URI": "\(same.absoluteString)", "DURATION": 5}]}
            """)
        let segments = (0..<4).map { "#EXTINF:2.000000,\n\(clean.appendingPathComponent("seg\($0).ts").absoluteString)" }
        let primary = try scratch.write("primary.m3u8", """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:2
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXT-X-DATERANGE:ID="break",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:02.000Z",X-ASSET-LIST="\(list.absoluteString)",X-RESUME-OFFSET=0
            \(segments.joined(separator: "\n"))
            #EXT-X-ENDLIST

            """)
        let survey = try await SegmentSurvey().survey(primary.path)
        #expect(survey.renditions.map(\.role) == [.primary, .asset(interstitial: "break", index: 0), .asset(interstitial: "break", index: 1)])
        #expect(survey.renditions.map(\.declaredDuration) == [nil, 4, 5])
        let found = SegmentConformance.check(survey.renditions).filter { $0.severity != .info }
        #expect(Set(found.map { "\($0.role) \($0.code.rawValue)" }) == ["break asset 1 SEG-FPS-CHANGE", "break asset 2 SEG-ASSET-LEN"], "\(found)")
    }

    /// A primary playlist over the clean segments with one interstitial at 2 s playing `asset`.
    private func writePrimary(with asset: SegmentFixture, declaredDuration: Double, in scratch: Scratch) async throws -> String {
        let clean = try await SegmentFixture.clean.folder()
        let assetURL = try await asset.folder().appendingPathComponent("index.m3u8")
        let segments = (0..<4).map { "#EXTINF:2.000000,\n\(clean.appendingPathComponent("seg\($0).ts").absoluteString)" }
        return try scratch.write("primary-\(asset.rawValue)-\(declaredDuration).m3u8", """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:2
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:02.000Z",DURATION=\(declaredDuration),X-ASSET-URI="\(assetURL.absoluteString)",X-RESUME-OFFSET=0
            \(segments.joined(separator: "\n"))
            #EXT-X-ENDLIST

            """).path
    }
}
