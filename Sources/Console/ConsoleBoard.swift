import Playback

/// Every receiver's tile, and which changed since the page was last told: the console's state as a
/// value. Events go in as they are published; `takeChanges()` gives each changed tile once however
/// many events changed it, which is what keeps 500 busy tiles from flooding a page.
public struct ConsoleBoard: Sendable {
    /// One line of a tile's event log, as the focus view lists it.
    public struct LogLine: Sendable, Equatable, Encodable {
        public var time: Double
        public var kind: String
        public var state: PlaybackState
        public var position: Double
        public var reason: String
    }

    public private(set) var tiles: [ConsoleTile]
    private var sessions: [ConsoleSession?]
    private var logs: [[LogLine]]
    private var changed: Set<Int> = []

    /// The most log lines kept per tile: the focus view shows the latest, memory stays bounded.
    public static let logLimit = 50

    /// - Parameter receivers: name, profile and time scale, in the fleet's order.
    public init(receivers: [(name: String, profile: String, timeScale: Double)]) {
        tiles = receivers.enumerated().map { ConsoleTile(index: $0.offset, receiver: $0.element.name, profile: $0.element.profile, timeScale: $0.element.timeScale) }
        sessions = Array(repeating: nil, count: receivers.count)
        logs = Array(repeating: [], count: receivers.count)
    }

    /// Applies what receiver `index` published; an index outside the board is ignored.
    public mutating func apply(_ events: [PlaybackEvent], of session: ConsoleSession?, to index: Int) {
        guard tiles.indices.contains(index), !events.isEmpty else { return }
        if session?.id != sessions[index]?.id {
            sessions[index] = session
            logs[index] = []
        }
        for event in events {
            tiles[index].apply(event, of: session)
            logs[index].append(LogLine(time: event.time, kind: event.kind.rawValue, state: event.state, position: event.position, reason: PathFreeText.scrubbed(event.reason)))
        }
        if logs[index].count > Self.logLimit { logs[index].removeFirst(logs[index].count - Self.logLimit) }
        changed.insert(index)
    }

    /// Sets what was sampled of receiver `index`'s session; a change only when it differs.
    public mutating func record(_ sample: ConsoleTile.Sample, of session: String, to index: Int) {
        guard tiles.indices.contains(index), tiles[index].session == session, tiles[index].sample != sample else { return }
        tiles[index].sample = sample
        tiles[index].version += 1
        changed.insert(index)
    }

    /// The tiles changed since the last call, in the fleet's order, each once.
    public mutating func takeChanges() -> [ConsoleTile] {
        defer { changed.removeAll(keepingCapacity: true) }
        return changed.sorted().map { tiles[$0] }
    }

    public var hasChanges: Bool { !changed.isEmpty }

    /// Receiver `index`'s latest log lines, oldest first; nil outside the board.
    public func log(of index: Int) -> [LogLine]? {
        logs.indices.contains(index) ? logs[index] : nil
    }

    /// The session receiver `index` plays or played last.
    public func session(of index: Int) -> ConsoleSession? {
        sessions.indices.contains(index) ? sessions[index] : nil
    }
}
