import MediaValues
@testable import Profiles
import Testing
import TestSupport

@Suite("Transition latency model")
struct TransitionModelTests {
    private let catalog = ProfileCatalog()

    private func model(_ name: String, seed: UInt64 = 1) throws -> TransitionModel {
        TransitionModel(profile: try catalog.profile(name), seed: seed)
    }

    @Test("Matching media costs only the splice and priming, on both paths")
    func matchingMediaCostsTheSplice() throws {
        let transition = try model("apple-tv-4k").transition("ad/in", from: ProbedMedia.make(), to: ProbedMedia.make())
        #expect(transition.video.map(\.cause) == ["splice"])
        #expect(transition.audio.map(\.cause) == ["splice"])
        #expect(transition.priming?.cause == "priming")
        // Apple TV preloads 10 s ahead: priming is hidden entirely.
        #expect(transition.priming?.milliseconds == 0)
    }

    @Test("Each differing dimension adds its cost on its path, naming both values; the slower path sets the total")
    func mismatchesAddCosts() throws {
        let transition = try model("smart-tv-high").transition("ad/in", from: ProbedMedia.make(), to: ProbedMedia.mismatchingAd)
        #expect(Set(transition.video.map(\.cause)) == ["splice", "video_codec", "frame_rate", "aspect_ratio", "resolution"])
        #expect(Set(transition.audio.map(\.cause)) == ["splice", "sample_rate", "channel_layout"])
        #expect(transition.video.first { $0.cause == "frame_rate" }?.detail == "30/1 -> 25/1")
        #expect(transition.video.first { $0.cause == "video_codec" }?.source.contains("CTA-WAVE") == true)
        let total = (transition.priming?.milliseconds ?? 0) + max(transition.videoMilliseconds, transition.audioMilliseconds)
        #expect(transition.totalMilliseconds == total)
        #expect(transition.videoMilliseconds > 1000, "a display mode switch alone is over a second on this TV")
    }

    @Test("A display that does not match frame rates pays nothing for a frame rate change")
    func frameRateMatchingOff() throws {
        let transition = try model("apple-tv-hd").transition("ad/in", from: ProbedMedia.make(), to: ProbedMedia.make(frameRate: "25/1"))
        #expect(transition.video.map(\.cause) == ["splice"])
    }

    @Test("An audio-only receiver pays nothing for video differences")
    func soundbarIgnoresVideo() throws {
        let transition = try model("soundbar").transition("ad/in", from: ProbedMedia.make(), to: ProbedMedia.mismatchingAd)
        #expect(transition.video.isEmpty)
        #expect(Set(transition.audio.map(\.cause)) == ["splice", "sample_rate", "channel_layout"])
    }

    @Test("The cast itself cannot be preloaded: its priming is two round trips and a segment's transfer")
    func startupPriming() throws {
        let transition = try model("smart-tv-low").transition("startup", from: nil, to: ProbedMedia.make(), preloaded: false)
        // 2 × 60 ms + 5 Mbit/s × 6 s at 20 Mbps = 1620 ms median, drawn with jitter.
        let priming = try #require(transition.priming?.milliseconds)
        #expect(priming > 800 && priming < 4000)
        #expect(transition.priming?.source.contains("60 ms") == true)
    }

    @Test("One seed gives one latency; another seed gives another")
    func seededDraws() throws {
        let first = try model("streaming-stick", seed: 7).transition("ad/in", from: ProbedMedia.make(), to: ProbedMedia.mismatchingAd)
        let again = try model("streaming-stick", seed: 7).transition("ad/in", from: ProbedMedia.make(), to: ProbedMedia.mismatchingAd)
        let other = try model("streaming-stick", seed: 8).transition("ad/in", from: ProbedMedia.make(), to: ProbedMedia.mismatchingAd)
        #expect(first == again)
        #expect(first.totalMilliseconds != other.totalMilliseconds)
    }
}

@Suite("What a receiver can decode")
struct DecodingTests {
    private let catalog = ProfileCatalog()

    @Test("The low-end TV stays on the codec it started with: an HEVC ad in an H.264 stream fails there")
    func staysOnStartCodec() throws {
        let failure = try catalog.profile("smart-tv-low").decodingFailure(of: ProbedMedia.mismatchingAd, startCodec: "h264")
        #expect(failure?.contains("stays on the codec it started with (h264) and cannot switch to hevc") == true)
    }

    @Test("The low-end TV refuses HDR and frame rates above 30; the Apple TV 4K plays them")
    func capabilityLimits() throws {
        let low = try catalog.profile("smart-tv-low")
        #expect(low.decodingFailure(of: ProbedMedia.make(range: .pq), startCodec: nil)?.contains("PQ video is not shown") == true)
        #expect(low.decodingFailure(of: ProbedMedia.make(frameRate: "60/1"), startCodec: nil)?.contains("60/1 fps is above") == true)
        #expect(try catalog.profile("apple-tv-4k").decodingFailure(of: ProbedMedia.make(codec: "hevc", frameRate: "60/1", range: .pq, bitDepth: 10), startCodec: "h264") == nil)
    }

    @Test("An audio codec the receiver lacks fails; a soundbar ignores video it cannot show")
    func audioAndAudioOnly() throws {
        #expect(try catalog.profile("smart-tv-low").decodingFailure(of: ProbedMedia.make(audio: "eac3"), startCodec: nil)?.contains("does not decode eac3 audio") == true)
        #expect(try catalog.profile("soundbar").decodingFailure(of: ProbedMedia.mismatchingAd, startCodec: "h264") == nil)
    }
}
