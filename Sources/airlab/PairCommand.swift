import Arguments
import Foundation
import Lab
import Pairing

/// `airlab pair --to RECEIVER --pin DIGITS`: pairs with an AirPlay 2 receiver for good, as an iPhone
/// does when a TV shows a PIN, and keeps the receiver's credential; `--list` and `--forget` manage them.
enum PairCommand {
    static let spec = CommandSpec(
        name: "pair",
        abstract: "Pair with an AirPlay 2 receiver using the PIN it shows, and keep its credential.",
        discussion: """
            Asks the receiver to show its PIN (POST /pair-pin-start; airlabd writes it to its log, or
            takes --pin) and runs HomeKit pair-setup with it (M1 to M6). The receiver stores airlab as a
            paired controller; airlab keeps the receiver's identifier and key in --credentials, one file
            per receiver by device ID, with airlab's own key beside them (files of mode 0600).
            --list prints the receivers paired with; --forget --to RECEIVER drops one.
            --controllers --to RECEIVER prints the controllers the receiver keeps, and
            --remove-controller ID --to RECEIVER removes one there; both on a connection the receiver
            verifies with airlab's credential, as HAP lets only a paired admin change pairings.
            Exit status: 0 paired (or listed, or forgotten), 1 when the receiver refused the PIN, 2 for errors.
            """,
        options: [
            ReceiverOptions.to,
            .value("pin", "DIGITS", help: "The PIN the receiver shows."),
            ReceiverOptions.credentials,
            .flag("list", help: "List the receivers paired with."),
            .flag("forget", help: "Forget the receiver --to names."),
            .flag("controllers", help: "List the controllers the receiver --to names keeps."),
            .value("remove-controller", "ID", help: "Remove a controller's pairing on the receiver --to names."),
            ReceiverOptions.password, ReceiverOptions.discoveryTimeout,
        ])

    static let command = Command(spec) { parsed in
        do throws(CommandFailure) {
            guard let pairings = try ReceiverOptions.pairings(parsed, creating: true) else {
                throw .other("the credentials folder cannot be made")
            }
            if parsed.flag("list") {
                let credentials: [SenderPairings.Credential]
                do { credentials = try pairings.list() } catch { throw .other("\(error)") }
                print(credentials.isEmpty ? "no receivers paired" : credentials.map { "\($0.receiver)  paired \($0.pairedAt)" }.joined(separator: "\n"))
                return 0
            }
            let pin = parsed.values("pin").last
            let removing = parsed.values("remove-controller").last
            let managing = parsed.flag("controllers") || removing != nil
            if !parsed.flag("forget"), !managing {
                guard let pin else {
                    throw .usage(UsageError(commandPath: parsed.path, message: "give the PIN the receiver shows with --pin DIGITS"))
                }
                guard (4...8).contains(pin.count), pin.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                    throw .usage(UsageError(commandPath: parsed.path, message: "--pin must be 4 to 8 digits, not '\(pin)'"))
                }
            }
            let receiver = try await ReceiverOptions.receiver(parsed)
            let client = try ReceiverOptions.client(receiver, parsed)
            let deviceID: String
            do throws(ReceiverError) {
                guard let id = try await client.serverInfo().deviceID else {
                    throw ReceiverError(receiver: receiver.label, problem: .unreadableAnswer("/server-info names no deviceid"))
                }
                deviceID = id
            } catch {
                throw .receiver(error)
            }
            if managing {
                return try await manageControllers(removing: removing, client: client, pairings: pairings, deviceID: deviceID)
            }
            if parsed.flag("forget") {
                let forgotten: Bool
                do { forgotten = try pairings.remove(deviceID) } catch { throw .other("\(error)") }
                print(forgotten ? "forgot \(receiver.label) (\(deviceID))" : "\(receiver.label) (\(deviceID)) was not paired")
                return 0
            }
            do throws(ReceiverError) {
                let credential = try await client.pair(pin: pin ?? "", as: pairings, deviceID: deviceID)
                print("paired with \(receiver.label) (\(credential.receiver)) as \(pairings.identity.identifier)")
                return 0
            } catch {
                if case .pairingFailed = error.problem {
                    Terminal.error("airlab pair: \(error)")
                    return ReceiverOptions.refusedStatus
                }
                throw .receiver(error)
            }
        } catch {
            return error.report("pair")
        }
    }

    /// `--credentials`, or the user's config folder (XDG_CONFIG_HOME, else ~/.config).

    /// `--controllers` and `--remove-controller`: the receiver's own pairings, read or changed on a
    /// connection it verifies with the credential kept for `deviceID`.
    static func manageControllers(
        removing: String?, client: ReceiverClient, pairings: SenderPairings, deviceID: String
    ) async throws(CommandFailure) -> Int32 {
        var client = client
        client.pairings = pairings
        client.receiver.deviceID = deviceID
        do throws(ReceiverError) {
            if let removing {
                try await client.removePairedController(removing)
                print("removed \(removing) from \(client.receiver.label)")
                return 0
            }
            let controllers = try await client.pairedControllers()
            print(controllers.map { "\($0.identifier)  \($0.admin ? "admin" : "user")  \($0.publicKey)" }.joined(separator: "\n"))
            return 0
        } catch {
            throw .receiver(error)
        }
    }
}
