import Arguments
import Foundation
import Lab
import Pairing

/// The options every command that talks to one receiver shares, and how failures become exit statuses.
enum ReceiverOptions {
    static let to = OptionSpec.value("to", "NAME|HOST:PORT", help: "The receiver: its name as mDNS announces it, or HOST:PORT.")
    static let password = OptionSpec.value("password", "PASSWORD", help: "The receiver's password, when it asks for one.")
    static let airPlayProtocol = OptionSpec.value(
        "protocol", "1|2",
        help: "The AirPlay path: 2 pairs (with the credential `airlab pair` stored, else transiently) and encrypts; 1 is plain HTTP. Default: what the receiver's record says.")
    static let credentials = OptionSpec.value(
        "credentials", "DIR", help: "Where airlab keeps its key and the receivers' credentials.", default: "~/.config/airlab/airplay")
    /// The options of a command that casts to or drives one receiver.
    static let connecting = [to, password, airPlayProtocol, credentials, discoveryTimeout]
    static let discoveryTimeout = OptionSpec.value(
        "discovery-timeout", "SECONDS", help: "How long to look for a receiver named on mDNS.", default: "3")

    /// Exit status when the receiver answered but refused (a restriction, no session); 2 is for errors.
    /// How long `--discovery-timeout` (and `discover --timeout`) may browse for.
    static let discoveryTimeoutRange = NumberRange.positiveSeconds(upTo: 86_400)
    static let refusedStatus: Int32 = 1

    /// The receiver `--to` names, looked up when it is a name.
    static func receiver(_ parsed: ParsedCommand) async throws(CommandFailure) -> Receiver {
        guard let target = parsed.values("to").last, !target.isEmpty else {
            throw .usage(UsageError(commandPath: parsed.path, message: "give the receiver with --to NAME|HOST:PORT"))
        }
        let seconds: Double
        do throws(UsageError) {
            seconds = try parsed.number("discovery-timeout", in: discoveryTimeoutRange) ?? 3
        } catch {
            throw .usage(error)
        }
        do throws(ReceiverError) {
            return try await ReceiverDirectory(timeout: .milliseconds(Int(seconds * 1000))).resolve(target)
        } catch {
            throw .receiver(error)
        }
    }

    /// A client for `receiver` with the command's password, and its path and credentials when it casts
    /// or drives (commands that only read use plain routes).
    static func client(_ receiver: Receiver, _ parsed: ParsedCommand) throws(CommandFailure) -> ReceiverClient {
        var client = ReceiverClient(receiver, password: parsed.values("password").last)
        guard parsed.spec.options.contains(where: { $0.name == airPlayProtocol.name }) else { return client }
        client.protocolChoice = try protocolChoice(parsed)
        client.pairings = try pairings(parsed, creating: false)
        return client
    }

    static func protocolChoice(_ parsed: ParsedCommand) throws(CommandFailure) -> ReceiverClient.ProtocolChoice {
        guard let given = parsed.values("protocol").last else { return .automatic }
        guard let choice = ReceiverClient.ProtocolChoice(rawValue: given), choice != .automatic else {
            throw .usage(UsageError(commandPath: parsed.path, message: "--protocol must be 1 or 2, not '\(given)'"))
        }
        return choice
    }

    /// The sender's pairings in `--credentials` (or the user's config folder). A cast does not make the
    /// folder: without one it pairs transiently.
    static func pairings(_ parsed: ParsedCommand, creating: Bool) throws(CommandFailure) -> SenderPairings? {
        let folder = credentialsFolder(parsed)
        guard creating || FileManager.default.fileExists(atPath: folder.path) else { return nil }
        do {
            return try SenderPairings(folder: folder)
        } catch {
            throw .other("the credentials folder \(folder.path) cannot be used: \(error)")
        }
    }

    static func credentialsFolder(_ parsed: ParsedCommand) -> URL {
        if let given = parsed.values("credentials").last { return URL(fileURLWithPath: given, isDirectory: true) }
        let environment = ProcessInfo.processInfo.environment
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config", isDirectory: true)
        return config.appendingPathComponent("airlab/airplay", isDirectory: true)
    }

    /// 1 when the receiver refused (a restriction, no session to drive), 2 for everything else.
    static func status(for error: ReceiverError) -> Int32 {
        switch error.problem {
        case .refused, .noSession: refusedStatus
        default: Airlab.usageStatus
        }
    }
}

/// Why a command stopped before doing its work: a command line that does not fit, or a receiver.
enum CommandFailure: Error {
    case usage(UsageError)
    case receiver(ReceiverError)
    case other(String)

    /// Reports the failure in one line on stderr and gives the exit status.
    func report(_ command: String) -> Int32 {
        switch self {
        case .usage(let error):
            return Airlab.usageFailure(error)
        case .receiver(let error):
            Terminal.error("airlab \(command): \(error)")
            return ReceiverOptions.status(for: error)
        case .other(let message):
            Terminal.error("airlab \(command): \(message)")
            return Airlab.usageStatus
        }
    }
}
