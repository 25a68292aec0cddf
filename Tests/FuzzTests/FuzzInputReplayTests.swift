import Foundation
import Testing
import TestSupport

/// Every input kept for a fuzz target (its seed corpus, what `make fuzz --keep` added, and each input a
/// fuzzer once crashed or hung on) runs through the target's replay program on every test run, so a
/// fixed crash stays fixed.
@Suite struct FuzzInputReplayTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The targets, one per folder of Fuzz/corpus, so a new target cannot be left out of the replay.
    static var targets: [String] {
        let corpus = fuzzFolder.appendingPathComponent("corpus").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func everyFuzzTargetHasASeedCorpusAndADictionary() throws {
        #expect(Self.targets.count >= 2)
        for target in Self.targets {
            let seeds = try FileManager.default.contentsOfDirectory(atPath: Self.fuzzFolder.appendingPathComponent("corpus/\(target)").path)
            #expect(!seeds.isEmpty, "Fuzz/corpus/\(target) has no seeds")
            #expect(FileManager.default.fileExists(atPath: Self.fuzzFolder.appendingPathComponent("dictionaries/\(target).dict").path),
                "Fuzz/dictionaries/\(target).dict is missing")
        }
    }

    /// The replays run on threads of their own: eleven of them at once, each seconds long, on Swift's
    /// cooperative pool (two threads here) stalled every other test of the run for half a minute, and
    /// timing tests failed for it.
    @Test(arguments: targets)
    func keptInputsOfATargetRunWithoutACrash(target: String) async throws {
        let folders = ["corpus", "regressions"].map { Self.fuzzFolder.appendingPathComponent("\($0)/\(target)").path }
            .filter { FileManager.default.fileExists(atPath: $0) }
        let expected = try folders.reduce(0) { $0 + (try FileManager.default.contentsOfDirectory(atPath: $1).filter { !$0.hasPrefix(".") }.count) }
        let result = try await BlockingWork.run { try CommandRunner.run("fuzz-\(target)", folders) }
        #expect(result.status == 0, "fuzz-\(target) failed on a kept input: \(result.stderr.suffix(2000))")
        #expect(result.stdout.contains("replayed \(expected) inputs"), "\(result.stdout)")
    }
}

@Suite struct FuzzReplayLimitTests {
    @Test("An input still running after the replay's limit ends the replay with exit 3, naming the input")
    func aHangingInputEndsTheReplay() async throws {
        // A FIFO nobody writes to: reading it never finishes, as an input that hangs the target never would.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("airlab-fuzz-hang-\(UUID().uuidString)")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }

        let replay = CommandRunner.productsDirectory.appendingPathComponent("fuzz-playlist").path
        let path = fifo.path
        let result = try await BlockingWork.run {
            try CommandRunner.run(executableURL: URL(fileURLWithPath: "/usr/bin/env"), ["FUZZ_REPLAY_SECONDS=1", replay, path])
        }

        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("\(fifo.path): still running after"), "\(result.stderr)")
    }
}
