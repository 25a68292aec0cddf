import Console
import ConsoleStream
import Dispatch
import Foundation
import HTTP
import Playback
import SenderProtocol
import ServerSentEvents
import Synchronization

/// The live console of one `airlabd` (docs/console.md): the shared board and pages (`ConsoleBroadcast`),
/// fed from the receivers of this process, with their pictures and controls.
///
/// Nothing polls a receiver: each receiver's `EventHub` hands its events to the board as they are
/// published, typed, in the process.
public final class FleetConsole: Sendable {
    let fleet: ReceiverFleet
    /// The board and the pages that watch it.
    public let broadcast: ConsoleBroadcast
    /// `--console-control`: the page's controls reach the receivers; without it they answer 403.
    public var allowsControl: Bool { broadcast.allowsControl }
    /// The tiles' pictures: the fleet's, which each receiver's `GET /picture` also makes.
    var frames: ConsoleFrames { fleet.frames }

    public init(fleet: ReceiverFleet, allowsControl: Bool) {
        self.fleet = fleet
        let receivers = fleet.receivers.map { (name: $0.configuration.name, profile: $0.configuration.profile.name, timeScale: $0.configuration.timeScale) }
        broadcast = ConsoleBroadcast(receivers: receivers, allowsControl: allowsControl, showsPictures: true)
        broadcast.whenWatched { [weak self] in self?.sample() }
        // A page that watches wants the pictures of each switch, whether or not it has asked for a tile's yet.
        fleet.frames.watchedElsewhere { [weak broadcast] in (broadcast?.listenerCount ?? 0) > 0 }
        for (index, receiver) in fleet.receivers.enumerated() {
            receiver.core.hub.observe { [weak broadcast] events, session in
                broadcast?.record(events, of: session, receiver: index)
            }
        }
    }

    /// The password the console asks for: the receivers' own, when they have one (a fleet file may give
    /// each its own; the first one set guards the console).
    var password: String? {
        fleet.receivers.lazy.compactMap(\.configuration.password).first
    }

    /// How often the figures that move without events (buffer ahead, group sync error) are read.
    static let sampleInterval = 1.0

    /// Reads each playing session's buffer ahead and group sync error, once a `sampleInterval` while a
    /// page watches: a look at its engine in this process, never a request to a receiver.
    private func sample() {
        var samples: [(index: Int, session: String, sample: ConsoleTile.Sample)] = []
        for (index, receiver) in fleet.receivers.enumerated() {
            guard let session = receiver.core.current, let engine = session.activeEngineNow else { continue }
            let membership = session.membership
            let figures = ConsoleTile.Sample(
                bufferAhead: engine.bufferStatus?.ahead, group: membership?.request.groupID, groupSyncError: membership?.status(of: engine).syncError)
            samples.append((index, session.id, figures))
        }
        broadcast.record(samples)
        if broadcast.keepsSampling() {
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.sampleInterval) { [weak self] in self?.sample() }
        }
    }

    public var listenerCount: Int { broadcast.listenerCount }

    /// Ends every page's stream (the daemon is stopping).
    public func stop() { broadcast.stop() }
}
