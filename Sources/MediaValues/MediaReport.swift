import Foundation

/// How `airlab probe` and `airlab compare` print their results, as text for people and JSON for tools.
public enum MediaReport {
    /// ffprobe-style key/value lines, one block per stream.
    public static func text(_ media: MediaParameters) -> String {
        var lines = ["input: \(media.input)"]
        if let variant = media.variant { lines.append("variant: \(variant)") }
        if media.probedURLs != [media.input] {
            lines.append("probed: \(media.probedURLs.joined(separator: " + "))")
        }
        if let languages = media.renditionLanguages {
            lines.append("audio languages: \(list(languages.audio)) (selected: \(languages.selectedAudio ?? "none"))")
            lines.append("subtitle languages: \(list(languages.subtitles)) (selected: \(languages.selectedSubtitles ?? "none"))")
        }
        for stream in media.streams {
            lines.append("stream \(stream.index): \(stream.codecType)")
            lines += stream.fields.filter { $0.key != "index" && $0.key != "codec_type" }.map { "  \($0.key): \($0.value)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func text(_ comparison: MediaComparison) -> String {
        var lines = ["primary: \(comparison.primary.input)", "interstitial: \(comparison.interstitial.input)"]
        if comparison.matches {
            lines.append("match: no differences on any dimension")
        } else {
            lines.append("\(comparison.mismatches.count) difference\(comparison.mismatches.count == 1 ? "" : "s"):")
            lines += comparison.mismatches.map { "  \($0.dimension.rawValue): primary \($0.primary), interstitial \($0.interstitial)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func json(_ media: MediaParameters) -> String {
        encode(media)
    }

    /// `{"primary":…, "interstitial":…, "mismatches":[{"dimension","primary","interstitial"}]}`.
    public static func json(_ comparison: MediaComparison) -> String {
        encode(comparison)
    }

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every value here is a string, an integer or a container of them: encoding cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func list(_ languages: [String]) -> String {
        languages.isEmpty ? "none" : languages.joined(separator: ", ")
    }
}
