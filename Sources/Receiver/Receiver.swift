import Casting
import Discovery
import Foundation
import HTTP
import SenderProtocol
import Sessions

/// One emulated receiver: a profile, an HTTP server speaking the sender protocol, and the sessions
/// cast to it. `airlabd` runs one per profile.
public final class Receiver: Sendable {
    public let configuration: ReceiverConfiguration
    let core: ReceiverCore
    private let server: HTTPServer

    /// - Parameters:
    ///   - planner: shared by a fleet, so that its probe cache serves every receiver.
    ///   - driver: plays the sessions, shared by a fleet's receivers so that they run on one clock; its
    ///     clock must run at `configuration.timeScale`. Nil: a driver of this receiver's own.
    ///   - log: one line for the operator (a report that could not be written, an unreadable state file).
    public init(
        configuration: ReceiverConfiguration, planner: CastPlanner, driver: SessionDriver? = nil,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(ReceiverError) {
        self.configuration = configuration
        core = try ReceiverCore(
            configuration: configuration, planner: planner, driver: driver ?? SessionDriver(clock: ScaledClock(scale: configuration.timeScale)),
            log: log)
        var http = configuration.http
        // Senders read /server-info before they know a password is needed, and scrapers read /metrics.
        http.authentication = configuration.password.map { DigestAuthentication(password: $0, exemptPaths: ["/server-info", "/metrics"]) }
        http.log = { [name = configuration.name] line in log("\(name): \(line)") }
        let server = HTTPServer(configuration: http, responder: ReceiverResponder(core: core))
        self.server = server
        core.countConnections { [weak server] in server?.statistics.openConnections ?? 0 }
    }

    /// Starts serving; throws with a one-line reason (a port in use, an address that is not numeric).
    public func start() throws(ReceiverError) {
        do {
            try server.start()
        } catch {
            throw ReceiverError("\(configuration.name): \(error)")
        }
    }

    /// The port served, once started.
    public var port: UInt16 { server.port }

    public var identity: ReceiverIdentity { core.identity }

    /// The PIN an AirPlay 2 receiver pairs with; nil for an AirPlay 1 one.
    public var pairingPIN: String? { core.pairing?.pin }

    /// What this receiver advertises over mDNS.
    public var advertisement: AdvertisedService {
        AdvertisedService(name: configuration.name, port: port, txtRecord: core.identity.txtRecord)
    }

    /// Ends the session playing with reason `shutdown`, writes its report, closes the listeners and
    /// stops serving.
    public func shutdown() {
        core.shutdown()
        server.stop()
    }
}
