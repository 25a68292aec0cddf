import Arguments
import Media

/// The options `probe` and `compare` share, and how they become Media's.
enum MediaOptions {
    static let json = OptionSpec.flag("json", help: "Print JSON instead of text.")
    static let timeout = OptionSpec.value(
        "timeout", "SECONDS", help: "Give up on an input that has not been probed after this long.", default: "10")

    /// The probe limits the command line asks for; a timeout that is not a positive number is a usage error.
    static func probeOptions(_ parsed: ParsedCommand) throws(UsageError) -> ProbeOptions {
        let timeout = try parsed.value("timeout", as: Double.self) ?? 10
        guard timeout > 0, timeout <= 86_400 else {
            throw UsageError(commandPath: parsed.path, message: "--timeout expects a positive number of SECONDS, not '\(parsed.values("timeout").last ?? "")'")
        }
        return ProbeOptions(timeout: timeout)
    }
}
