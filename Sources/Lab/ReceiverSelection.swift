import Discovery
import Foundation

/// Which receivers a lab run uses: every airlab receiver on mDNS, names looked up there, and
/// `HOST:PORT` addresses (used as they are), from `--receivers` and receivers files.
public struct ReceiverSelection: Sendable {
    /// The receivers found, in the order the list gave them.
    public var chosen: [Receiver] = []
    /// Names nothing answered to on mDNS.
    public var missing: [String] = []

    /// Resolves `entries`; browses mDNS only when one of them asks for every receiver or names one.
    ///
    /// `.everyDiscovered` takes every airlab receiver (a TXT record naming a profile): other AirPlay
    /// devices on the network do not speak airlab's JSON `/play` and would only fail the run. Names
    /// match exactly, then ignoring case. An address is asked who it is (`/server-info`), so that
    /// reports name it; one that does not answer is kept, and the run reports it. Those questions go
    /// out together, at most `slots.limit` at once per host, so that a fleet of hundreds on hosts that
    /// are slow to answer is not asked one by one.
    public static func resolve(
        _ entries: [ReceiverEntry], directory: ReceiverDirectory, slots: HostSlots = HostSlots(limit: FleetRun.defaultSessionsPerHost)
    ) async throws(DiscoveryError) -> ReceiverSelection {
        var found: [Receiver]?
        var selection = ReceiverSelection()
        func choose(_ receiver: Receiver) {
            if !selection.chosen.contains(receiver) { selection.chosen.append(receiver) }
        }
        let addresses = entries.compactMap { entry -> ReceiverAddress? in
            if case .address(let address) = entry { return address }
            return nil
        }
        let identified = await identify(addresses, slots: slots)
        for entry in entries {
            switch entry {
            case .address(let address):
                choose(identified[address] ?? Receiver(address: address))
            case .everyDiscovered:
                if found == nil { found = try await directory.discover() }
                for receiver in found ?? [] where receiver.isAirlab { choose(receiver) }
            case .name(let name):
                if found == nil { found = try await directory.discover() }
                let known = found ?? []
                if let receiver = known.first(where: { $0.name == name }) ?? known.first(where: { $0.name?.lowercased() == name.lowercased() }) {
                    choose(receiver)
                } else {
                    selection.missing.append(name)
                }
            }
        }
        return selection
    }

    /// What each address that answers `/server-info` says it is.
    static func identify(_ addresses: [ReceiverAddress], slots: HostSlots) async -> [ReceiverAddress: Receiver] {
        await withTaskGroup(of: Receiver?.self) { group in
            for address in Set(addresses) {
                group.addTask {
                    guard await slots.acquire(address.host) else { return nil }
                    let info = try? await ReceiverClient(Receiver(address: address), timeout: 5).serverInfo()
                    await slots.release(address.host)
                    return info.map(Receiver(address: address).filled(from:))
                }
            }
            var known: [ReceiverAddress: Receiver] = [:]
            for await receiver in group {
                if let receiver { known[receiver.address] = receiver }
            }
            return known
        }
    }
}
