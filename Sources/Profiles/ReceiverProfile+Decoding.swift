import MediaValues

extension ReceiverProfile {
    /// Why this receiver cannot play probed media, or nil when it can.
    ///
    /// - Parameter startCodec: the video codec playback started with, for receivers that stay on it
    ///   (Apple's guidance: an HEVC ad inside an AVC stream is not playable on such a TV).
    public func decodingFailure(of media: MediaParameters, startCodec: String?) -> String? {
        if let stream = media.audio, let codec = stream.codecName {
            guard audio.codecs.contains(where: { $0.codec == codec }) else {
                return "\(displayName) does not decode \(codec) audio"
            }
        }
        guard let video, let stream = media.video, let codec = stream.codecName else {
            // An audio-only receiver ignores the pictures; media without video needs no video decoder.
            return nil
        }
        if switching.codecChange == .stayOnStartCodec, let startCodec, startCodec != codec {
            return "\(displayName) stays on the codec it started with (\(startCodec)) and cannot switch to \(codec)"
        }
        guard let support = video.codecs.first(where: { $0.codec == codec }) else {
            return "\(displayName) does not decode \(codec) video"
        }
        if let width = stream.width, let height = stream.height, width > support.maxWidth || height > support.maxHeight {
            return "\(width)x\(height) is above the \(support.maxWidth)x\(support.maxHeight) \(displayName) decodes in \(codec)"
        }
        if let rate = stream.rFrameRate.flatMap(Self.frameRate), rate > support.maxFrameRate + 0.01 {
            return "\(stream.rFrameRate!) fps is above the \(support.maxFrameRate) fps \(displayName) decodes in \(codec)"
        }
        if let depth = stream.bitDepth, let maximum = support.maxBitDepth, depth > maximum {
            return "\(depth)-bit video is above the \(maximum)-bit \(displayName) decodes in \(codec)"
        }
        if let profiles = support.profiles, let profile = stream.profile, !profiles.contains(profile) {
            return "\(codec) profile \(profile) is not one \(displayName) decodes (\(profiles.joined(separator: ", ")))"
        }
        let range = Self.rangeName(stream.dynamicRange)
        if !video.dynamicRanges.contains(range) {
            return "\(range) video is not shown by \(displayName) (\(video.dynamicRanges.joined(separator: ", ")))"
        }
        return nil
    }

    /// The profile's name for a dynamic range: SDR, HLG, PQ or DolbyVision.
    static func rangeName(_ range: DynamicRange?) -> String {
        switch range {
        case .pq: "PQ"
        case .hlg: "HLG"
        case .dolbyVision: "DolbyVision"
        case .sdr, nil: "SDR"
        }
    }

    /// "30000/1001" as frames per second.
    static func frameRate(_ text: String) -> Double? {
        let parts = text.split(separator: "/")
        guard let numerator = parts.first.flatMap({ Double($0) }) else { return nil }
        guard parts.count == 2 else { return numerator }
        guard let denominator = Double(parts[1]), denominator > 0 else { return nil }
        return numerator / denominator
    }
}

/// What a receiver plays of probed media.
public enum Rendering: Sendable, Hashable {
    case whole
    /// Its audio alone, over a black picture: the receiver cannot decode the video (why), and its
    /// profile declares the quirk of playing the audio anyway.
    case audioOnly(because: String, quirk: DeclaredQuirk)
    /// Nothing: why.
    case refused(String)
}

extension ReceiverProfile {
    /// What this receiver plays of `media`: `decodingFailure`'s answer, unless the failure is the
    /// video's alone and the profile declares `audioOnlyWhenUndecodable`.
    public func rendering(of media: MediaParameters, startCodec: String?) -> Rendering {
        guard let failure = decodingFailure(of: media, startCodec: startCodec) else { return .whole }
        guard let quirk = declared(.audioOnlyWhenUndecodable), media.video != nil else { return .refused(failure) }
        let audio = media.audioAlone
        guard audio.audio != nil, decodingFailure(of: audio, startCodec: startCodec) == nil else { return .refused(failure) }
        return .audioOnly(because: failure, quirk: quirk)
    }
}

extension MediaParameters {
    /// The media without its video streams: what a receiver that plays only the audio plays.
    public var audioAlone: MediaParameters {
        var audio = self
        audio.streams.removeAll(where: \.isVideo)
        return audio
    }
}
