import Discovery
import Foundation

/// Which receivers a lab run uses: `all` of airlab's on mDNS, or a comma-separated list of names
/// (looked up on mDNS) and `HOST:PORT` addresses (used as they are).
public struct ReceiverSelection: Sendable {
    /// The receivers found, in the order the list gave them.
    public var chosen: [Receiver] = []
    /// Names nothing answered to on mDNS.
    public var missing: [String] = []

    /// Resolves `choice`; browses mDNS only when it is `all` or holds a name.
    ///
    /// `all` takes every airlab receiver (a TXT record naming a profile): other AirPlay devices on the
    /// network do not speak airlab's JSON `/play` and would only fail the run. Names match exactly,
    /// then ignoring case. An address is asked who it is (`/server-info`), so that reports name it;
    /// one that does not answer is kept, and the run reports it.
    public static func resolve(_ choice: String, directory: ReceiverDirectory) async throws(DiscoveryError) -> ReceiverSelection {
        let entries = choice.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if entries.count == 1, entries[0].lowercased() == "all" {
            return ReceiverSelection(chosen: try await directory.discover().filter(\.isAirlab))
        }
        var found: [Receiver]?
        var selection = ReceiverSelection()
        for entry in entries {
            if let address = ReceiverAddress(parsing: entry) {
                var receiver = Receiver(address: address)
                if let info = try? await ReceiverClient(receiver, timeout: 5).serverInfo() {
                    receiver.name = info.name
                    receiver.profile = info.profile
                    receiver.model = info.model
                    receiver.deviceID = info.deviceID
                }
                if !selection.chosen.contains(receiver) { selection.chosen.append(receiver) }
                continue
            }
            if found == nil { found = try await directory.discover() }
            let known = found ?? []
            if let receiver = known.first(where: { $0.name == entry }) ?? known.first(where: { $0.name?.lowercased() == entry.lowercased() }) {
                if !selection.chosen.contains(receiver) { selection.chosen.append(receiver) }
            } else {
                selection.missing.append(entry)
            }
        }
        return selection
    }
}
