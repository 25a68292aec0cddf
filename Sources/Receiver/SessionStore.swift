import Foundation
import Sessions
import Synchronization

/// The sessions a receiver has played: reports written to the state directory when a session ends,
/// atomically (a temporary file renamed into place), and read back when the receiver starts, so
/// `/sessions` survives restarts.
///
/// Memory holds the newest `listLimit` sessions, so a daemon (or a fleet of hundreds of receivers)
/// that plays sessions for months does not grow with them. With a state directory a report is read
/// from its file when asked for, older sessions' included (they are counted in `earlier`, not listed);
/// without one the reports of the listed sessions are all there is.
final class SessionStore: Sendable {
    /// One line of `/sessions`.
    struct Entry: Sendable, Codable {
        var id: String
        var startedAt: Date
        var profile: String
        var playlist: String
        var endReason: String?
    }

    /// The file: the entry and the report together, so a report never loses its place in the list.
    private struct StoredSession: Codable {
        var entry: Entry
        var report: SessionReport
    }

    /// An entry costs about 400 bytes: a soak of 50 receivers and 35,000 sessions grew airlabd by 17 MiB
    /// when every entry stayed, and 1,000 a receiver still let a fleet grow by 20 MiB.
    static let listLimit = 200
    private let directory: URL?
    /// Files in the state directory that are not readable reports (left there, untouched).
    let unreadable: [String]
    private let sessions = Mutex(Kept())

    private struct Kept {
        /// The newest sessions, oldest first.
        var entries: [Entry] = []
        var reports: [String: SessionReport] = [:]
        /// Sessions whose files are in the state directory but which fell off `entries`.
        var earlier = 0

        mutating func append(_ entry: Entry, limit: Int) {
            entries.append(entry)
            guard entries.count > limit else { return }
            let dropped = entries.count - limit
            for old in entries[..<dropped] { reports[old.id] = nil }
            entries.removeFirst(dropped)
            earlier += dropped
        }
    }

    /// Reads the reports already in `directory`/sessions; a file that cannot be read is skipped and
    /// named in `unreadable`, never fatal.
    init(directory: URL?) throws(ReceiverError) {
        self.directory = directory.map { $0.appendingPathComponent("sessions", isDirectory: true) }
        guard let folder = self.directory else {
            unreadable = []
            return
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ReceiverError("the state directory \(folder.path) cannot be created (\(error.localizedDescription))")
        }
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        var entries: [Entry] = []
        var unreadable: [String] = []
        let decoder = Self.decoder
        for file in files where file.pathExtension == "json" {
            guard let data = try? Data(contentsOf: file), let stored = try? decoder.decode(StoredSession.self, from: data) else {
                unreadable.append(file.lastPathComponent)
                continue
            }
            entries.append(stored.entry)
        }
        entries.sort { $0.startedAt < $1.startedAt }
        self.unreadable = unreadable
        sessions.withLock { kept in
            kept.earlier = max(0, entries.count - Self.listLimit)
            kept.entries = Array(entries.suffix(Self.listLimit))
        }
    }

    /// The newest sessions, oldest first, and how many older ones have reports on disk.
    var listing: (entries: [Entry], earlier: Int) { sessions.withLock { ($0.entries, $0.earlier) } }

    var latest: Entry? { sessions.withLock { $0.entries.last } }

    func report(id: String) -> SessionReport? {
        if let kept = sessions.withLock({ $0.reports[id] }) { return kept }
        // Only the receiver's own session ids name files (lowercase UUIDs), so a request can never name
        // a file of its own choosing.
        guard let directory, Self.isSessionID(id) else { return nil }
        let file = directory.appendingPathComponent("\(id).json")
        return (try? Data(contentsOf: file)).flatMap { try? Self.decoder.decode(StoredSession.self, from: $0).report }
    }

    /// The form `ReceiverCore` gives session ids: a UUID in lowercase.
    static func isSessionID(_ text: String) -> Bool {
        UUID(uuidString: text)?.uuidString.lowercased() == text
    }

    /// Keeps a finished session: listed and served from memory at once, and, with a state directory,
    /// written to disk on the writer's thread, after which its file serves it. A write that fails is
    /// handed to `failed` for the log, and the report stays in memory instead: nothing is lost.
    ///
    /// The write (JSON encoding, then a file renamed into place with an fsync) takes milliseconds to a
    /// loaded disk's hundreds: done where the session ended, it held the thread that ended it, a
    /// clock alarm every receiver shares or one of Swift's two shared threads.
    func save(_ entry: Entry, report: SessionReport, failed: @escaping @Sendable (String) -> Void = { _ in }) {
        sessions.withLock { kept in
            kept.reports[entry.id] = report
            kept.append(entry, limit: Self.listLimit)
            if directory == nil { kept.earlier = 0 }  // nothing older can be read back
        }
        guard let directory else { return }
        Self.writer.async(group: writes) { [self] in
            let file = directory.appendingPathComponent("\(entry.id).json")
            do {
                let data = try Self.encoder.encode(StoredSession(entry: entry, report: report))
                // Data.write(.atomic) writes a temporary file beside the target and renames it over.
                try data.write(to: file, options: .atomic)
                sessions.withLock { _ = $0.reports.removeValue(forKey: entry.id) }
            } catch {
                failed("the report of session \(entry.id) could not be written to \(file.path): \(error.localizedDescription)")
            }
        }
    }

    /// Returns once every report saved so far is on disk (or has failed to be): what a receiver that
    /// shuts down waits for.
    func flush() {
        writes.wait()
    }

    /// One thread writes every store's reports, in the order sessions ended.
    private static let writer = DispatchQueue(label: "airlab.sessions.writer", qos: .utility)
    private let writes = DispatchGroup()

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// A receiver that cannot start, with the reason in one line.
public struct ReceiverError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
