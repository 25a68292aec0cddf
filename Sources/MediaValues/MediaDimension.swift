/// A property of media that, when it changes at a transition, can stall or re-initialise a receiver.
///
/// Declared in report order: the seven Apple's AirPlay guidance names first, then the ones airlab adds.
public enum MediaDimension: String, Sendable, Hashable, CaseIterable, Codable {
    case videoCodec = "video_codec"
    case frameRate = "frame_rate"
    case aspectRatio = "aspect_ratio"
    case audioCodec = "audio_codec"
    case sampleRate = "sample_rate"
    case sampleResolution = "sample_resolution"
    case channelLayout = "channel_layout"
    case resolution
    case dynamicRange = "dynamic_range"
    case videoProfile = "video_profile"
    case audioProfile = "audio_profile"
    case bitDepth = "bit_depth"
    case audioLanguage = "audio_language"
    case subtitleLanguage = "subtitle_language"

    /// This dimension's value for one side, as reported; "none" when the side lacks the stream.
    ///
    /// `MediaComparison` compares profiles only within one codec, and languages by coverage (is the
    /// primary's language among the interstitial's?) rather than by equality of these lists.
    func value(of media: MediaParameters) -> String {
        let video = media.video
        let audio = media.audio
        let none = "none"
        switch self {
        case .videoCodec: return video.map { $0.codecName ?? "unknown" } ?? none
        case .frameRate: return video.map { $0.rFrameRate ?? "unknown" } ?? none
        case .aspectRatio: return video.map(\.aspectRatioDescription) ?? none
        case .audioCodec: return audio.map { $0.codecName ?? "unknown" } ?? none
        case .sampleRate: return audio.map { $0.sampleRate ?? "unknown" } ?? none
        case .sampleResolution: return audio.map(\.sampleResolutionDescription) ?? none
        case .channelLayout: return audio.map { $0.channelLayout ?? $0.channels.map { "\($0) channels" } ?? "unknown" } ?? none
        case .resolution: return video.map { "\($0.width ?? 0)x\($0.height ?? 0)" } ?? none
        case .dynamicRange: return video.map { $0.dynamicRange?.description ?? "unknown" } ?? none
        case .videoProfile: return video.map(\.profileDescription) ?? none
        case .audioProfile: return audio.map(\.profileDescription) ?? none
        case .bitDepth: return video.map { $0.bitDepth.map { "\($0)-bit" } ?? "unknown" } ?? none
        case .audioLanguage: return media.audioLanguages.joined(separator: ", ")
        case .subtitleLanguage: return media.subtitleLanguages.joined(separator: ", ")
        }
    }
}

extension StreamParameters {
    /// The display aspect ratio, with the sample aspect ratio when pixels are not square: an
    /// anamorphic stream with the same display shape still changes the scaler's set-up.
    var aspectRatioDescription: String {
        guard let display = displayAspectRatio else { return "unknown" }
        guard let sample = sampleAspectRatio, sample != "1:1" else { return display }
        return "\(display) (SAR \(sample))"
    }

    /// Bits per sample when the codec states them; otherwise the decoder's sample format, which is
    /// what a lossy codec's resolution amounts to at the output.
    var sampleResolutionDescription: String {
        if let bits = bitsPerRawSample { return "\(bits)-bit" }
        return sampleFmt ?? "unknown"
    }

    var profileDescription: String {
        let name = profile ?? "unknown profile"
        guard let level else { return name }
        return "\(name), level \(level)"
    }
}
