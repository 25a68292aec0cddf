import Arguments
import Foundation
import Lab

/// `airlab seek|rate|pause|play|stop --to …`: drive the session a receiver plays.
enum ControlCommands {
    static let exitStatuses = "Exit status: 0 when the receiver did it, 1 when it refused (a restriction of the interstitial playing, or no session), 2 for errors."

    static let seekSpec = CommandSpec(
        name: "seek", abstract: "Seek the receiver's session to a primary position (POST /scrub).",
        discussion: "An interstitial's SKIP restriction refuses seeking forward while it plays; JUMP plays it first. " + exitStatuses,
        positionals: [PositionalSpec("SECONDS", help: "The primary position to seek to.")],
        options: [ReceiverOptions.to, ReceiverOptions.password, ReceiverOptions.discoveryTimeout])
    static let rateSpec = CommandSpec(
        name: "rate", abstract: "Set the playback rate of the receiver's session (POST /rate): 0 pauses, 1 plays.",
        discussion: exitStatuses,
        positionals: [PositionalSpec("RATE", help: "The rate, such as 0, 1 or 2.")],
        options: [ReceiverOptions.to, ReceiverOptions.password, ReceiverOptions.discoveryTimeout])
    static let pauseSpec = CommandSpec(
        name: "pause", abstract: "Pause the receiver's session (rate 0).", discussion: exitStatuses,
        options: [ReceiverOptions.to, ReceiverOptions.password, ReceiverOptions.discoveryTimeout])
    static let playSpec = CommandSpec(
        name: "play", abstract: "Resume the receiver's session (rate 1).", discussion: exitStatuses,
        options: [ReceiverOptions.to, ReceiverOptions.password, ReceiverOptions.discoveryTimeout])
    static let stopSpec = CommandSpec(
        name: "stop", abstract: "Stop the receiver's session (POST /stop); nothing to stop is not an error.",
        discussion: "Exit status: 0, or 2 for errors.",
        options: [ReceiverOptions.to, ReceiverOptions.password, ReceiverOptions.discoveryTimeout])

    static let commands = [
        control(seekSpec) { parsed, client throws(CommandFailure) in
            let position = try number(parsed, "SECONDS")
            guard position >= 0 else { throw .usage(UsageError(commandPath: parsed.path, message: "SECONDS must be 0 or more")) }
            try await perform { () throws(ReceiverError) in try await client.seek(to: position) }
        },
        control(rateSpec) { parsed, client throws(CommandFailure) in
            let rate = try number(parsed, "RATE")
            try await perform { () throws(ReceiverError) in try await client.setRate(rate) }
        },
        control(pauseSpec) { _, client throws(CommandFailure) in
            try await perform { () throws(ReceiverError) in try await client.setRate(0) }
        },
        control(playSpec) { _, client throws(CommandFailure) in
            try await perform { () throws(ReceiverError) in try await client.setRate(1) }
        },
        control(stopSpec) { _, client throws(CommandFailure) in
            try await perform { () throws(ReceiverError) in try await client.stop() }
        },
    ]

    /// A command that resolves `--to`, then does `action` with the receiver's client.
    static func control(
        _ spec: CommandSpec, _ action: @escaping @Sendable (ParsedCommand, ReceiverClient) async throws(CommandFailure) -> Void
    ) -> Command {
        Command(spec) { parsed in
            do throws(CommandFailure) {
                let receiver = try await ReceiverOptions.receiver(parsed)
                try await action(parsed, ReceiverOptions.client(receiver, parsed))
                return 0
            } catch {
                return error.report(spec.name)
            }
        }
    }

    static func perform(_ work: () async throws(ReceiverError) -> Void) async throws(CommandFailure) {
        do throws(ReceiverError) {
            try await work()
        } catch {
            throw .receiver(error)
        }
    }

    static func number(_ parsed: ParsedCommand, _ name: String) throws(CommandFailure) -> Double {
        let text = parsed.positional(name) ?? ""
        guard let value = Double(text), value.isFinite else {
            throw .usage(UsageError(commandPath: parsed.path, message: "\(name) must be a number, not '\(text)'"))
        }
        return value
    }
}
