import Casting
import Discovery
import Foundation
import Sessions
import Synchronization

/// The receivers one `airlabd` hosts, one per profile, and their mDNS advertisements.
///
/// The receivers share one session driver, on one scaled clock (one per time scale, should receivers
/// be configured with different ones), so that sessions across the fleet run on one timeline.
///
/// mDNS is optional (docs/daemon.md): without avahi the receivers serve anyway, the publisher waits,
/// and they are published when avahi appears; when it restarts they are published again.
public final class ReceiverFleet: Sendable {
    public let receivers: [Receiver]
    /// The pictures at the receivers' playheads, for the console and each receiver's `GET /picture`.
    let frames: ConsoleFrames
    private let publisher = Mutex<ServicePublisher?>(nil)
    private let log: @Sendable (String) -> Void

    public init(configurations: [ReceiverConfiguration], planner: CastPlanner, log: @escaping @Sendable (String) -> Void) throws(ReceiverError) {
        var drivers: [Double: SessionDriver] = [:]
        var receivers: [Receiver] = []
        for var configuration in configurations {
            // A receiver alone in its process may answer on every core (up to four), as nginx runs a
            // worker per core; a fleet's receivers share the process's loop threads.
            if configurations.count == 1 {
                configuration.polling = .ownThreads(min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)))
            }
            let driver = drivers[configuration.timeScale] ?? SessionDriver(clock: ScaledClock(scale: configuration.timeScale))
            drivers[configuration.timeScale] = driver
            receivers.append(try Receiver(configuration: configuration, planner: planner, driver: driver, log: log))
        }
        self.receivers = receivers
        self.log = log
        let frames = ConsoleFrames(receivers: receivers)
        self.frames = frames
        for (index, receiver) in receivers.enumerated() {
            // Weak: the fleet keeps the frames for as long as its receivers serve.
            receiver.core.setPictureSource { [weak frames] shot in
                await frames?.picture(shot, of: index) ?? (.none("the receiver is stopping"), nil)
            }
            receiver.core.hub.observe { [weak frames] events, _ in frames?.observe(events, receiver: index) }
        }
    }

    /// Starts every receiver, or none: if one cannot listen, those started are stopped again.
    public func start() throws(ReceiverError) {
        for (index, receiver) in receivers.enumerated() {
            do throws(ReceiverError) {
                try receiver.start()
            } catch {
                receivers[..<index].forEach { $0.shutdown() }
                throw error
            }
        }
    }

    /// Advertises every receiver over mDNS. Never fails the daemon: what goes wrong is logged once.
    public func advertise() {
        let publisher: ServicePublisher
        do throws(DiscoveryError) {
            publisher = try ServicePublisher()
            for receiver in receivers { try publisher.publish(receiver.advertisement) }
            try publisher.start()
        } catch {
            log("mDNS is off: \(error)")
            return
        }
        self.publisher.withLock { $0 = publisher }
        let log = self.log
        Task.detached {
            var last: PublisherState?
            for await state in publisher.stateUpdates where state != last {
                last = state
                switch state {
                case .waitingForAvahi: log("mDNS: no avahi-daemon is running; the receivers will be published when one appears")
                case .published:
                    let names = publisher.services.map { "\"\($0.publishedName ?? $0.requestedName)\"" }.joined(separator: ", ")
                    log("mDNS: published \(names) as \(AdvertisedService.airPlayType)")
                case .failed(let error): log("mDNS: \(error)")
                case .registering, .stopped: break
                }
            }
        }
    }

    /// Withdraws the advertisements, then ends every session (reason `shutdown`, reports written) and
    /// stops serving.
    public func shutdown() {
        publisher.withLock { publisher in
            publisher?.stop()
            publisher = nil
        }
        for receiver in receivers { receiver.shutdown() }
    }
}
