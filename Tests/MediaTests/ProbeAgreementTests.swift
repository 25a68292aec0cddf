import Foundation
import Media
import TestSupport
import Testing

@Suite("Probing generated media")
struct ProbeAgreementTests {
    @Test("The probe of each generated clip agrees with ffprobe on every field, and knows what ffprobe knows", arguments: MediaRecipe.all)
    func agreesWithFFprobe(recipe: MediaRecipe) throws {
        let file = try TestMedia.file(recipe)
        try FFprobeAgreement.expect(try MediaProbe.probe(file.path).streams, agreeWith: file)
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
