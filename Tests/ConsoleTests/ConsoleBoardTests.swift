import Console
import Playback
import Testing

@Suite("The console board coalesces changes per tile")
struct ConsoleBoardTests {
    static func board(_ count: Int) -> ConsoleBoard {
        ConsoleBoard(receivers: (0..<count).map { (name: "TV #\($0 + 1)", profile: "smart-tv-low", timeScale: 1) })
    }

    static func event(_ time: Double) -> PlaybackEvent {
        PlaybackEvent(time: time, state: .playingPrimary, position: time, rate: 1, detail: .rateChanged, reason: "tick")
    }

    @Test("Many events on one tile are one change, given once")
    func coalesced() {
        var board = Self.board(500)
        let session = ConsoleSession(id: "s", duration: 60, breaks: BreakRules())
        for time in 0..<100 { board.apply([Self.event(Double(time))], of: session, to: 7) }
        board.apply([Self.event(1)], of: session, to: 3)
        let changes = board.takeChanges()
        #expect(changes.map(\.index) == [3, 7])
        #expect(changes.last?.position == 99)
        #expect(board.takeChanges().isEmpty)
    }

    @Test("A sample is a change only when it differs, as rounded, and only for the tile's session")
    func samples() {
        var board = Self.board(2)
        let session = ConsoleSession(id: "s", duration: 60, breaks: BreakRules())
        board.apply([Self.event(1)], of: session, to: 0)
        _ = board.takeChanges()
        board.record(ConsoleTile.Sample(bufferAhead: 12.34, group: "g", groupSyncError: 0.0123), of: "s", to: 0)
        #expect(board.takeChanges().first?.bufferAhead == 12.3)
        board.record(ConsoleTile.Sample(bufferAhead: 12.31, group: "g", groupSyncError: 0.01234), of: "s", to: 0)
        board.record(ConsoleTile.Sample(bufferAhead: 5, group: nil, groupSyncError: nil), of: "other", to: 0)
        board.record(ConsoleTile.Sample(bufferAhead: 5, group: nil, groupSyncError: nil), of: "s", to: 1)
        #expect(board.takeChanges().isEmpty)
        #expect(board.tiles[0].groupSyncError == 0.012)
    }

    @Test("The log keeps the latest lines of the tile's session; an unknown index is ignored")
    func boundedLog() {
        var board = Self.board(2)
        let session = ConsoleSession(id: "s", duration: 60, breaks: BreakRules())
        for time in 0..<(ConsoleBoard.logLimit + 20) { board.apply([Self.event(Double(time))], of: session, to: 1) }
        board.apply([Self.event(1)], of: session, to: 2)
        board.apply([Self.event(1)], of: session, to: -1)
        #expect(board.log(of: 1)?.count == ConsoleBoard.logLimit)
        #expect(board.log(of: 1)?.last?.time == Double(ConsoleBoard.logLimit + 19))
        #expect(board.log(of: 2) == nil)
        #expect(board.takeChanges().map(\.index) == [1])
    }
}
