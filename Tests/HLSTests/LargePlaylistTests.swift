import Foundation
import Testing
@testable import HLS
import TestSupport

/// Playlists as large as the attacks, generated here and parsed in process. These check what
/// the parse finds; how fast it is (linear, under 3 s and 1 GiB for the whole process) is measured by
/// `airlab-bench playlist-scale`, since a timing assertion here would fail on a busy machine.
@Suite("Very large playlists parse completely, with one diagnostic per problem", .ownThread)
struct LargePlaylistTests {
    @Test("50,000 variants and 50,000 renditions: every group resolves, one unknown group and one duplicate name are found")
    func manyVariantsAndRenditions() throws {
        let count = 50_000
        var text = "#EXTM3U\n"
        text.reserveCapacity(count * 160)
        for index in 0..<count {
            // Two renditions per audio group: 25,000 groups.
            text += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\(index / 2)\",NAME=\"n\(index % 2)\",LANGUAGE=\"en\",URI=\"a\(index).m3u8\"\n"
        }
        text += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a7\",NAME=\"n1\",URI=\"again.m3u8\"\n"
        for index in 0..<count {
            text += "#EXT-X-STREAM-INF:BANDWIDTH=\(1000 + index),CODECS=\"avc1.640028,mp4a.40.2\",RESOLUTION=1920x1080,AUDIO=\"a\(index / 2)\"\nv\(index).m3u8\n"
        }
        text += "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.640028\",AUDIO=\"nowhere\"\nlost.m3u8\n"

        let (playlist, diagnostics) = try multivariantPlaylist(text)
        #expect(playlist.variants.count == count + 1)
        #expect(playlist.renditions.count == count + 1)
        #expect(playlist.variants[count - 1].bandwidth == 1000 + count - 1)
        #expect(diagnostics.codes == ["rendition.duplicate-name", "variant.unknown-group"])
        #expect(diagnostics.first?.line == count + 2)
        #expect(diagnostics.last?.message.contains("'nowhere'") == true)
        let groups = playlist.renditionGroups
        #expect(groups.count == count / 2)
        #expect(groups[RenditionGroupKey(type: .audio, groupID: "a7")]?.map(\.uri) == ["a14.m3u8", "a15.m3u8", "again.m3u8"])
    }

    @Test("200,000 segments: every one is read, in order, with its position")
    func manySegments() throws {
        let count = 200_000
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        text.reserveCapacity(count * 20)
        for index in 0..<count { text += "#EXTINF:2,\n\(index).ts\n" }
        text += "#EXT-X-ENDLIST\n"
        let (playlist, diagnostics) = try mediaPlaylist(text)
        #expect(diagnostics.isEmpty)
        #expect(playlist.segments.count == count)
        #expect(playlist.duration == Double(2 * count))
        #expect(playlist.segments[count - 1].uri == "\(count - 1).ts")
        #expect(playlist.segments[count - 1].start == Double(2 * (count - 1)))
        #expect(playlist.segments[count - 1].line == 4 + 2 * (count - 1) + 1)
    }

    @Test("30,000 interstitials: every event is read with its attributes, in tag order")
    func manyInterstitials() throws {
        let count = 30_000
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n"
        text.reserveCapacity(count * 200)
        let start = ProgramDate.parse("2026-01-01T00:00:00Z")!
        for index in 0..<count {
            let date = ProgramDate.format(start.addingTimeInterval(Double(index) * 6))
            text += "#EXT-X-DATERANGE:ID=\"ad\(index)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(date)\",X-ASSET-URI=\"https://a.example/\(index).m3u8\",DURATION=5,X-RESUME-OFFSET=0\n"
        }
        for index in 0..<count { text += "#EXTINF:6,\n\(index).ts\n" }
        text += "#EXT-X-ENDLIST\n"
        let (playlist, diagnostics) = try mediaPlaylist(text)
        #expect(diagnostics.isEmpty)
        let reading = playlist.interstitialEvents()
        #expect(reading.diagnostics.isEmpty)
        #expect(reading.events.count == count)
        #expect(reading.events.map(\.id) == (0..<count).map { "ad\($0)" })
        #expect(reading.events.allSatisfy { $0.duration == 5 && $0.resumeOffset == 0 })
        let timeline = PrimaryTimeline(playlist)
        // Dates count from 2001 in a Double, so a position through a date is exact to microseconds, not bits.
        #expect(abs(try #require(timeline.position(of: start.addingTimeInterval(6 * 29_999))) - 6 * 29_999) < 0.000_001)
        #expect(abs(try #require(timeline.date(at: 6 * 29_999 + 1)).timeIntervalSince(start) - (6 * 29_999 + 1)) < 0.000_001)
    }

    @Test("A delta update that removes 5,000 of 10,000 remembered date ranges keeps the other 5,000, each found by ID")
    func manyRemovedDateRanges() throws {
        let count = 10_000
        var full = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n"
        for index in 0..<count { full += "#EXT-X-DATERANGE:ID=\"d\(index)\",START-DATE=\"2026-01-01T00:00:00Z\"\n" }
        full += "#EXTINF:6,\n0.ts\n"
        let removed = (0..<count).filter { $0 % 2 == 0 }.map { "d\($0)" }.joined(separator: "\t")
        let delta = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-SKIP:SKIPPED-SEGMENTS=1,RECENTLY-REMOVED-DATERANGES=\"\(removed)\"\n"
            + "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:06Z\n#EXTINF:6,\n1.ts\n"
        var catalog = DateRangeCatalog()
        _ = catalog.merge(try mediaPlaylist(full).0)
        #expect(catalog.dateRanges.count == count)
        _ = catalog.merge(try mediaPlaylist(delta).0)
        #expect(catalog.dateRanges.map(\.id) == (0..<count).filter { $0 % 2 == 1 }.map { "d\($0)" })
        #expect(catalog["d9999"]?.id == "d9999")
        #expect(catalog["d0"] == nil)
    }
}
