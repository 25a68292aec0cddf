import Arguments
import Foundation
import Lab

/// The options every command that talks to one receiver shares, and how failures become exit statuses.
enum ReceiverOptions {
    static let to = OptionSpec.value("to", "NAME|HOST:PORT", help: "The receiver: its name as mDNS announces it, or HOST:PORT.")
    static let password = OptionSpec.value("password", "PASSWORD", help: "The receiver's password, when it asks for one.")
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

    static func client(_ receiver: Receiver, _ parsed: ParsedCommand) -> ReceiverClient {
        ReceiverClient(receiver, password: parsed.values("password").last)
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
