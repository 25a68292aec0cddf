import CAvahi
import Glibc
import Synchronization

/// Publishes services over mDNS through avahi-daemon, and keeps them published while avahi comes and goes.
///
/// One publisher per process is enough for a fleet: each service gets its own entry group.
/// avahi runs its event loop on a thread of its own (a threaded poll); its callbacks run there holding
/// the poll lock, and every call from another thread takes that lock first. What other threads read
/// (`state`, `services`) is a snapshot kept behind a `Mutex`. The two locks are always taken in that
/// order, poll lock then mutex, and no avahi function is called while the mutex is held, because avahi
/// may call back synchronously.
///
/// - avahi-daemon absent at start: the state is `.waitingForAvahi` and services are published when a
///   daemon appears (`AVAHI_CLIENT_NO_FAIL`).
/// - avahi-daemon stops or restarts: the client fails with "disconnected"; the publisher frees it,
///   makes a new one and re-publishes every service under the name it last had.
/// - A name collision, local (returned by add_service) or on the link (group state COLLISION), moves the
///   service to avahi's alternative name; `services` tells the name actually published.
/// - No system D-Bus: `start()` throws `DiscoveryError.systemBusUnavailable` and the state is `.failed`.
public final class ServicePublisher: @unchecked Sendable {
    private struct Snapshot {
        var state: PublisherState = .stopped
        var services: [PublishedService] = []
    }

    private enum Phase {
        /// `connected`: avahi runs and takes entries; `daemonRegistering`: avahi is there but (re)claiming its
        /// host name, so entries wait.
        case idle, connecting, daemonRegistering, connected, failed(DiscoveryError), stopped
    }

    /// State changes, newest kept when nobody reads; one reader at a time (it is an `AsyncStream`).
    public let stateUpdates: AsyncStream<PublisherState>
    private let stateContinuation: AsyncStream<PublisherState>.Continuation
    private let snapshot = Mutex(Snapshot())

    // Guarded by the poll lock.
    private let poll: OpaquePointer
    private var client: OpaquePointer?
    private var phase = Phase.idle
    private var pollRunning = false
    private var reconnecting = false
    private var registrations: [ServiceID: ServiceRegistration] = [:]
    private var order: [ServiceID] = []
    private var nextID = 0

    public init() throws(DiscoveryError) {
        guard let poll = avahi_threaded_poll_new() else {
            throw DiscoveryError.avahi(code: Int32(AVAHI_ERR_NO_MEMORY), message: "cannot create avahi's event loop")
        }
        self.poll = poll
        (stateUpdates, stateContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(32))
    }

    deinit {
        stop()
        avahi_threaded_poll_free(poll)
    }

    /// The publisher's state now.
    public var state: PublisherState {
        snapshot.withLock { $0.state }
    }

    /// Every service given and not withdrawn, in the order given.
    public var services: [PublishedService] {
        snapshot.withLock { $0.services }
    }

    /// The name `id` is published under, once avahi has accepted one.
    public func publishedName(of id: ServiceID) -> String? {
        snapshot.withLock { $0.services.first { $0.id == id }?.publishedName }
    }

    /// Connects to avahi and publishes what was given so far. Returns at once: without an avahi-daemon the
    /// state becomes `.waitingForAvahi`.
    ///
    /// - Throws: `DiscoveryError.systemBusUnavailable` without a system D-Bus, `.stopped` after `stop()`.
    public func start() throws(DiscoveryError) {
        let error: DiscoveryError? = locked {
            switch phase {
            case .stopped: return .stopped
            case .connecting, .daemonRegistering, .connected: return nil
            case .idle, .failed: break
            }
            if let failure = connect() {
                return failure
            }
            // A start retried after a failure finds the loop already running.
            guard !pollRunning else { return nil }
            if avahi_threaded_poll_start(poll) < 0 {
                return DiscoveryError.avahi(code: Int32(AVAHI_ERR_FAILURE), message: "cannot start avahi's event loop")
            }
            pollRunning = true
            return nil
        }
        if let error { throw error }
    }

    /// Adds a service; it is published now if avahi is there, or as soon as it is.
    @discardableResult
    public func publish(_ service: AdvertisedService) throws(DiscoveryError) -> ServiceID {
        if let reason = service.invalidReason { throw DiscoveryError.invalidService(reason) }
        return try lockedThrowing { () throws(DiscoveryError) -> ServiceID in
            if case .stopped = phase { throw DiscoveryError.stopped }
            let id = ServiceID(rawValue: nextID)
            nextID += 1
            let registration = ServiceRegistration(id: id, publisher: self, service: service)
            registrations[id] = registration
            order.append(id)
            if case .connected = phase, let client { register(registration, with: client) }
            return id
        }
    }

    /// Replaces what `id` advertises. A TXT-only change is updated in place; a new name, type or port
    /// re-announces the service (under the new name, forgetting any earlier alternative).
    public func update(_ id: ServiceID, to service: AdvertisedService) throws(DiscoveryError) {
        if let reason = service.invalidReason { throw DiscoveryError.invalidService(reason) }
        try lockedThrowing { () throws(DiscoveryError) in
            if case .stopped = phase { throw DiscoveryError.stopped }
            guard let registration = registrations[id] else {
                throw DiscoveryError.invalidService("\(id) is not published by this publisher")
            }
            let onlyTXT = service.isSameInstance(as: registration.service)
            registration.service = service
            if !onlyTXT { registration.nameToPublish = service.name }
            guard case .connected = phase, let client else { return }
            if onlyTXT, registration.added, let group = registration.group {
                let code = TXTStringList.withList(service.txtRecord) { list in
                    avahi_entry_group_update_service_txt_strlst(
                        group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0),
                        registration.nameToPublish, service.type, nil, list)
                }
                if code != 0 { throw DiscoveryError(avahiCode: code) }
            } else {
                register(registration, with: client)
            }
        }
    }

    /// Withdraws one service from the network; an unknown id is ignored.
    public func withdraw(_ id: ServiceID) {
        locked {
            guard let registration = registrations.removeValue(forKey: id) else { return }
            order.removeAll { $0 == id }
            if let group = registration.group {
                avahi_entry_group_free(group)
                registration.group = nil
            }
        }
    }

    /// Withdraws every service, disconnects from avahi and ends its thread. Final: the publisher cannot be
    /// started again. Safe to call twice.
    public func stop() {
        let wasRunning: Bool = locked {
            if case .stopped = phase { return false }
            // First, so that nothing avahi reports while being torn down reconnects.
            phase = .stopped
            for registration in registrations.values {
                // Freeing a group withdraws its records at once (avahi sends goodbye packets).
                if let group = registration.group { avahi_entry_group_free(group) }
                registration.group = nil
                registration.added = false
            }
            registrations.removeAll()
            order.removeAll()
            if let client { avahi_client_free(client) }
            client = nil
            return pollRunning
        }
        // Joins avahi's thread, so it must run without the lock and never on that thread.
        if wasRunning { avahi_threaded_poll_stop(poll) }
        stateContinuation.finish()
    }

    // MARK: - Work done holding the poll lock

    /// Creates a client; returns why not. `avahi_client_new` may call back before it returns.
    private func connect() -> DiscoveryError? {
        // Set before creating: the callbacks made during creation overwrite it, and a FAILURE among them
        // (which frees the new client) leaves `.failed` behind.
        phase = .connecting
        var code: Int32 = 0
        let created = avahi_client_new(
            avahi_threaded_poll_get(poll), AVAHI_CLIENT_NO_FAIL, publisherClientChanged,
            Unmanaged.passUnretained(self).toOpaque(), &code)
        guard let created else {
            let error = Self.connectionError(code)
            phase = .failed(error)
            return error
        }
        if case .failed(let error) = phase { return error }
        client = created
        return nil
    }

    /// With `AVAHI_CLIENT_NO_FAIL` a missing daemon is not an error, so "no daemon" from
    /// `avahi_client_new` means the system bus itself could not be reached (checked on avahi 0.8).
    private static func connectionError(_ code: Int32) -> DiscoveryError {
        switch Int(code) {
        case AVAHI_ERR_NO_DAEMON, AVAHI_ERR_DBUS_ERROR:
            let address = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) }
                ?? "unix:path=/run/dbus/system_bus_socket"
            return .systemBusUnavailable("cannot connect to \(address)")
        default:
            return DiscoveryError(avahiCode: code)
        }
    }

    /// Reacts to the client's state; runs on the poll thread holding its lock (or inside `connect()`).
    func clientChanged(_ changed: OpaquePointer, to clientState: AvahiClientState) {
        if case .stopped = phase { return }
        switch clientState {
        case AVAHI_CLIENT_S_RUNNING:
            client = changed
            phase = .connected
            for id in order { if let registration = registrations[id] { register(registration, with: changed) } }
        case AVAHI_CLIENT_S_REGISTERING, AVAHI_CLIENT_S_COLLISION:
            // The daemon is (re)registering its host name: our records would carry the old one. Withdraw
            // them; RUNNING follows and registers them again.
            client = changed
            phase = .daemonRegistering
            for registration in registrations.values {
                if let group = registration.group { avahi_entry_group_reset(group) }
                registration.added = false
                registration.status = .pending
            }
        case AVAHI_CLIENT_CONNECTING:
            client = changed
            phase = .connecting
        case AVAHI_CLIENT_FAILURE:
            let code = avahi_client_errno(changed)
            // The groups belong to the client and go with it.
            for registration in registrations.values {
                registration.group = nil
                registration.added = false
                registration.status = .pending
            }
            avahi_client_free(changed)
            client = nil
            phase = .failed(DiscoveryError(avahiCode: code))
            // Disconnected (the daemon stopped or restarted) or any other failure: a new NO_FAIL client
            // waits for the next daemon, as avahi-publish and shairport-sync do. Not from inside a
            // reconnection, so a client that fails as it is made cannot loop.
            if !reconnecting {
                reconnecting = true
                _ = connect()
                reconnecting = false
            }
        default:
            break
        }
        refreshSnapshot()
    }

    /// Creates or resets the service's entry group and announces the service.
    private func register(_ registration: ServiceRegistration, with client: OpaquePointer) {
        if let group = registration.group {
            avahi_entry_group_reset(group)
        } else {
            let group = avahi_entry_group_new(
                client, registrationGroupChanged, Unmanaged.passUnretained(registration).toOpaque())
            guard let group else {
                registration.status = .failed(DiscoveryError(avahiCode: avahi_client_errno(client)))
                return
            }
            registration.group = group
        }
        registration.addAndCommit()
    }

    /// Publishes what other threads read; holds the poll lock so snapshots are never reordered.
    func refreshSnapshot() {
        let services = order.compactMap { registrations[$0]?.snapshot }
        let state: PublisherState
        switch phase {
        case .idle, .stopped: state = .stopped
        case .connecting: state = .waitingForAvahi
        case .daemonRegistering: state = .registering
        case .failed(let error): state = .failed(error)
        case .connected: state = services.contains { $0.status == .pending } ? .registering : .published
        }
        let changed = snapshot.withLock { current -> Bool in
            let changed = current.state != state
            current = Snapshot(state: state, services: services)
            return changed
        }
        if changed { stateContinuation.yield(state) }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        avahi_threaded_poll_lock(poll)
        defer {
            refreshSnapshot()
            avahi_threaded_poll_unlock(poll)
        }
        return body()
    }

    private func lockedThrowing<Result>(_ body: () throws(DiscoveryError) -> Result) throws(DiscoveryError) -> Result {
        avahi_threaded_poll_lock(poll)
        defer {
            refreshSnapshot()
            avahi_threaded_poll_unlock(poll)
        }
        return try body()
    }
}
