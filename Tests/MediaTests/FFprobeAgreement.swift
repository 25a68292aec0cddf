import Casting
import Foundation
import MediaValues
import TestSupport
import Testing

/// Checking airlab's streams against `ffprobe -show_streams -of json` run on the same bytes.
enum FFprobeAgreement {
    /// Every ffprobe key airlab reports; airlab's own additions are checked separately.
    static let keys = [
        "index", "codec_name", "profile", "codec_type", "width", "height", "sample_aspect_ratio",
        "display_aspect_ratio", "pix_fmt", "level", "color_range", "color_space", "color_transfer",
        "color_primaries", "sample_fmt", "sample_rate", "channels", "channel_layout", "r_frame_rate",
        "avg_frame_rate", "bits_per_raw_sample", "tags.language",
    ]
    /// What ffprobe prints for a value it does not know; airlab leaves such keys out.
    static let unknownValues: Set = ["0/0", "unknown", "N/A", "-99"]

    /// Records an issue for every key where `streams` and ffprobe's reading of `file` disagree,
    /// including a key ffprobe knows and airlab left out.
    static func expect(
        _ streams: [StreamParameters], agreeWith file: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let reference = try await ffprobeStreams(file)
        #expect(streams.count == reference.count, sourceLocation: sourceLocation)
        for (ours, theirs) in zip(streams, reference) {
            let fields = Dictionary(uniqueKeysWithValues: ours.fields.map { ($0.key, $0.value.description) })
            for key in keys {
                let expected = theirs[key].flatMap { unknownValues.contains($0) ? nil : $0 }
                #expect(fields[key] == expected, "stream \(ours.index), \(key)", sourceLocation: sourceLocation)
            }
        }
    }

    /// `ffprobe -v error -of json ARGUMENTS…`, parsed.
    static func ffprobe(_ arguments: [String]) async throws -> Data {
        try await BlockingWork.run { try Tool.run("ffprobe", ["-v", "error", "-of", "json"] + arguments) }
    }

    /// `ffprobe -show_streams -of json FILE`, each stream's fields flattened to strings
    /// (`tags.language` for the nested tag), as `StreamParameters.fields` keys them.
    static func ffprobeStreams(_ file: URL) async throws -> [[String: String]] {
        let data = try await ffprobe(["-show_streams", file.path])
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let streams = object?["streams"] as? [[String: Any]] ?? []
        return streams.map { stream in
            var flat: [String: String] = [:]
            for (key, value) in stream {
                if let tags = value as? [String: Any] {
                    for (tag, tagValue) in tags { flat["\(key).\(tag)"] = "\(tagValue)" }
                } else {
                    flat[key] = "\(value)"
                }
            }
            return flat
        }
    }
}
