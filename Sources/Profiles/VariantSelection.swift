import HLS

/// The variant and renditions a receiver would play from a multivariant playlist.
public struct VariantSelection: Sendable {
    public var variant: Variant
    /// Position of the variant in the playlist.
    public var index: Int
    public var audio: Rendition?
    public var subtitles: Rendition?
}

/// Why a variant is not playable on a profile, for the failure report.
public struct VariantRejection: Sendable, Hashable {
    public var uri: String
    public var reason: String
}

public struct NoPlayableVariant: Error, Sendable, CustomStringConvertible {
    public var profile: String
    public var rejections: [VariantRejection]

    public var description: String {
        let reasons = rejections.map { "\($0.uri): \($0.reason)" }.joined(separator: "; ")
        return "\(profile) can play none of the playlist's variants (\(reasons))"
    }
}

extension ReceiverProfile {
    /// Picks what this receiver plays: the highest-bandwidth variant it can decode, with the audio and
    /// subtitle renditions that match the preferred language (else the group's default).
    ///
    /// A receiver without video (a soundbar) plays the lowest-bandwidth variant whose audio it decodes,
    /// since it discards the pictures anyway.
    public func selectVariant(
        from playlist: MultivariantPlaylist, preferredLanguage: String? = nil
    ) throws(NoPlayableVariant) -> VariantSelection {
        var rejections: [VariantRejection] = []
        var playable: [(index: Int, variant: Variant)] = []
        // One pass over the renditions for all variants: a playlist of 50,000 of each stays linear.
        let groups = playlist.renditionGroups
        for (index, variant) in playlist.variants.enumerated() {
            if let reason = rejection(of: variant, in: playlist, groups: groups) {
                rejections.append(VariantRejection(uri: variant.uri, reason: reason))
            } else {
                playable.append((index, variant))
            }
        }
        let ordered = playable.sorted { ($0.variant.bandwidth ?? 0) < ($1.variant.bandwidth ?? 0) }
        guard let chosen = video == nil ? ordered.first : ordered.last else {
            throw NoPlayableVariant(profile: name, rejections: rejections)
        }
        return VariantSelection(
            variant: chosen.variant, index: chosen.index,
            audio: playlist.selectedRendition(ofType: .audio, group: chosen.variant.audioGroup, preferredLanguage: preferredLanguage),
            subtitles: playlist.selectedRendition(
                ofType: .subtitles, group: chosen.variant.subtitlesGroup, preferredLanguage: preferredLanguage))
    }

    /// Why this receiver cannot play a variant, or nil when it can.
    ///
    /// - Parameter groups: the playlist's `renditionGroups`, when many variants are checked; nil looks
    ///   the variant's audio group up on its own.
    public func rejection(
        of variant: Variant, in playlist: MultivariantPlaylist, groups: [RenditionGroupKey: [Rendition]]? = nil
    ) -> String? {
        let declared = variant.codecs.compactMap(DeclaredCodec.init)
        let videoCodecs = declared.filter { $0.kind == .video }
        let audioCodecs = declared.filter { $0.kind == .audio }

        if let video {
            for codec in videoCodecs {
                guard let support = video.codecs.first(where: { $0.codec == codec.codecName }) else {
                    return "video codec \(codec.text) (\(codec.codecName)) is not decoded here"
                }
                if let level = codec.level, let maxLevel = support.maxLevel, level > maxLevel + 0.001 {
                    return "\(codec.text) needs level \(level), above this receiver's \(maxLevel)"
                }
                if let resolution = variant.resolution,
                    resolution.width > support.maxWidth || resolution.height > support.maxHeight
                {
                    return "resolution \(resolution) is above \(support.maxWidth)x\(support.maxHeight) for \(codec.codecName)"
                }
                if let frameRate = variant.frameRate, frameRate > support.maxFrameRate + 0.01 {
                    return "frame rate \(frameRate) is above \(support.maxFrameRate) for \(codec.codecName)"
                }
                if codec.isDolbyVision && !video.dynamicRanges.contains("DolbyVision") {
                    return "\(codec.text) is Dolby Vision, which this receiver does not show"
                }
            }
            let range = variant.videoRange ?? "SDR"
            if !videoCodecs.isEmpty, !video.dynamicRanges.contains(range) {
                return "video range \(range) is not shown here (\(video.dynamicRanges.joined(separator: ", ")))"
            }
        } else if audioCodecs.isEmpty && variant.audioGroup == nil {
            return "this receiver plays audio only and the variant declares no audio"
        }

        for codec in audioCodecs {
            guard let support = audio.codecs.first(where: { $0.codec == codec.codecName }) else {
                return "audio codec \(codec.text) (\(codec.codecName)) is not decoded here"
            }
            if let group = variant.audioGroup {
                let renditions = groups.map { $0[RenditionGroupKey(type: .audio, groupID: group)] ?? [] }
                    ?? playlist.renditions(ofType: .audio, group: group)
                let channels = renditions.compactMap { rendition in
                    rendition.channels.flatMap { Int($0.split(separator: "/").first ?? "") }
                }
                if let fewest = channels.min(), fewest > support.maxChannels {
                    return "audio group \(group) has no rendition with \(support.maxChannels) channels or fewer"
                }
            }
        }
        return nil
    }
}

extension MultivariantPlaylist {
    /// The rendition of `group` a player picks: the one in the preferred language, else DEFAULT=YES,
    /// else the first. The one rule for what plays and for what is probed (Casting's `ProbeTarget`).
    public func selectedRendition(ofType type: RenditionType, group: String?, preferredLanguage: String?) -> Rendition? {
        guard let group else { return nil }
        let candidates = renditions(ofType: type, group: group)
        return candidates.first { preferredLanguage != nil && $0.language == preferredLanguage }
            ?? candidates.first { $0.isDefault } ?? candidates.first
    }
}
