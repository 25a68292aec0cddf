import Arguments
import Media

/// The options `probe` and `compare` share, and how they become Media's.
enum MediaOptions {
    static let json = OptionSpec.flag("json", help: "Print JSON instead of text.")
    static let timeout = OptionSpec.value(
        "timeout", "SECONDS", help: "Give up on an input that has not been probed after this long.", default: "10")

    /// The probe limits the command line asks for; a timeout that is not a positive number is a usage error.
    static func probeOptions(_ parsed: ParsedCommand) throws(UsageError) -> ProbeOptions {
        ProbeOptions(timeout: try parsed.number("timeout", in: .positiveSeconds(upTo: 86_400)) ?? 10)
    }
}
