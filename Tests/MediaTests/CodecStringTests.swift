import TestSupport
import Testing
@testable import MediaValues

@Suite("RFC 6381 codec strings")
struct CodecStringTests {
    /// Inserts emulation prevention bytes as an encoder does: 0x03 after two zeros before a byte <= 3.
    private func escaped(_ rbsp: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var zeros = 0
        for byte in rbsp {
            if zeros >= 2, byte <= 3 {
                result.append(3)
                zeros = 0
            }
            result.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return result
    }

    @Test("HEVC from an Annex B SPS whose profile_tier_level carries emulation prevention bytes")
    func hevcFromEscapedSPS() {
        // sps_video_parameter_set_id 0, one sub-layer, then profile_tier_level: Main, compatible with
        // Main and Main 10, progressive and frame-only, level 3.1 (93), then the rest of the SPS.
        let rbsp: [UInt8] = [0x01, 0x01, 0x60, 0x00, 0x00, 0x00, 0x90, 0x00, 0x00, 0x00, 0x00, 0x00, 93, 0xA0]
        let annexB: [UInt8] = [0, 0, 0, 1, 0x40, 0x01, 0x0C] + [0, 0, 0, 1, 0x42, 0x01] + escaped(rbsp)
        #expect(escaped(rbsp).count > rbsp.count)
        #expect(NALUnits.removingEmulationPrevention(escaped(rbsp)) == rbsp)
        #expect(CodecString.hevc(extradata: annexB, sampleEntry: "hvc1") == "hvc1.1.6.L93.90")
    }

    @Test("HEVC from an hvcC record: profile space, high tier and every non-zero constraint byte are kept")
    func hevcFromRecord() {
        // configurationVersion 1, space 0, high tier, Main 10; compatibility flag 2; constraints B0 00 01.
        var record: [UInt8] = [1, 0x22, 0x20, 0, 0, 0, 0xB0, 0x00, 0x01, 0, 0, 0, 153]
        record += [UInt8](repeating: 0, count: 10)
        #expect(CodecString.hevc(extradata: record, sampleEntry: "hev1") == "hev1.2.4.H153.B0.0.1")
    }

    @Test("H.264 from an Annex B SPS after a four-byte start code, and from an avcC record")
    func avc() {
        #expect(CodecString.avc(extradata: [0, 0, 0, 1, 0x67, 0x64, 0x00, 0x28, 0xAC]) == "avc1.640028")
        #expect(CodecString.avc(extradata: [1, 0x42, 0xC0, 0x1E, 0xFF, 0xE1]) == "avc1.42C01E")
    }

    @Test("AAC from FFmpeg's profile, else from the AudioSpecificConfig's object type")
    func aac() {
        #expect(CodecString.aac(profile: 1, extradata: []) == "mp4a.40.2")
        #expect(CodecString.aac(profile: 4, extradata: []) == "mp4a.40.5")
        #expect(CodecString.aac(profile: -99, extradata: [0x29, 0x90]) == "mp4a.40.5")
        #expect(CodecString.make(codecName: "eac3", profile: -99, level: -99, extradata: [], codecTag: 0) == "ec-3")
    }

    @Test("Compatibility flags are written least significant bit first")
    func bitReversal() {
        #expect(UInt32(0x6000_0000).bitReversed == 6)
        #expect(UInt32(1).bitReversed == 0x8000_0000)
    }
}
