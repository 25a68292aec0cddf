import Foundation
import MediaValues
import Testing
import TestSupport
@testable import Media

/// MPEG-TS segments of H.264/HEVC and AAC are read without FFmpeg's parsers (half the cost of
/// demuxing), trusting each PES packet to be one picture or whole ADTS frames, and read again with
/// the parsers when one is not.
@Suite("Segment analysis without FFmpeg's parsers")
struct ParserlessReadingTests {
    static func read(_ file: URL, parsing: Bool) throws -> SegmentFacts? {
        let bytes = try Data(contentsOf: file)
        return try SegmentAnalysis.read(
            bytes, input: file.path, options: SegmentAnalysis.options, deadline: ProbeDeadline(until: .now + .seconds(10), seconds: 10),
            parsing: parsing)
    }

    /// fMP4 is read with the parsers either way (only MPEG-TS goes without): its segments are left out.
    @Test("Every TS segment of every fixture gives the same facts read without the parsers as with them", arguments: SegmentFixture.allCases)
    func sameFactsAsTheParsers(_ fixture: SegmentFixture) async throws {
        let folder = try await fixture.folder()
        let segments = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "ts" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        for segment in segments {
            let parsed = try Self.read(segment, parsing: true)
            let unparsed = try Self.read(segment, parsing: false)
            #expect(parsed != nil && unparsed == parsed, "\(fixture.rawValue)/\(segment.lastPathComponent)")
        }
    }

    @Test("A PES packet of whole ADTS frames is counted frame by frame; a frame cut short or bytes that are no ADTS need the parser")
    func adtsFramesMustBeWhole() {
        // Two 9-byte frames: sync, AAC LC at 48 kHz stereo, frame_length 9.
        let frame: [UInt8] = [0xFF, 0xF1, 0x4C, 0x80, 0x01, 0x3F, 0xFC, 0xAA, 0xBB]
        func count(_ bytes: [UInt8]) -> Int? { bytes.withUnsafeBytes { SegmentAnalysis.adtsFrameCount($0) } }
        #expect(count(frame + frame) == 2)
        #expect(count(frame + frame.prefix(5)) == nil, "the second frame is cut")
        #expect(count(Array(frame.dropFirst(2))) == nil, "no sync word")
        #expect(count([]) == nil)
        var zeroLength = frame
        zeroLength[4] = 0
        zeroLength[5] = 0x1F
        #expect(count(zeroLength) == nil, "a frame_length below the header's size")
    }

    @Test("Pictures in an Annex B packet are counted by their first slices: two access units in one PES packet are two, a picture of two slices is one")
    func picturesAreCountedByFirstSlices() {
        let delimiter: [UInt8] = [0, 0, 0, 1, 0x09, 0xF0]
        let idrFirstSlice: [UInt8] = [0, 0, 1, 0x65, 0x88, 0x84, 0x00]
        let idrSecondSlice: [UInt8] = [0, 0, 1, 0x65, 0x08, 0x84, 0x00]
        let nextPicture: [UInt8] = [0, 0, 1, 0x41, 0x9A, 0x02, 0x00]
        var units = VideoUnits(annexB: .h264, countsPictures: true)
        var facts = SegmentFacts(byteCount: 0)
        let one = (delimiter + idrFirstSlice + idrSecondSlice).withUnsafeBytes { units.read($0, presentedAt: 0, into: &facts) }
        #expect(one == 1 && facts.firstVideoUnit == .idr)
        let two = (delimiter + idrFirstSlice + delimiter + nextPicture).withUnsafeBytes { units.read($0, presentedAt: 0.033, into: &facts) }
        #expect(two == 2)
    }
}
