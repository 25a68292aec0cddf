import Arguments
import Foundation
import Lab

/// `airlab discover [--timeout S] [--json]`: the receivers mDNS knows about.
enum DiscoverCommand {
    static let spec = CommandSpec(
        name: "discover",
        abstract: "List the AirPlay video receivers that answer on mDNS (_airplay._tcp), airlab's and others.",
        discussion: """
            Browses through the local avahi-daemon for at most --timeout seconds. Each receiver is listed
            with its name, address, port, model, device ID, the AirPlay path a sender takes to it and the
            pairing that path needs (from its TXT features and flags), and its profile when it is an
            airlab receiver.
            Exit status: 0 (also when none answered), 2 when avahi cannot be reached.
            """,
        options: [
            .value("timeout", "SECONDS", help: "Stop waiting for answers after this long.", default: "3"),
            .flag("json", help: "Print {\"receivers\": [...]} as JSON."),
        ])

    static let command = Command(spec) { parsed in
        let seconds: Double
        do throws(UsageError) {
            seconds = try parsed.number("timeout", in: ReceiverOptions.discoveryTimeoutRange) ?? 3
        } catch {
            return Airlab.usageFailure(error)
        }
        let receivers: [Receiver]
        do {
            receivers = try await ReceiverDirectory(timeout: .milliseconds(Int(seconds * 1000))).discover()
        } catch {
            Terminal.error("airlab discover: cannot browse mDNS: \(error)")
            return Airlab.usageStatus
        }
        print(parsed.flag("json") ? json(receivers) : text(receivers), terminator: "")
        return 0
    }

    static func text(_ receivers: [Receiver]) -> String {
        guard !receivers.isEmpty else { return "no receivers answered\n" }
        var rows = [["NAME", "ADDRESS", "PORT", "MODEL", "DEVICE ID", "PATH", "PAIRING", "AIRLAB PROFILE"]]
        for receiver in receivers {
            rows.append([
                receiver.name ?? "-", receiver.address.host, String(receiver.address.port), receiver.model ?? "-",
                receiver.deviceID ?? "-", receiver.path?.rawValue ?? "-", receiver.pairing?.rawValue ?? "-", receiver.profile ?? "- (not airlab)",
            ])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// A receiver in `discover --json` and `status --json`. Absent values are absent keys.
    struct ReceiverEntry: Encodable {
        /// What `status --json` adds: the session playing.
        struct Session: Encodable {
            var id: String
            var state: String?
            var playlist: String?
            var position: Double?
            var duration: Double?
        }

        var address: String
        var port: Int
        /// `discover` only: whether the TXT record names an airlab profile.
        var airlab: Bool?
        var name: String?
        var model: String?
        var deviceid: String?
        var profile: String?
        /// `discover` only: `airplay1` or `airplay2`, and the pairing it needs.
        var path: String?
        var pairing: String?
        var session: Session?

        init(_ receiver: Receiver, airlab: Bool? = nil, name: String?, model: String?, deviceid: String?, profile: String?) {
            address = receiver.address.host
            port = Int(receiver.address.port)
            self.airlab = airlab
            self.name = name
            self.model = model
            self.deviceid = deviceid
            self.profile = profile
        }
    }

    /// `discover --json`: `{"receivers": [...]}`.
    struct Listing: Encodable {
        var receivers: [ReceiverEntry]
    }

    static func json(_ receivers: [Receiver]) -> String {
        let listing = Listing(receivers: receivers.map {
            var entry = ReceiverEntry($0, airlab: $0.isAirlab, name: $0.name, model: $0.model, deviceid: $0.deviceID, profile: $0.profile)
            entry.path = $0.path?.rawValue
            entry.pairing = $0.pairing?.rawValue
            return entry
        })
        return CastCommand.encode(listing) + "\n"
    }
}
