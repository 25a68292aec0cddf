import Casting
import Foundation
import MediaValues
import TestSupport
import Testing

@Suite("Probing generated media")
struct ProbeAgreementTests {
    @Test("The probe of each generated clip agrees with ffprobe on every field, and knows what ffprobe knows", arguments: MediaRecipe.all)
    func agreesWithFFprobe(recipe: MediaRecipe) async throws {
        let file = try await TestMedia.file(recipe)
        try await FFprobeAgreement.expect(try await MediaProbe.patientProbe(file.path).streams, agreeWith: file)
    }

    @Test(
        "Codec string, dynamic range and bit depth follow from the encoded stream",
        arguments: [
            (MediaRecipe.baseline, "avc1.64001E", "SDR", 8),
            (.tenBit, "avc1.6E001E", "SDR", 10),
            (.mp4, "avc1.64001E", "SDR", 8),
            (.hevc, "hvc1.1.6.L90.90", "SDR", 8),
            (.hevcMP4, "hev1.1.6.L90.90", "SDR", 8),
            (.hevcSDR10, "hvc1.2.4.L90.90", "SDR", 10),
            (.hevcHLG, "hvc1.2.4.L90.90", "HLG", 10),
            (.hevcPQ, "hvc1.2.4.L90.90", "PQ", 10),
        ])
    func derivedVideoParameters(recipe: MediaRecipe, codecString: String, dynamicRange: String, bitDepth: Int) async throws {
        let media = try await MediaProbe.patientProbe(try await TestMedia.file(recipe).path)
        let video = try #require(media.video)
        #expect(video.codecString == codecString)
        #expect(video.dynamicRange?.description == dynamicRange)
        #expect(video.bitDepth == bitDepth)
        #expect(media.audio?.codecString == "mp4a.40.2")
    }

    @Test("Each clip served over HTTP by a real server probes the same as the file")
    func httpAgreesWithFile() async throws {
        try await TestMedia.withInputs(over: .http) { input in
            for recipe in MediaRecipe.all {
                let remote = try await MediaProbe.patientProbe(try await input(recipe))
                #expect(remote.probedURLs == [try await input(recipe)])
                #expect(remote.streams == (try await MediaProbe.patientProbe(try await TestMedia.file(recipe).path)).streams, "\(recipe)")
            }
        }
    }
}

@Suite("Probing Dolby Vision")
struct DolbyVisionTests {
    @Test(
        "A Dolby Vision configuration record is reported with its profile, compatibility and level, as ffprobe reads it",
        arguments: [
            (DolbyVisionFixture.Configuration(profile: 8, level: 4, compatibility: 1), "Dolby Vision profile 8.1 level 4"),
            (DolbyVisionFixture.Configuration(profile: 5, level: 6, compatibility: 0), "Dolby Vision profile 5 level 6"),
        ])
    func dolbyVision(configuration: DolbyVisionFixture.Configuration, expected: String) async throws {
        let file = try await DolbyVisionFixture.file(from: .hevcPQMP4, configuration)
        let media = try await MediaProbe.patientProbe(file.path)
        #expect(media.video?.dynamicRange?.description == expected)
        try await FFprobeAgreement.expect(media.streams, agreeWith: file)

        let data = try await FFprobeAgreement.ffprobe(["-select_streams", "v:0", "-show_streams", file.path])
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let sideData = ((object?["streams"] as? [[String: Any]])?.first?["side_data_list"] as? [[String: Any]]) ?? []
        let record = try #require(sideData.first { $0["side_data_type"] as? String == "DOVI configuration record" })
        #expect(record["dv_profile"] as? Int == Int(configuration.profile))
        #expect(record["dv_level"] as? Int == Int(configuration.level))
        #expect(record["dv_bl_signal_compatibility_id"] as? Int == Int(configuration.compatibility))
    }

    @Test("Dolby Vision against its own base layer without the record differs only in dynamic range")
    func againstBaseLayer() async throws {
        let dolby = try await DolbyVisionFixture.file(from: .hevcPQMP4, .init(profile: 8, level: 4, compatibility: 1))
        let comparison = MediaComparison(
            primary: try await MediaProbe.patientProbe(try await TestMedia.file(.hevcPQMP4).path), interstitial: try await MediaProbe.patientProbe(dolby.path))
        #expect(comparison.mismatches == [Mismatch(dimension: .dynamicRange, primary: "PQ", interstitial: "Dolby Vision profile 8.1 level 4")])
    }
}
