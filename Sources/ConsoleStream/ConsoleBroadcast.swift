import Console
import Dispatch
import Foundation
import HTTP
import Playback
import SenderProtocol
import ServerSentEvents
import Synchronization

/// The console's board and the pages that watch it: what `airlabd`'s console of its own receivers and
/// `airlab console` of receivers on other hosts share (docs/console.md). Whoever feeds it (a receiver's
/// `EventHub` in the process, or a receiver's `GET /events` read over HTTP) hands it typed
/// `PlaybackEvent`s; the one reducer (`ConsoleBoard`) keeps the tiles, and this sends them out.
///
/// Pages hear a snapshot of every tile when they connect, then the tiles that changed, coalesced: each
/// changed tile goes out once per `flushInterval` however many events changed it.
public final class ConsoleBroadcast: Sendable {
    private struct State {
        var board: ConsoleBoard
        var streams: [ObjectIdentifier: SSEStream] = [:]
        var flushScheduled = false
        /// True while the feeder's sampling runs; the first page to join while it does not starts it.
        var sampling = false
        var startSampling: (@Sendable () -> Void)?
    }

    /// `--console-control`: the page's controls reach the receivers; without it they answer 403.
    public let allowsControl: Bool
    /// Whether the page asks for pictures at the playhead: false where the console cannot make them.
    public let showsPictures: Bool
    public let receiverCount: Int
    private let state: Mutex<State>

    /// Pages watching at once; past it a page is answered 503. A page is one person, and each costs
    /// its queue of tiles.
    public static let listenerLimit = 16
    /// How long changes gather before they go out: ten updates a second is live to a person.
    public static let flushInterval = 0.1

    /// - Parameter receivers: name, profile and time scale of each receiver, in the order the page numbers them.
    public init(receivers: [(name: String, profile: String, timeScale: Double)], allowsControl: Bool, showsPictures: Bool) {
        self.allowsControl = allowsControl
        self.showsPictures = showsPictures
        receiverCount = receivers.count
        state = Mutex(State(board: ConsoleBoard(receivers: receivers)))
    }

    /// What runs when the first page joins while nothing samples: the feeder's reading of the figures
    /// that move without events. It goes on while `keepsSampling()` says so.
    public func whenWatched(_ startSampling: @escaping @Sendable () -> Void) {
        state.withLock { $0.startSampling = startSampling }
    }

    /// Applies what receiver `index` published. Returns whether a page watches, so that a feeder does
    /// work only pages see (pictures of a switch) while one does.
    @discardableResult
    public func record(_ events: [PlaybackEvent], of session: ConsoleSession?, receiver index: Int) -> Bool {
        let (schedule, watched) = state.withLock { state in
            state.board.apply(events, of: session, to: index)
            guard !state.flushScheduled, !state.streams.isEmpty else { return (false, !state.streams.isEmpty) }
            state.flushScheduled = true
            return (true, true)
        }
        if schedule { scheduleFlush() }
        return watched
    }

    /// Sets what was sampled of each receiver's session (a change only where a figure differs).
    public func record(_ samples: [(index: Int, session: String, sample: ConsoleTile.Sample)]) {
        let schedule = state.withLock { state in
            for sample in samples { state.board.record(sample.sample, of: sample.session, to: sample.index) }
            guard !state.streams.isEmpty, state.board.hasChanges, !state.flushScheduled else { return false }
            state.flushScheduled = true
            return true
        }
        if schedule { scheduleFlush() }
    }

    /// Whether the feeder's sampling should go on: while a page watches. When it says no, sampling has
    /// stopped, and the next page to join starts it again.
    public func keepsSampling() -> Bool {
        state.withLock { state in
            state.sampling = !state.streams.isEmpty
            return state.sampling
        }
    }

    private func scheduleFlush() {
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.flushInterval) { [weak self] in self?.flush() }
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

    /// A new page's event stream, greeted with every tile; nil when `listenerLimit` pages watch already.
    public func stream() -> SSEStream? {
        let stream = SSEStream(onClose: { [weak self] stream, _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
        })
        let (admitted, startSampling) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            guard state.streams.count < Self.listenerLimit else { return (false, nil) }
            let snapshot = Snapshot(control: allowsControl, pictures: showsPictures, tiles: state.board.tiles)
            stream.send(event: "snapshot", data: String(decoding: WireJSON.data(snapshot), as: UTF8.self))
            state.streams[ObjectIdentifier(stream)] = stream
            defer { state.sampling = true }
            return (true, state.sampling ? nil : state.startSampling)
        }
        if let startSampling { DispatchQueue.global().async { startSampling() } }
        return admitted ? stream : nil
    }

    public var listenerCount: Int { state.withLock { $0.streams.count } }

    /// Receiver `index`'s latest log lines; nil outside the board.
    public func log(of index: Int) -> [ConsoleBoard.LogLine]? {
        state.withLock { $0.board.log(of: index) }
    }

    /// Receiver `index`'s tile as it stands.
    public func tile(of index: Int) -> ConsoleTile? {
        state.withLock { state in state.board.tiles.indices.contains(index) ? state.board.tiles[index] : nil }
    }

    /// Ends every page's stream (the console is stopping).
    public func stop() {
        let streams = state.withLock { state in
            defer { state.streams.removeAll() }
            return Array(state.streams.values)
        }
        streams.forEach { $0.close() }
    }

    private struct Snapshot: Encodable {
        var control: Bool
        var pictures: Bool
        var tiles: [ConsoleTile]
    }
}
