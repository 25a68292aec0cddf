/// Finds services of one type on the network for a bounded time, the way `airlab discover` lists receivers.
public struct ServiceBrowser: Sendable {
    public var type: String

    public init(type: String = AdvertisedService.airPlayType) {
        self.type = type
    }

    /// Browses and resolves services until avahi has reported everything it knows and every resolution
    /// has finished, or until `timeout`, whichever comes first.
    ///
    /// - Throws: `DiscoveryError.daemonUnavailable` without an avahi-daemon,
    ///   `.systemBusUnavailable` without a system D-Bus.
    public func browse(timeout: Duration) async throws(DiscoveryError) -> [DiscoveredService] {
        let session = try BrowseSession(type: type)
        let result = await withCheckedContinuation { continuation in
            session.begin(timeout: timeout, continuation: continuation)
        }
        session.end()
        return try result.get()
    }
}
