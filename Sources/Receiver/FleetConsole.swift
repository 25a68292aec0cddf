import Console
import Dispatch
import Foundation
import HTTP
import Playback
import SenderProtocol
import ServerSentEvents
import Synchronization

/// The live console of one `airlabd` (docs/console.md): every receiver's tile, kept from the events the
/// receivers publish, and the pages that watch them.
///
/// Nothing polls a receiver: each receiver's `EventHub` hands its events to the board as they are
/// published. Pages hear a snapshot of every tile when they connect, then the tiles that changed,
/// coalesced: each changed tile goes out once per `flushInterval` however many events changed it.
public final class FleetConsole: Sendable {
    private struct State {
        var board: ConsoleBoard
        var streams: [ObjectIdentifier: SSEStream] = [:]
        var flushScheduled = false
        var sampling = false
    }

    let fleet: ReceiverFleet
    /// `--console-control`: the page's controls reach the receivers; without it they answer 403.
    public let allowsControl: Bool
    private let state: Mutex<State>
    /// The tiles' pictures.
    let frames: ConsoleFrames

    /// Pages watching at once; past it a page is answered 503. A page is one person, and each costs
    /// its queue of tiles.
    public static let listenerLimit = 16
    /// How long changes gather before they go out: ten updates a second is live to a person.
    static let flushInterval = 0.1

    public init(fleet: ReceiverFleet, allowsControl: Bool) {
        self.fleet = fleet
        self.allowsControl = allowsControl
        frames = ConsoleFrames(fleet: fleet)
        let receivers = fleet.receivers.map { (name: $0.configuration.name, profile: $0.configuration.profile.name, timeScale: $0.configuration.timeScale) }
        state = Mutex(State(board: ConsoleBoard(receivers: receivers)))
        for (index, receiver) in fleet.receivers.enumerated() {
            receiver.core.hub.observe { [weak self] events, session in
                self?.record(events, of: session, receiver: index)
            }
        }
    }

    /// The password the console asks for: the receivers' own, when they have one (a fleet file may give
    /// each its own; the first one set guards the console).
    var password: String? {
        fleet.receivers.lazy.compactMap(\.configuration.password).first
    }

    private func record(_ events: [PlaybackEvent], of session: ConsoleSession?, receiver index: Int) {
        let (schedule, watched) = state.withLock { state in
            state.board.apply(events, of: session, to: index)
            guard !state.flushScheduled, !state.streams.isEmpty else { return (false, !state.streams.isEmpty) }
            state.flushScheduled = true
            return (true, true)
        }
        // The pictures either side of a switch into a break, for the focus view: made only while a page
        // watches, so that a fleet nobody looks at decodes nothing.
        if watched {
            for event in events {
                guard case .interstitialStarted(let place, _) = event.detail else { continue }
                Task { [frames] in await frames.recordTransition(of: index, into: place.eventID, leaving: event.position) }
            }
        }
        if schedule {
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.flushInterval) { [weak self] in self?.flush() }
        }
    }

    /// Sends the tiles changed since the last flush to every page, encoded once. Under the lock, so that
    /// a page that joins gets its snapshot before any change made after it.
    private func flush() {
        state.withLock { state in
            state.flushScheduled = false
            let changed = state.board.takeChanges()
            guard !changed.isEmpty else { return }
            let frame = ServerSentEvent(event: "tiles", data: String(decoding: WireJSON.data(changed), as: UTF8.self)).frame
            for (key, stream) in state.streams where stream.send(frame) != .queued {
                state.streams.removeValue(forKey: key)
            }
        }
    }

    /// How often the figures that move without events (buffer ahead, group sync error) are read.
    static let sampleInterval = 1.0

    /// Reads each playing session's buffer ahead and group sync error, once a `sampleInterval` while a
    /// page watches: a look at its engine in this process, never a request to a receiver.
    private func sample() {
        for (index, receiver) in fleet.receivers.enumerated() {
            guard let session = receiver.core.current, let engine = session.activeEngineNow else { continue }
            let membership = session.membership
            let figures = ConsoleTile.Sample(
                bufferAhead: engine.bufferStatus?.ahead, group: membership?.request.groupID, groupSyncError: membership?.status(of: engine).syncError)
            state.withLock { $0.board.record(figures, of: session.id, to: index) }
        }
        let (again, flushes) = state.withLock { state in
            state.sampling = !state.streams.isEmpty
            let flushes = state.sampling && state.board.hasChanges && !state.flushScheduled
            if flushes { state.flushScheduled = true }
            return (state.sampling, flushes)
        }
        if flushes { DispatchQueue.global().asyncAfter(deadline: .now() + Self.flushInterval) { [weak self] in self?.flush() } }
        if again { DispatchQueue.global().asyncAfter(deadline: .now() + Self.sampleInterval) { [weak self] in self?.sample() } }
    }

    /// A new page's event stream, greeted with every tile; nil when `listenerLimit` pages watch already.
    func stream() -> SSEStream? {
        let stream = SSEStream(onClose: { [weak self] stream, _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
        })
        let (admitted, startSampling) = state.withLock { state in
            guard state.streams.count < Self.listenerLimit else { return (false, false) }
            let snapshot = Snapshot(control: allowsControl, tiles: state.board.tiles)
            stream.send(event: "snapshot", data: String(decoding: WireJSON.data(snapshot), as: UTF8.self))
            state.streams[ObjectIdentifier(stream)] = stream
            defer { state.sampling = true }
            return (true, !state.sampling)
        }
        if startSampling { DispatchQueue.global().async { [weak self] in self?.sample() } }
        return admitted ? stream : nil
    }

    public var listenerCount: Int { state.withLock { $0.streams.count } }

    func log(of index: Int) -> [ConsoleBoard.LogLine]? {
        state.withLock { $0.board.log(of: index) }
    }

    /// Ends every page's stream (the daemon is stopping).
    public func stop() {
        let streams = state.withLock { state in
            defer { state.streams.removeAll() }
            return Array(state.streams.values)
        }
        streams.forEach { $0.close() }
    }

    private struct Snapshot: Encodable {
        var control: Bool
        var tiles: [ConsoleTile]
    }
}
