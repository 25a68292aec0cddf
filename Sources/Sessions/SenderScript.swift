import Playback
/// A scripted sender: commands at times, such as `at 3 seek 40; at 12 rate 2; at 20 pause; at 22 play`.
///
/// Times are seconds on the session's clock from the cast. Commands: `seek S`, `rate R`, `pause`
/// (rate 0), `play` (rate 1), `stop`, `pip on|off` (picture in picture, or back to standard),
/// `pip impossible|possible` (another app takes picture in picture, or gives it back).
public struct SenderScript: Sendable, Hashable {
    public struct Step: Sendable, Hashable {
        public var time: Double
        public var command: PlaybackCommand
    }

    public var steps: [Step]

    public init(steps: [Step] = []) {
        self.steps = steps
    }

    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public var step: String
        public var reason: String
        public var description: String { "'\(step)': \(reason)" }
    }

    /// Reads a script; steps may come in any order and are sorted by time (ties keep their order).
    public init(parsing text: String) throws(SyntaxError) {
        var steps: [Step] = []
        for raw in text.split(whereSeparator: { $0 == ";" || $0 == "\n" }) {
            let words = raw.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard !words.isEmpty else { continue }
            let step = words.joined(separator: " ")
            guard words.count >= 3, words[0] == "at" else {
                throw SyntaxError(step: step, reason: "a step reads 'at SECONDS COMMAND', such as 'at 12 seek 40'")
            }
            guard let time = Double(words[1]), time.isFinite, time >= 0 else {
                throw SyntaxError(step: step, reason: "'\(words[1])' is not a time in seconds")
            }
            func number(_ name: String) throws(SyntaxError) -> Double {
                guard words.count == 4, let value = Double(words[3]), value.isFinite else {
                    throw SyntaxError(step: step, reason: "\(name) needs one number, such as '\(name) 2'")
                }
                return value
            }
            let command: PlaybackCommand
            switch words[2] {
            case "seek": command = .seek(to: try number("seek"))
            case "rate": command = .setRate(try number("rate"))
            case "pause" where words.count == 3: command = .setRate(0)
            case "play" where words.count == 3: command = .setRate(1)
            case "stop" where words.count == 3: command = .stop
            case "pip":
                switch words.count == 4 ? words[3] : "" {
                case "on": command = .setPresentationMode(.pictureInPicture)
                case "off": command = .setPresentationMode(.standard)
                case "impossible": command = .setPictureInPicturePossible(false)
                case "possible": command = .setPictureInPicturePossible(true)
                default: throw SyntaxError(step: step, reason: "pip needs on, off, impossible or possible, such as 'pip on'")
                }
            default:
                throw SyntaxError(step: step, reason: "unknown command; use seek S, rate R, pause, play, stop or pip on|off")
            }
            steps.append(Step(time: time, command: command))
        }
        self.steps = steps.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }
}
