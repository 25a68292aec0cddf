import Casting
import Foundation
import MediaValues
import TestSupport
import Testing

@Suite("Comparing primary and interstitial media")
struct MediaComparisonTests {
    @Test(
        "Comparing two generated clips, from files or over HTTP, names exactly the dimensions that differ",
        arguments: [
            (MediaRecipe.baseline, MediaRecipe.baseline, [MediaDimension]()),
            (.baseline, .mp4, []),
            (.baseline, .hevc, [.videoCodec]),
            (.baseline, .fps25, [.frameRate]),
            (.baseline, .fps2997, [.frameRate]),
            (.fps25, .fps2997, [.frameRate]),
            (.baseline, .fourByThree, [.aspectRatio, .resolution]),
            (.baseline, .anamorphic, [.aspectRatio, .resolution]),
            (.baseline, .rate44100, [.sampleRate]),
            (.baseline, .surround, [.channelLayout]),
            (.alac16, .alac24, [.sampleResolution]),
            (.mp4, .alac16, [.audioCodec, .sampleResolution]),
            (.baseline, .tenBit, [.videoProfile, .bitDepth]),
            (.hevcSDR10, .hevcHLG, [.dynamicRange]),
            (.hevcSDR10, .hevcPQ, [.dynamicRange]),
            (.hevcHLG, .hevcPQ, [.dynamicRange]),
        ], TestMedia.Transport.allCases)
    func namesDifferingDimensions(pair: (MediaRecipe, MediaRecipe, [MediaDimension]), transport: TestMedia.Transport) async throws {
        let (primary, interstitial, expected) = pair
        try await TestMedia.withInputs(over: transport) { input in
            let comparison = MediaComparison(
                primary: try await MediaProbe.patientProbe(try await input(primary)), interstitial: try await MediaProbe.patientProbe(try await input(interstitial)))
            #expect(comparison.mismatches.map(\.dimension) == expected)
        }
    }

    @Test(
        "Each mismatch carries the primary's value and the interstitial's",
        arguments: [
            (MediaRecipe.fps2997, Mismatch(dimension: .frameRate, primary: "30/1", interstitial: "30000/1001")),
            (.hevc, Mismatch(dimension: .videoCodec, primary: "h264", interstitial: "hevc")),
            (.anamorphic, Mismatch(dimension: .aspectRatio, primary: "16:9", interstitial: "16:9 (SAR 4:3)")),
            (.fourByThree, Mismatch(dimension: .aspectRatio, primary: "16:9", interstitial: "4:3")),
            (.rate44100, Mismatch(dimension: .sampleRate, primary: "48000", interstitial: "44100")),
            (.surround, Mismatch(dimension: .channelLayout, primary: "stereo", interstitial: "5.1")),
            (.tenBit, Mismatch(dimension: .bitDepth, primary: "8-bit", interstitial: "10-bit")),
            (.alac24, Mismatch(dimension: .sampleResolution, primary: "fltp", interstitial: "24-bit")),
        ])
    func mismatchValues(interstitial: MediaRecipe, expected: Mismatch) async throws {
        let comparison = MediaComparison(
            primary: try await MediaProbe.patientProbe(try await TestMedia.file(.baseline).path),
            interstitial: try await MediaProbe.patientProbe(try await TestMedia.file(interstitial).path))
        #expect(comparison.mismatches.contains(expected), "\(comparison.mismatches)")
    }

    @Test("An interstitial without the primary's selected audio language is a mismatch; one that has it is not")
    func audioLanguageCoverage() {
        let primary = media(
            "primary", audio: "en",
            renditions: RenditionLanguages(audio: ["en", "fr"], subtitles: ["en"], selectedAudio: "en", selectedSubtitles: nil))
        let french = MediaComparison(primary: primary, interstitial: media("ad-fr", audio: "fra"))
        #expect(french.mismatches == [Mismatch(dimension: .audioLanguage, primary: "en", interstitial: "fra")])
        let english = MediaComparison(primary: primary, interstitial: media("ad-en", audio: "eng"))
        #expect(english.mismatches.isEmpty)
        let undeclared = MediaComparison(primary: primary, interstitial: media("ad-und", audio: "und"))
        #expect(undeclared.mismatches.isEmpty)
    }

    @Test("Subtitles shown by default must exist in the interstitial's subtitle languages")
    func subtitleLanguageCoverage() {
        let primary = media(
            "primary", audio: nil,
            renditions: RenditionLanguages(audio: [], subtitles: ["de", "en"], selectedAudio: nil, selectedSubtitles: "de"))
        let interstitial = media(
            "ad", audio: nil,
            renditions: RenditionLanguages(audio: [], subtitles: ["en"], selectedAudio: nil, selectedSubtitles: nil))
        #expect(
            MediaComparison(primary: primary, interstitial: interstitial).mismatches
                == [Mismatch(dimension: .subtitleLanguage, primary: "de", interstitial: "en")])
    }

    @Test("A side without an audio stream reports 'none' for every audio dimension")
    func missingStreamIsNone() {
        let comparison = MediaComparison(primary: media("primary", audio: "en"), interstitial: media("silent", audio: nil))
        #expect(comparison.mismatches.map(\.dimension) == [.audioCodec, .sampleRate, .sampleResolution, .channelLayout])
        #expect(comparison.mismatches.allSatisfy { $0.interstitial == "none" })
    }

    /// A video stream shared by all synthetic media here, and an AAC stream when `audio` is given.
    private func media(_ name: String, audio: String?, renditions: RenditionLanguages? = nil) -> MediaParameters {
        var video = StreamParameters(index: 0, codecType: "video")
        video.codecName = "h264"
        var streams = [video]
        if let audio {
            var stream = StreamParameters(index: 1, codecType: "audio")
            stream.codecName = "aac"
            stream.sampleRate = "48000"
            stream.sampleFmt = "fltp"
            stream.channelLayout = "stereo"
            stream.language = audio
            streams.append(stream)
        }
        return MediaParameters(input: name, probedURLs: [name], streams: streams, renditionLanguages: renditions)
    }
}
