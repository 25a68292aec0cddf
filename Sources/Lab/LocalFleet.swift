import ChildProcess
import Foundation
import HLS
import NumberText
import OwnThreads
import Playback
import SenderProtocol
import Synchronization

/// A fleet of receivers in one `airlabd` this process starts on 127.0.0.1, one per profile, for a lab
/// run that needs no network: any free ports, no mDNS, a state folder of its own that goes away after.
public final class LocalFleet: Sendable {
    public let receivers: [Receiver]
    /// The daemon's live console (docs/console.md), read-only, on a port of its own.
    public let console: String?
    private let daemon: ChildProcess
    private let folder: URL

    private init(receivers: [Receiver], console: String?, daemon: ChildProcess, folder: URL) {
        self.receivers = receivers
        self.console = console
        self.daemon = daemon
        self.folder = folder
    }

    /// `airlabd` next to the running executable, as SwiftPM and an install both place it.
    public static var siblingDaemon: URL {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("airlabd")
    }

    /// Starts the daemon and returns once it has said every receiver listens (`airlabd: ready`).
    ///
    /// - Parameters:
    ///   - profiles: shipped profile names or profile files, one receiver each.
    ///   - timeScale: how much faster than real time the receivers' clocks run.
    ///   - media: what the receivers do with the media (`airlabd --media`).
    public static func start(
        profiles: [String], timeScale: Double? = nil, media: MediaMode = .probe, daemon executable: URL = siblingDaemon, startTimeout: Double = 60
    ) async throws(FleetError) -> LocalFleet {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw FleetError("cannot start a local fleet: \(executable.path) is not there (build it with 'swift build')")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("airlab-fleet-\(UUID().uuidString)")
        let stateFolder = folder.appendingPathComponent("state")
        let log = folder.appendingPathComponent("airlabd.log")
        do {
            try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true)
        } catch {
            throw FleetError("cannot start a local fleet: cannot make \(stateFolder.path)")
        }
        var arguments = profiles.flatMap { ["--profile", $0] }
        // The lifeline: a lab run that dies (killed, crashed) takes its local fleet with it.
        arguments += ["--address", "127.0.0.1", "--port", "0", "--no-mdns", "--state-dir", stateFolder.path, "--stop-on-stdin-close"]
        // A person may watch the run live; the console is read-only, on 127.0.0.1 like the receivers.
        arguments += ["--console", "127.0.0.1:0"]
        if let timeScale { arguments += ["--time-scale", timeScale.plainText] }
        if media != .probe { arguments += ["--media", media.rawValue] }
        let process: ChildProcess
        do {
            process = try ChildProcess(
                [executable.path] + arguments, standardInput: .lifeline, standardOutput: .pipe, standardError: .file(log, append: true))
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw FleetError("cannot start a local fleet: \(error)")
        }
        let startup = await BlockingCall.run { () -> Result<Announced, FleetError> in
            Self.awaitReady(process, log: log, timeout: startTimeout)
        }
        switch startup {
        case .success(let announced):
            process.discardOutput()
            return LocalFleet(receivers: announced.receivers, console: announced.console, daemon: process, folder: folder)
        case .failure(let error):
            _ = await BlockingCall.run { () -> Int32 in process.terminate(grace: 2) }
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Reads the daemon's announcements until `airlabd: ready`; a daemon that exits first, or takes
    /// longer than `timeout`, is a failure that quotes the last thing it said on stderr.
    private struct Announced {
        var receivers: [Receiver] = []
        var console: String?
    }

    private static func awaitReady(_ process: ChildProcess, log: URL, timeout: Double) -> Result<Announced, FleetError> {
        let expired = Flag()
        let watchdog = DispatchWorkItem {
            expired.raise()
            process.signal(SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        var announced = Announced()
        while let line = process.readLine() {
            if line == ReadyAnnouncement.ready { return .success(announced) }
            if let receiver = FleetAnnouncement.receiver(in: line) { announced.receivers.append(receiver) }
            if let console = ReadyAnnouncement.console(in: line) { announced.console = console }
        }
        let status = process.waitUntilExit()
        let said = (try? String(contentsOf: log, encoding: .utf8))?
            .split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        let why = expired.isRaised ? "was not ready within \(timeout.plainText) s" : "exited with status \(status)"
        return .failure(FleetError("the local fleet's airlabd \(why)" + (said.isEmpty ? "" : ": \(said)")))
    }

    /// Stops the daemon as systemd would (SIGTERM: sessions end, reports are written), waits for it,
    /// and removes its state folder.
    public func stop() async {
        let daemon = daemon
        _ = await BlockingCall.run { () -> Int32 in daemon.terminate(grace: 10) }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A flag one thread raises and another reads.
final class Flag: Sendable {
    private let raised = Mutex(false)
    func raise() { raised.withLock { $0 = true } }
    var isRaised: Bool { raised.withLock { $0 } }
}

/// The lines `airlabd` prints on stdout once a receiver listens, as receivers.
enum FleetAnnouncement {
    static func receiver(in line: String) -> Receiver? {
        guard let announced = ReadyAnnouncement.receiver(in: line), let address = ReceiverAddress(parsing: announced.authority) else {
            return nil
        }
        return Receiver(name: announced.name, address: address, profile: announced.profile)
    }
}

/// Why a local fleet could not start.
public struct FleetError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
