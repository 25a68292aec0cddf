import Foundation
import Media
import MediaValues
import Testing
import TestSupport

/// One stream's packets as `ffprobe -show_packets` reads them: the oracle for `SegmentAnalysis`.
struct ProbedPackets {
    var count = 0
    var firstPTS = Double.infinity
    var firstDTS: Double?
    var lastDTS = -Double.infinity
    var end = -Double.infinity

    /// max(PTS + duration) − min(PTS), the rule SegmentAnalysis follows.
    var duration: Double { end - firstPTS }

    static func read(_ file: URL, stream: String) async throws -> ProbedPackets {
        let output = try await BlockingWork.run {
            try Tool.run("ffprobe", [
                "-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time,dts_time,duration_time", "-of", "csv=p=0",
                file.path,
            ])
        }
        var packets = ProbedPackets()
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard fields.count >= 3, let pts = fields[0], let dts = fields[1] else { continue }
            packets.count += 1
            packets.firstPTS = min(packets.firstPTS, pts)
            if packets.firstDTS == nil { packets.firstDTS = dts }
            packets.lastDTS = max(packets.lastDTS, dts)
            packets.end = max(packets.end, pts + (fields[2] ?? 0))
        }
        return packets
    }
}

@Suite("Segment analysis: packets without decoding, checked against ffprobe")
struct SegmentAnalysisTests {
    private func analyse(_ files: [URL]) throws -> SegmentFacts {
        let bytes = try files.reduce(Data()) { $0 + (try Data(contentsOf: $1)) }
        return try SegmentAnalysis.facts(of: bytes, input: files.last!.path, timeout: 10)
    }

    @Test("Timestamps, packet counts and durations agree with ffprobe -show_packets on a TS segment")
    func agreesWithFFprobe() async throws {
        let file = try await SegmentFixture.clean.folder().appendingPathComponent("seg1.ts")
        let facts = try analyse([file])
        for (track, stream) in [(facts.video, "v"), (facts.audio, "a")] {
            let reference = try await ProbedPackets.read(file, stream: stream)
            let ours = try #require(track)
            #expect(ours.packetCount == reference.count, "\(stream) packets")
            #expect(abs(ours.firstPTS - reference.firstPTS) < 1e-5, "\(stream) first PTS")
            #expect(abs(ours.firstDTS - (reference.firstDTS ?? .nan)) < 1e-5, "\(stream) first DTS")
            #expect(abs(ours.lastDTS - reference.lastDTS) < 1e-5, "\(stream) last DTS \(ours) \(reference)")
            #expect(abs(ours.duration - reference.duration) < 1e-5, "\(stream) duration \(ours.duration) vs \(reference.duration)")
        }
        #expect(facts.firstVideoUnit == .idr)
        #expect(facts.idrTimes.count == 1)
        #expect(facts.adtsHeader == ADTSHeader(profile: 1, samplingFrequencyIndex: 3, channelConfiguration: 2))
        #expect(facts.transportStream?.breakCount == 0)
        #expect(facts.video?.frameRate.map { abs($0 - 30) < 0.01 } == true)
    }

    @Test("An fMP4 segment after its init section is read through avcC length prefixes: an IDR first, parameter sets from stsd")
    func fragmentedMP4() async throws {
        let folder = try await SegmentFixture.cleanFragmented.folder()
        let first = try analyse([folder.appendingPathComponent("init.mp4"), folder.appendingPathComponent("seg1.m4s")])
        let second = try analyse([folder.appendingPathComponent("init.mp4"), folder.appendingPathComponent("seg2.m4s")])
        #expect(first.firstVideoUnit == .idr)
        #expect(first.transportStream == nil)
        #expect(first.parameterSetHash != nil && first.parameterSetHash == second.parameterSetHash)
        #expect(abs((first.video?.duration ?? 0) - 2) < 1e-6)
        #expect(abs((second.video?.firstPTS ?? 0) - (first.video?.endPTS ?? 0)) < 1e-6, "segment 2 starts where 1 ends")
    }

    @Test("A segment that starts on a P frame is read as non-IDR, whatever FFmpeg's key flag says")
    func nonIDRStart() async throws {
        let facts = try analyse([try await SegmentFixture.noIDR.folder().appendingPathComponent("seg1.ts")])
        #expect(facts.firstVideoUnit == .nonIDR)
        #expect(facts.idrTimes.count == 1, "the IDR at 2 s inside the segment")
    }

    @Test("Bytes that are no media are refused with the input named")
    func notMedia() throws {
        #expect(throws: MediaError.self) { try SegmentAnalysis.facts(of: Data("not a segment".utf8), input: "x.ts", timeout: 5) }
    }
}
