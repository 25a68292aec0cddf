import Playback
/// A scripted sender: commands at times, such as `at 3 seek 40; at 12 rate 2; at 20 pause; at 22 play`.
///
/// Times are seconds on the session's clock from the cast. Commands are written as `PlaybackCommand`
/// reads them: `seek S`, `rate R`, `pause` (rate 0), `play` (rate 1), `stop`, `pip on|off` (picture in
/// picture, or back to standard), `pip impossible|possible` (another app takes picture in picture, or
/// gives it back).
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
            let command: PlaybackCommand
            do throws(PlaybackCommand.TextError) {
                command = try PlaybackCommand(text: words[2...].joined(separator: " "))
            } catch {
                throw SyntaxError(step: step, reason: error.reason)
            }
            if case .play = command { throw SyntaxError(step: step, reason: "a script steers a cast; it cannot start one") }
            steps.append(Step(time: time, command: command))
        }
        self.steps = steps.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }
}
