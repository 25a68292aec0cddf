import MediaValues

/// Probe results made by hand, as the media of a stream and its ads would probe.
public enum ProbedMedia {
    public static func make(
        codec: String = "h264", profile: String = "High", width: Int = 1920, height: Int = 1080, frameRate: String = "30/1",
        range: DynamicRange = .sdr, bitDepth: Int = 8, audio: String = "aac", sampleRate: String = "48000",
        layout: String = "stereo", channels: Int = 2, video: Bool = true
    ) -> MediaParameters {
        var streams: [StreamParameters] = []
        if video {
            var stream = StreamParameters(index: 0, codecType: "video")
            stream.codecName = codec
            stream.profile = profile
            stream.width = width
            stream.height = height
            stream.rFrameRate = frameRate
            stream.displayAspectRatio = width * 9 == height * 16 ? "16:9" : "4:3"
            stream.sampleAspectRatio = "1:1"
            stream.dynamicRange = range
            stream.bitDepth = bitDepth
            streams.append(stream)
        }
        var sound = StreamParameters(index: streams.count, codecType: "audio")
        sound.codecName = audio
        sound.profile = "LC"
        sound.sampleRate = sampleRate
        sound.channelLayout = layout
        sound.channels = channels
        sound.sampleFmt = "fltp"
        streams.append(sound)
        return MediaParameters(input: "test", probedURLs: [], streams: streams)
    }

    /// The mismatching ad of the issue: HEVC, 25 fps, 4:3, 44.1 kHz 5.1.
    public static let mismatchingAd = make(codec: "hevc", profile: "Main", width: 1440, height: 1080, frameRate: "25/1", sampleRate: "44100", layout: "5.1", channels: 6)
}
