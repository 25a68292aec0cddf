import Arguments
import Foundation
import Lab
import Playback

/// `airlab seek|rate|pause|play|stop --to …`: drive the session a receiver plays.
enum ControlCommands {
    static let exitStatuses = "Exit status: 0 when the receiver did it, 1 when it refused (a restriction of the interstitial playing, or no session), 2 for errors."

    static let seekSpec = CommandSpec(
        name: "seek", abstract: "Seek the receiver's session to a primary position (POST /scrub).",
        discussion: "An interstitial's SKIP restriction refuses seeking forward while it plays; JUMP plays it first. " + exitStatuses,
        positionals: [PositionalSpec("SECONDS", help: "The primary position to seek to.")],
        options: ReceiverOptions.connecting)
    static let rateSpec = CommandSpec(
        name: "rate", abstract: "Set the playback rate of the receiver's session (POST /rate): 0 pauses, 1 plays.",
        discussion: exitStatuses,
        positionals: [PositionalSpec("RATE", help: "The rate, such as 0, 1 or 2.")],
        options: ReceiverOptions.connecting)
    static let pauseSpec = CommandSpec(
        name: "pause", abstract: "Pause the receiver's session (rate 0).", discussion: exitStatuses,
        options: ReceiverOptions.connecting)
    static let playSpec = CommandSpec(
        name: "play", abstract: "Resume the receiver's session (rate 1).", discussion: exitStatuses,
        options: ReceiverOptions.connecting)
    static let stopSpec = CommandSpec(
        name: "stop", abstract: "Stop the receiver's session (POST /stop); nothing to stop is not an error.",
        discussion: "Exit status: 0, or 2 for errors.",
        options: ReceiverOptions.connecting)

    static let commands = [
        control(seekSpec) { parsed throws(UsageError) in .seek(to: try parsed.number(positional: "SECONDS", in: NumberRange(.atLeast(0), unit: "seconds")) ?? 0) },
        control(rateSpec) { parsed throws(UsageError) in .setRate(try parsed.number(positional: "RATE") ?? 1) },
        control(pauseSpec) { _ in .setRate(0) },
        control(playSpec) { _ in .setRate(1) },
        control(stopSpec) { _ in .stop },
    ]

    /// A command that resolves `--to`, reads its arguments into one `PlaybackCommand` and sends it.
    static func control(_ spec: CommandSpec, _ command: @escaping @Sendable (ParsedCommand) throws(UsageError) -> PlaybackCommand) -> Command {
        Command(spec) { parsed in
            do throws(CommandFailure) {
                let asked: PlaybackCommand
                do throws(UsageError) {
                    asked = try command(parsed)
                } catch {
                    throw .usage(error)
                }
                let receiver = try await ReceiverOptions.receiver(parsed)
                // The receiver's record decides the path, unless --protocol does; messages name the
                // receiver as the command line did.
                var client = try await ReceiverOptions.client(receiver, parsed).identified()
                client.receiver.name = receiver.name
                do throws(ReceiverError) {
                    try await client.send(asked)
                } catch {
                    throw .receiver(error)
                }
                return 0
            } catch {
                return error.report(spec.name)
            }
        }
    }
}
