/// Everything airlab learned about one asset: its streams and, from a multivariant playlist, the
/// languages its renditions offer.
public struct MediaParameters: Sendable, Hashable {
    /// The input as the caller named it.
    public var input: String
    /// What was actually opened: the segment, preceded by its init section when it has one.
    public var probedURLs: [String]
    /// The variant probed, when the input is a multivariant playlist.
    public var variant: Int?
    public var streams: [StreamParameters]
    /// Languages of the variant's audio and subtitle renditions; nil when the input declares none
    /// (a segment or media playlist). Where it names no language, stream language tags stand in.
    public var renditionLanguages: RenditionLanguages?

    public init(
        input: String, probedURLs: [String], variant: Int? = nil, streams: [StreamParameters],
        renditionLanguages: RenditionLanguages? = nil
    ) {
        self.input = input
        self.probedURLs = probedURLs
        self.variant = variant
        self.streams = streams
        self.renditionLanguages = renditionLanguages
    }

    /// The stream a player would show: the first video stream.
    public var video: StreamParameters? { streams.first(where: \.isVideo) }
    /// The stream a player would play first: the first audio stream.
    public var audio: StreamParameters? { streams.first(where: \.isAudio) }

    /// Audio languages on offer: the renditions' when they name any, else the streams' tags.
    public var audioLanguages: [String] {
        let declared = renditionLanguages?.audio ?? []
        return declared.isEmpty ? streams.filter(\.isAudio).compactMap(\.knownLanguage) : declared
    }

    public var subtitleLanguages: [String] {
        let declared = renditionLanguages?.subtitles ?? []
        return declared.isEmpty ? streams.filter(\.isSubtitle).compactMap(\.knownLanguage) : declared
    }

    /// The audio language a player starts with: the selected rendition's, else the first audio stream's.
    public var selectedAudioLanguage: String? {
        renditionLanguages?.selectedAudio ?? audio?.knownLanguage
    }

    /// The subtitle language shown without the viewer choosing: the default subtitle rendition's.
    public var selectedSubtitleLanguage: String? {
        renditionLanguages?.selectedSubtitles
    }
}

/// The languages of one variant's renditions, read from its multivariant playlist.
public struct RenditionLanguages: Sendable, Hashable, Encodable {
    public var audio: [String]
    public var subtitles: [String]
    /// The language of the audio rendition probed: the viewer's preferred one when the variant offers
    /// it, else the DEFAULT=YES rendition's, else the first's.
    public var selectedAudio: String?
    /// The DEFAULT=YES subtitle rendition's language; none when no subtitles show by default.
    public var selectedSubtitles: String?

    public init(audio: [String], subtitles: [String], selectedAudio: String?, selectedSubtitles: String?) {
        self.audio = audio
        self.subtitles = subtitles
        self.selectedAudio = selectedAudio
        self.selectedSubtitles = selectedSubtitles
    }

    enum CodingKeys: String, CodingKey {
        case audio, subtitles
        case selectedAudio = "selected_audio"
        case selectedSubtitles = "selected_subtitles"
    }
}

extension StreamParameters {
    /// The language tag unless it is absent or "und" (undetermined), which says nothing.
    var knownLanguage: String? {
        guard let language, !language.isEmpty, language != "und" else { return nil }
        return language
    }
}

extension MediaParameters: Encodable {
    enum CodingKeys: String, CodingKey {
        case input
        case probedURLs = "probed_urls"
        case variant, streams
        case renditionLanguages = "rendition_languages"
    }
}
