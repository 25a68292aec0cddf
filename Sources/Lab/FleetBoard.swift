import Synchronization

/// The progress display of a lab run: one line per receiver.
///
/// On a terminal the block of lines is redrawn in place as sessions move on. Elsewhere (a CI log) a
/// line is written only when a receiver starts, ends or fails, so the log reads as a story.
public final class FleetBoard: Sendable {
    private struct Rows {
        var progress: [SessionProgress]
        var drawn = false
    }

    private let names: [String]
    private let interactive: Bool
    private let write: @Sendable (String) -> Void
    private let rows: Mutex<Rows>

    /// - Parameters:
    ///   - receivers: the run's receivers, in order.
    ///   - interactive: stdout is a terminal that understands cursor movement.
    ///   - write: where text goes (stdout); called under the board's lock, in order.
    public init(receivers: [Receiver], interactive: Bool, write: @escaping @Sendable (String) -> Void) {
        names = FleetRun.displayNames(of: receivers)
        self.interactive = interactive
        self.write = write
        rows = Mutex(Rows(progress: Array(repeating: SessionProgress(), count: receivers.count)))
    }

    public func update(_ index: Int, _ progress: SessionProgress) {
        rows.withLock { rows in
            guard rows.progress.indices.contains(index) else { return }
            let before = rows.progress[index]
            rows.progress[index] = progress
            if interactive {
                redraw(&rows)
            } else if let line = Self.milestone(from: before, to: progress) {
                write("\(names[index]): \(line)\n")
            }
        }
    }

    /// Leaves the block as it stands, so that what follows prints below it.
    public func finish() {
        rows.withLock { rows in
            if interactive && !rows.drawn { redraw(&rows) }
        }
    }

    private func redraw(_ rows: inout Rows) {
        let width = names.map(\.count).max() ?? 0
        var text = rows.drawn ? "\u{1B}[\(rows.progress.count)A" : ""
        for (name, progress) in zip(names, rows.progress) {
            text += "\r\u{1B}[2K" + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + progress.line + "\n"
        }
        rows.drawn = true
        write(text)
    }

    /// What a log without a terminal should say about a change, if anything.
    static func milestone(from before: SessionProgress, to after: SessionProgress) -> String? {
        if after.failure != nil && before.failure == nil { return after.line }
        if let session = after.sessionID, before.sessionID == nil { return "session \(session) started" }
        if after.state == "ended" && before.state != "ended" { return after.line }
        return nil
    }
}
