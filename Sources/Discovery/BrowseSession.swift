import CAvahi
import Dispatch
import Synchronization

/// One browse: avahi's client, browser and resolvers on a threaded poll, and what they found.
///
/// Callbacks run on avahi's thread holding the poll lock; the findings sit behind a `Mutex` because the
/// timeout fires on another thread.
final class BrowseSession: @unchecked Sendable {
    typealias Outcome = Result<[DiscoveredService], DiscoveryError>

    private struct Progress {
        var found: [String: DiscoveredService] = [:]
        var order: [String] = []
        var pendingResolutions = 0
        var allForNow = false
        var continuation: CheckedContinuation<Outcome, Never>?
        var outcome: Outcome?
    }

    let type: String
    private let poll: OpaquePointer
    private var client: OpaquePointer?
    private let progress = Mutex(Progress())

    init(type: String) throws(DiscoveryError) {
        self.type = type
        guard let poll = avahi_threaded_poll_new() else {
            throw DiscoveryError.avahi(code: Int32(AVAHI_ERR_NO_MEMORY), message: "cannot create avahi's event loop")
        }
        self.poll = poll
        var code: Int32 = 0
        // Without NO_FAIL: browsing wants an answer now, so a missing daemon is an error at once.
        guard let client = avahi_client_new(avahi_threaded_poll_get(poll), AvahiClientFlags(0), nil, nil, &code) else {
            avahi_threaded_poll_free(poll)
            throw DiscoveryError(avahiCode: code)
        }
        self.client = client
    }

    /// Starts browsing; `continuation` is resumed once, when the browse is over.
    func begin(timeout: Duration, continuation: CheckedContinuation<Outcome, Never>) {
        progress.withLock { $0.continuation = continuation }
        let browser = avahi_service_browser_new(
            client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), type, nil, AvahiLookupFlags(0),
            browseSessionBrowserEvent, Unmanaged.passUnretained(self).toOpaque())
        guard browser != nil else {
            finish(.failure(DiscoveryError(avahiCode: avahi_client_errno(client))))
            return
        }
        guard avahi_threaded_poll_start(poll) >= 0 else {
            finish(.failure(.avahi(code: Int32(AVAHI_ERR_FAILURE), message: "cannot start avahi's event loop")))
            return
        }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
            finish(nil)
        }
    }

    /// Stops avahi's thread and frees everything (the client frees its browser and resolvers).
    func end() {
        avahi_threaded_poll_stop(poll)
        if let client { avahi_client_free(client) }
        client = nil
        avahi_threaded_poll_free(poll)
    }

    /// Ends the browse with `outcome`, or with what was found so far when `nil`; later calls do nothing.
    private func finish(_ outcome: Outcome?) {
        let resume = progress.withLock { progress -> (CheckedContinuation<Outcome, Never>, Outcome)? in
            guard progress.outcome == nil, let continuation = progress.continuation else { return nil }
            let result = outcome ?? .success(progress.order.compactMap { progress.found[$0] })
            progress.outcome = result
            progress.continuation = nil
            return (continuation, result)
        }
        if let (continuation, result) = resume { continuation.resume(returning: result) }
    }

    private func finishIfComplete() {
        let complete = progress.withLock { $0.allForNow && $0.pendingResolutions == 0 }
        if complete { finish(nil) }
    }

    // MARK: - On avahi's thread

    func browserEvent(
        _ browser: OpaquePointer, interface: AvahiIfIndex, protocol: AvahiProtocol, event: AvahiBrowserEvent,
        name: String, type: String, domain: String
    ) {
        switch event {
        case AVAHI_BROWSER_NEW:
            // The address asked for is of the family the service was seen over: avahi also publishes AAAA
            // records over IPv4 by default, and a link-local IPv6 address without its scope is of no use
            // to a sender that found the receiver over IPv4.
            let resolver = avahi_service_resolver_new(
                avahi_service_browser_get_client(browser), interface, `protocol`, name, type, domain,
                `protocol`, AvahiLookupFlags(0),
                browseSessionResolverEvent, Unmanaged.passUnretained(self).toOpaque())
            if resolver != nil { progress.withLock { $0.pendingResolutions += 1 } }
        case AVAHI_BROWSER_REMOVE:
            // Seen on one interface or protocol going away; the service may remain on another, but a
            // list for a person to pick from is better without a receiver that is leaving.
            let key = Self.key(name: name, type: type, domain: domain)
            progress.withLock {
                $0.found[key] = nil
                $0.order.removeAll { $0 == key }
            }
        case AVAHI_BROWSER_ALL_FOR_NOW:
            progress.withLock { $0.allForNow = true }
            finishIfComplete()
        case AVAHI_BROWSER_FAILURE:
            finish(.failure(DiscoveryError(avahiCode: avahi_client_errno(avahi_service_browser_get_client(browser)))))
        default:
            break
        }
    }

    func resolverEvent(_ resolver: OpaquePointer, event: AvahiResolverEvent, found: DiscoveredService?, isIPv4: Bool) {
        progress.withLock { progress in
            progress.pendingResolutions -= 1
            guard event == AVAHI_RESOLVER_FOUND, let found else { return }
            let key = Self.key(name: found.name, type: found.type, domain: found.domain)
            if let earlier = progress.found[key], !isIPv4, earlier.address.contains(".") { return }
            if progress.found[key] == nil { progress.order.append(key) }
            progress.found[key] = found
        }
        avahi_service_resolver_free(resolver)
        finishIfComplete()
    }

    private static func key(name: String, type: String, domain: String) -> String {
        "\(name)\u{0}\(type)\u{0}\(domain)"
    }
}
