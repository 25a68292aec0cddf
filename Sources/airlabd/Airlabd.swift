@preconcurrency import Glibc
import Arguments
import Casting
import Dispatch
import Foundation
import HTTP
import Loading
import Media
import Receiver
import SenderProtocol

/// `airlabd`: starts the receivers, advertises them, and runs until SIGTERM or SIGINT.
enum Airlabd {
    static let usageStatus: Int32 = 2

    static func main(_ arguments: [String]) async -> Int32 {
        let options: DaemonOptions
        do {
            switch try ArgumentParser.parse(arguments, root: DaemonOptions.spec) {
            case .help(_, let text), .output(let text):
                print(text, terminator: "")
                return 0
            case .run(let parsed):
                options = try DaemonOptions(parsed)
            }
        } catch {
            fputs("airlabd: \(error.message) (see 'airlabd --help')\n", stderr)
            return usageStatus
        }
        let log = DaemonLog(format: options.logFormat)
        let configurations = fitted(
            options.configurations, to: DescriptorLimit.raiseToHard(),
            otherServers: [options.metricsAddress, options.consoleAddress].compactMap { $0.map { _ in FleetMetricsEndpoint.connectionLimit } }, log: log)
        // One planner for the fleet: its probe cache serves every receiver.
        var planner = CastPlanner(
            loader: ResourceLoader(timeout: options.fetchTimeout), prober: ProbeCache(options: ProbeOptions(timeout: options.fetchTimeout)))
        planner.media = options.media
        let fleet: ReceiverFleet
        do throws(ReceiverError) {
            fleet = try ReceiverFleet(configurations: configurations, planner: planner, log: { log.write($0, level: "warning") })
            try fleet.start()
        } catch {
            fputs("airlabd: \(error)\n", stderr)
            return usageStatus
        }
        // The console is on the process endpoint unless --console gives it an address of its own.
        let console = options.consoleAddress != nil || options.metricsAddress != nil
            ? FleetConsole(fleet: fleet, allowsControl: options.consoleControl) : nil
        var endpoints: [(endpoint: FleetMetricsEndpoint, host: String, metrics: Bool, console: Bool)] = []
        if let address = options.metricsAddress {
            let servesConsole = console != nil && options.consoleAddress == nil
            endpoints.append((
                FleetMetricsEndpoint(fleet: fleet, address: address.host, port: address.port, console: console, servesConsole: servesConsole),
                address.host, true, servesConsole
            ))
        }
        if let address = options.consoleAddress {
            endpoints.append((FleetMetricsEndpoint(fleet: fleet, address: address.host, port: address.port, console: console, option: "--console"), address.host, false, true))
        }
        for (index, served) in endpoints.enumerated() {
            do throws(ReceiverError) {
                try served.endpoint.start()
            } catch {
                endpoints[..<index].forEach { $0.endpoint.stop() }
                fleet.shutdown()
                fputs("airlabd: \(error)\n", stderr)
                return usageStatus
            }
        }
        let stop = StopRequest(signals: [SIGTERM, SIGINT], watchingStandardInput: options.stopsOnStandardInputClose)
        for receiver in fleet.receivers {
            DaemonLog.announce(ReadyAnnouncement.receiverLine(
                name: receiver.configuration.name, profile: receiver.configuration.profile.name, host: receiver.configuration.address,
                port: receiver.port))
        }
        // A real receiver shows its PIN on the screen; airlabd writes it, for a fleet small enough to read.
        let pairing = fleet.receivers.filter { $0.pairingPIN != nil }
        if pairing.count <= 16 {
            for receiver in pairing { log.write("receiver \"\(receiver.configuration.name)\" pairs (AirPlay 2) with PIN \(receiver.pairingPIN ?? "")") }
        } else {
            log.write("\(pairing.count) AirPlay 2 receivers pair with their own PINs, each written when a sender asks for it (/pair-pin-start)")
        }
        for served in endpoints {
            if served.metrics { DaemonLog.announce(ReadyAnnouncement.metricsLine(host: served.host, port: served.endpoint.port)) }
            if served.console { DaemonLog.announce(ReadyAnnouncement.consoleLine(host: served.host, port: served.endpoint.port)) }
        }
        if options.advertise { fleet.advertise() } else { log.write("mDNS is off (--no-mdns)") }
        DaemonLog.announce(ReadyAnnouncement.ready)
        MemoryTrim.start()
        log.write("\(await stop.next()): ending sessions and stopping")
        console?.stop()
        endpoints.forEach { $0.endpoint.stop() }
        fleet.shutdown()
        return 0
    }
}

/// The receivers' connection limits, lowered when the process's descriptor limit cannot back them all
/// (which is logged once): connections beyond it would leave no descriptor for fetches and reports.
/// `otherServers` are the connection limits of the process's other servers, counted first.
func fitted(_ configurations: [ReceiverConfiguration], to descriptorLimit: Int, otherServers: [Int], log: DaemonLog) -> [ReceiverConfiguration] {
    let budget = DescriptorBudget(descriptorLimit: descriptorLimit)
    let requested = configurations.first?.maxConnections ?? ReceiverConfiguration.defaultMaxConnections
    let allowed = budget.connectionLimit(requested: requested, servers: configurations.count, others: otherServers)
    guard allowed < requested else { return configurations }
    log.write(
        "the open-file limit of \(descriptorLimit) allows \(allowed) connections per receiver, not \(requested); raise it (ulimit -n, LimitNOFILE=) for more",
        level: "warning")
    return configurations.map { configuration in
        var fitted = configuration
        fitted.maxConnections = allowed
        return fitted
    }
}

/// What stops the daemon: SIGTERM or SIGINT, delivered through Dispatch rather than a handler so that
/// the shutdown runs as ordinary code, or with `--stop-on-stdin-close` the end of standard input.
final class StopRequest: Sendable {
    private let stream: AsyncStream<String>
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    init(signals: [Int32], watchingStandardInput: Bool) {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        self.stream = stream
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number == SIGINT ? "SIGINT" : "SIGTERM") }
            source.resume()
            return source
        }
        if watchingStandardInput {
            // A parent that holds our standard input open as a lifeline has gone when it reads end of file.
            Thread {
                while !FileHandle.standardInput.availableData.isEmpty {}
                continuation.yield("standard input closed")
            }.start()
        }
    }

    /// Why the daemon is to stop, once it is.
    func next() async -> String {
        for await reason in stream { return reason }
        return "SIGTERM"
    }
}
