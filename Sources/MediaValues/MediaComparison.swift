/// One dimension on which the interstitial differs from the primary, with both sides' values.
public struct Mismatch: Sendable, Hashable, Codable {
    public var dimension: MediaDimension
    public var primary: String
    public var interstitial: String

    public init(dimension: MediaDimension, primary: String, interstitial: String) {
        self.dimension = dimension
        self.primary = primary
        self.interstitial = interstitial
    }
}

/// The primary's and an interstitial's parameters side by side, and what differs.
public struct MediaComparison: Sendable, Hashable {
    public var primary: MediaParameters
    public var interstitial: MediaParameters
    /// In `MediaDimension` order.
    public var mismatches: [Mismatch]

    public var matches: Bool { mismatches.isEmpty }

    /// Compares every dimension.
    ///
    /// Profile and level are compared only when both sides use the same codec: H.264 High and HEVC
    /// Main are different by construction, and the codec mismatch already says so. Languages are a
    /// question of coverage: the interstitial must offer the language the primary plays, when both
    /// sides say what they offer; an interstitial that declares no language is not called a mismatch.
    public init(primary: MediaParameters, interstitial: MediaParameters) {
        self.primary = primary
        self.interstitial = interstitial
        mismatches = MediaDimension.allCases.compactMap { dimension in
            switch dimension {
            case .videoProfile where MediaDimension.videoCodec.value(of: primary) != MediaDimension.videoCodec.value(of: interstitial),
                .audioProfile where MediaDimension.audioCodec.value(of: primary) != MediaDimension.audioCodec.value(of: interstitial):
                return nil
            case .audioLanguage:
                return Self.coverage(dimension, selected: primary.selectedAudioLanguage, primary: primary, interstitial: interstitial)
            case .subtitleLanguage:
                return Self.coverage(dimension, selected: primary.selectedSubtitleLanguage, primary: primary, interstitial: interstitial)
            default:
                let (left, right) = (dimension.value(of: primary), dimension.value(of: interstitial))
                return left == right ? nil : Mismatch(dimension: dimension, primary: left, interstitial: right)
            }
        }
    }

    private static func coverage(
        _ dimension: MediaDimension, selected: String?, primary: MediaParameters, interstitial: MediaParameters
    ) -> Mismatch? {
        let offered = dimension == .audioLanguage ? interstitial.audioLanguages : interstitial.subtitleLanguages
        guard let selected, !offered.isEmpty else { return nil }
        guard !offered.contains(where: { LanguageTag.same($0, selected) }) else { return nil }
        return Mismatch(dimension: dimension, primary: selected, interstitial: offered.joined(separator: ", "))
    }
}

/// Matching language tags across the spellings HLS and containers use.
enum LanguageTag {
    /// ISO 639-2 codes that containers write, for the ISO 639-1 codes HLS playlists usually carry.
    private static let twoLetter: [String: String] = [
        "eng": "en", "fra": "fr", "fre": "fr", "deu": "de", "ger": "de", "spa": "es", "ita": "it", "por": "pt",
        "nld": "nl", "dut": "nl", "jpn": "ja", "zho": "zh", "chi": "zh", "kor": "ko", "rus": "ru", "ara": "ar",
        "swe": "sv", "nor": "no", "dan": "da", "fin": "fi", "pol": "pl", "tur": "tr", "hin": "hi",
    ]

    /// True when two tags name the same language: "en", "en-US" and "eng" all do.
    static func same(_ left: String, _ right: String) -> Bool {
        primary(left) == primary(right)
    }

    private static func primary(_ tag: String) -> String {
        let subtag = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        return twoLetter[subtag] ?? subtag
    }
}

extension MediaComparison: Encodable {
    enum CodingKeys: String, CodingKey {
        case primary, interstitial, mismatches
    }
}
