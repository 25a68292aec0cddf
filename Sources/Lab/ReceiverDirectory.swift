import Discovery
import HLS
import NumberText
import Profiles

/// Finds receivers: by browsing `_airplay._tcp` over mDNS, or directly at a `HOST:PORT`.
public struct ReceiverDirectory: Sendable {
    /// How long a browse waits for answers when avahi does not finish sooner.
    public var timeout: Duration

    public init(timeout: Duration = .seconds(3)) {
        self.timeout = timeout
    }

    /// Every receiver that answers within the timeout, in the order avahi reported them.
    public func discover() async throws(DiscoveryError) -> [Receiver] {
        try await ServiceBrowser().browse(timeout: timeout).map(Receiver.init(discovered:))
    }

    /// `target` is `HOST:PORT`, taken as it is, or an instance name, looked up over mDNS (exactly,
    /// then ignoring case).
    public func resolve(_ target: String) async throws(ReceiverError) -> Receiver {
        if let address = ReceiverAddress(parsing: target) {
            return Receiver(address: address)
        }
        let label = "receiver \"\(target)\""
        let found: [Receiver]
        do {
            found = try await discover()
        } catch {
            throw ReceiverError(
                receiver: label, problem: .notFoundOnNetwork("cannot be looked up over mDNS: \(error); give HOST:PORT instead"))
        }
        if let exact = found.first(where: { $0.name == target }) ?? found.first(where: { $0.name?.lowercased() == target.lowercased() }) {
            return exact
        }
        let names = found.compactMap(\.name)
        let known = names.isEmpty ? "no receiver answered" : "found: " + names.map { "\"\($0)\"" }.joined(separator: ", ")
        throw ReceiverError(
            receiver: label,
            problem: .notFoundOnNetwork("did not answer on mDNS within \(Self.seconds(timeout)) s (\(known))"))
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value.plainText
    }
}

extension Receiver {
    /// A receiver as mDNS describes it; airlab's receivers add their profile to the TXT record.
    public init(discovered service: DiscoveredService) {
        self.init(
            name: service.name, address: ReceiverAddress(host: service.address, port: service.port),
            profile: service.txt["airlab.profile"], model: service.txt["model"], deviceID: service.txt["deviceid"],
            features: (service.txt["features"] ?? service.txt["ft"]).flatMap { AirPlayFeatures(text: $0) },
            statusFlags: (service.txt["flags"] ?? service.txt["sf"]).flatMap(Self.flags))
    }

    /// `0x644` as a number; nil for anything else.
    static func flags(_ text: String) -> UInt32? {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return UInt32(text) }
        return UInt32(text.dropFirst(2), radix: 16)
    }

    /// True when the receiver says it is airlab's (its TXT record names a profile).
    public var isAirlab: Bool { profile != nil }
}
