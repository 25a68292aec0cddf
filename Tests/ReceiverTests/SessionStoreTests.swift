import Foundation
@testable import Receiver
import Sessions
import Testing

@Suite("Stored sessions")
struct SessionStoreTests {
    private func entry(_ index: Int) -> SessionStore.Entry {
        SessionStore.Entry(
            id: UUID().uuidString.lowercased(), startedAt: Date(timeIntervalSince1970: Double(index)), profile: "apple-tv-4k",
            playlist: "http://127.0.0.1/\(index).m3u8", endReason: "ended")
    }

    private func report(_ index: Int) -> SessionReport {
        SessionRecorder(profile: "apple-tv-4k", playlist: "http://127.0.0.1/\(index).m3u8", seed: UInt64(index), startPosition: 0).finish(at: 0)
    }

    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("airlab-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("With a state directory memory lists only the newest sessions; older reports are still read from disk, across restarts")
    func listIsBoundedReportsAreNot() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let extra = 7
        let entries = (0..<(SessionStore.listLimit + extra)).map(entry)
        for (index, entry) in entries.enumerated() {
            store.save(entry, report: report(index), failed: { Issue.record("\($0)") })
        }
        // Listed at once, written on the writer's thread; a restart reads what was written.
        #expect(store.listing.entries.count == SessionStore.listLimit)
        store.flush()

        let listing = store.listing
        #expect(listing.entries.count == SessionStore.listLimit)
        #expect(listing.earlier == extra)
        #expect(listing.entries.first?.id == entries[extra].id)
        #expect(store.latest?.id == entries.last?.id)
        #expect(store.report(id: entries[0].id)?.seed == 0)

        let restarted = try SessionStore(directory: directory)
        #expect(restarted.listing.entries.map(\.id) == listing.entries.map(\.id))
        #expect(restarted.listing.earlier == extra)
        #expect(restarted.report(id: entries[1].id)?.seed == 1)
    }

    @Test("Only a session id in the receiver's own form names a file: no path, no other spelling")
    func onlySessionIDsNameFiles() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let kept = entry(1)
        store.save(kept, report: report(1))
        store.flush()
        // A readable report under a name that is not a session id.
        try FileManager.default.copyItem(
            at: directory.appendingPathComponent("sessions/\(kept.id).json"), to: directory.appendingPathComponent("sessions/other.json"))

        #expect(store.report(id: kept.id) != nil)
        #expect(store.report(id: kept.id.uppercased()) == nil)
        #expect(store.report(id: "other") == nil)
        #expect(store.report(id: "../sessions/\(kept.id)") == nil)
    }

    @Test("Without a state directory only the newest reports are kept, and nothing older is announced")
    func memoryOnlyKeepsTheNewest() throws {
        let store = try SessionStore(directory: nil)
        let entries = (0..<(SessionStore.listLimit + 3)).map(entry)
        for (index, entry) in entries.enumerated() { store.save(entry, report: report(index)) }

        #expect(store.listing.entries.count == SessionStore.listLimit)
        #expect(store.listing.earlier == 0)
        #expect(store.report(id: entries[0].id) == nil)
        #expect(store.report(id: entries[3].id)?.seed == 3)
    }
}
