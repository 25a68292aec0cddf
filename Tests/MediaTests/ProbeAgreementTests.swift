import Foundation
import Media
import TestSupport
import Testing

@Suite("Probing generated media")
struct ProbeAgreementTests {
    /// Every ffprobe key airlab reports; airlab's own additions are checked separately.
    static let ffprobeKeys = [
        "index", "codec_name", "profile", "codec_type", "width", "height", "sample_aspect_ratio",
        "display_aspect_ratio", "pix_fmt", "level", "color_range", "color_space", "color_transfer",
        "color_primaries", "sample_fmt", "sample_rate", "channels", "channel_layout", "r_frame_rate",
        "avg_frame_rate", "bits_per_raw_sample", "tags.language",
    ]
    /// What ffprobe prints for a value it does not know; airlab leaves such keys out.
    static let unknownValues: Set = ["0/0", "unknown", "N/A", "-99"]

    @Test("The probe of each generated clip agrees with ffprobe on every field, and knows what ffprobe knows", arguments: MediaRecipe.all)
    func agreesWithFFprobe(recipe: MediaRecipe) throws {
        let file = try TestMedia.file(recipe)
        let media = try MediaProbe.probe(file.path)
        let reference = try Tool.ffprobeStreams(file)

        #expect(media.streams.count == reference.count)
        for (ours, theirs) in zip(media.streams, reference) {
            let fields = Dictionary(uniqueKeysWithValues: ours.fields.map { ($0.key, $0.value.description) })
            for key in Self.ffprobeKeys {
                let expected = theirs[key].flatMap { Self.unknownValues.contains($0) ? nil : $0 }
                #expect(fields[key] == expected, "stream \(ours.index), \(key)")
            }
        }
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
    func derivedVideoParameters(recipe: MediaRecipe, codecString: String, dynamicRange: String, bitDepth: Int) throws {
        let media = try MediaProbe.probe(try TestMedia.file(recipe).path)
        let video = try #require(media.video)
        #expect(video.codecString == codecString)
        #expect(video.dynamicRange?.description == dynamicRange)
        #expect(video.bitDepth == bitDepth)
        #expect(media.audio?.codecString == "mp4a.40.2")
    }

    @Test("A clip served over HTTP probes the same as the file")
    func httpAgreesWithFile() throws {
        let server = try TestHTTPServer(serving: TestMedia.cacheDirectory)
        defer { server.stop() }
        for recipe in [MediaRecipe.baseline, .hevcMP4] {
            let file = try TestMedia.file(recipe)
            let remote = try MediaProbe.probe(server.url(recipe.fileName).absoluteString)
            #expect(remote.streams == (try MediaProbe.probe(file.path)).streams, "\(recipe)")
        }
    }
}
