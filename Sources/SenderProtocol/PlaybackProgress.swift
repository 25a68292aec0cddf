import Foundation

/// `GET /scrub`'s answer: `duration: X` and `position: Y`, in seconds, one per line. The receiver
/// writes it from its `PlaybackInfo`; a sender reads it, a missing or unreadable line as nil.
public struct PlaybackProgress: Sendable, Equatable {
    public var duration: Double?
    public var position: Double?

    public init(duration: Double? = nil, position: Double? = nil) {
        self.duration = duration
        self.position = position
    }

    public init(scrubText text: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let value = Double(parts[1]), value.isFinite else { continue }
            switch parts[0] {
            case "duration": duration = value
            case "position": position = value
            default: break
            }
        }
    }

    /// The text the receiver answers.
    public var scrubText: String {
        "duration: \(String(format: "%.6f", duration ?? 0))\nposition: \(String(format: "%.6f", position ?? 0))\n"
    }
}
