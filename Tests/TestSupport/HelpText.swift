/// What a command's `--help` lists, read back from the text: the subcommands under COMMANDS and the
/// option names under OPTIONS, so that tests can hold generated files and deploy files to the
/// options the executables really take.
public struct HelpText: Sendable {
    /// Subcommand names, in the order listed.
    public var commands: [String] = []
    /// Option names without their dashes (`json`, `help`), in the order listed.
    public var options: [String] = []

    public init(_ text: String) {
        var section = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" "), line.hasSuffix(":") {
                section = String(line.dropLast())
                continue
            }
            // Rows are indented two spaces; a deeper indent continues a row or a discussion.
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let first = line.split(separator: " ").first else { continue }
            switch section {
            case "COMMANDS":
                commands.append(String(first))
            case "OPTIONS":
                // "-h, --help" names its long form second.
                let label = line.split(separator: " ").first { $0.hasPrefix("--") } ?? first
                options.append(String(label.drop { $0 == "-" }))
            default:
                break
            }
        }
    }

    /// The `--name` words of a command line (`--fleet FILE --state-dir=DIR` gives fleet, state-dir).
    public static func optionNames(in commandLine: String) -> [String] {
        commandLine.split(separator: " ").filter { $0.hasPrefix("--") }.map { word in
            String(word.dropFirst(2).prefix { $0 != "=" })
        }
    }
}
