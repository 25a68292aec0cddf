@preconcurrency import Glibc

/// Writing progress to the terminal: one line redrawn in place, clipped to the terminal's width so
/// that it never wraps onto a second line.
extension Terminal {
    static var standardOutputIsTerminal: Bool {
        isatty(STDOUT_FILENO) == 1
    }

    /// Writes `text` to stdout at once (progress must not wait in a buffer).
    static func write(_ text: String) {
        fputs(text, stdout)
        fflush(stdout)
    }

    /// Replaces the current line with `line`.
    static func redrawLine(_ line: String) {
        write("\r\u{1B}[2K" + String(line.prefix(max(20, width - 1))))
    }

    /// Columns of the terminal on stdout; 80 when it does not say.
    static var width: Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
