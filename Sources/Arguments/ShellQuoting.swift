/// Quoting text as one word of a generated shell script, so that help text with quotes, dollars or
/// brackets reaches the shell as written.
extension String {
    /// One single-quoted word for bash and zsh, where nothing inside single quotes is special and a
    /// quote is written by closing, escaping and reopening.
    var posixQuoted: String {
        "'" + escaping(["'": "'\\''"]) + "'"
    }

    /// One single-quoted word for fish, where a backslash escapes a quote or a backslash.
    var fishQuoted: String {
        "'" + escaping(["\\": "\\\\", "'": "\\'"]) + "'"
    }

    /// The text with each character in `replacements` written as its replacement (the module has no
    /// Foundation, so no `replacingOccurrences`).
    func escaping(_ replacements: [Character: String]) -> String {
        var result = ""
        result.reserveCapacity(count)
        for character in self {
            if let replacement = replacements[character] { result += replacement } else { result.append(character) }
        }
        return result
    }
}
