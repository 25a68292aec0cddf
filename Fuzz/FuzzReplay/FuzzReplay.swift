import Foundation
import Synchronization

/// The fuzz targets' other life: built without `-D FUZZING` (as `swift build` builds every target), a
/// target is a program that runs its `LLVMFuzzerTestOneInput` over files, so the checked-in corpus and
/// every input a fuzzer once crashed on are replayed by the ordinary test run.
public enum FuzzReplay {
    /// As long as one input (its reading included) may take: `scripts/fuzz` gives libFuzzer the same
    /// `-timeout`, past which an input counts as a hang. `FUZZ_REPLAY_SECONDS` (1…600) changes it.
    public static var secondsPerInput: Int {
        let asked = ProcessInfo.processInfo.environment["FUZZ_REPLAY_SECONDS"].flatMap { Int($0) }
        return asked.map { min(max($0, 1), 600) } ?? 10
    }

    /// Runs `body` on every file named in `arguments` (a folder stands for the files in it, sorted) and
    /// exits 0; a file that cannot be read exits 2 naming it. A crash inside `body` is the failure, and
    /// so is an input that takes longer than `secondsPerInput`: exit 3, naming it.
    public static func main(_ arguments: ArraySlice<String>, _ body: (UnsafePointer<UInt8>, Int) -> CInt) -> Never {
        let watch = HangWatch(limit: .seconds(secondsPerInput))
        var count = 0
        for path in inputs(arguments) {
            watch.started(path)
            guard let file = FileHandle(forReadingAtPath: path), let data = try? file.readToEnd() ?? Data() else {
                FileHandle.standardError.write(Data("\(path): cannot be read\n".utf8))
                exit(2)
            }
            let bytes = [UInt8](data)
            // libFuzzer never passes a null pointer, even for an empty input; neither does the replay.
            _ = bytes.withUnsafeBufferPointer { buffer in
                body(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count)
            }
            count += 1
        }
        print("replayed \(count) inputs")
        exit(0)
    }

    private static func inputs(_ arguments: ArraySlice<String>) -> [String] {
        arguments.flatMap { path -> [String] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(path)/\($0)" }
        }
    }
}

/// Ends the replay when one input runs past its limit, which would otherwise leave the test that runs
/// the replay waiting on it; a thread of its own, since the input holds the main one.
private final class HangWatch: Sendable {
    private let current = Mutex<(path: String, since: ContinuousClock.Instant)?>(nil)

    init(limit: Duration) {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.2)
                guard let running = current.withLock({ $0 }), ContinuousClock.now - running.since > limit else { continue }
                FileHandle.standardError.write(Data("\(running.path): still running after \(limit) (a hang)\n".utf8))
                _exit(3)
            }
        }
        thread.start()
    }

    func started(_ path: String) {
        current.withLock { $0 = (path, .now) }
    }
}
