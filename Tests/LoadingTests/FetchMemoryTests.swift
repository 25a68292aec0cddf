import Foundation
import Testing
import TestSupport
@testable import Loading

/// What concurrent reads may hold: each read streams and stops at its own cap, and all of them
/// together stay within the loader's shared budget.
@Suite("Bounded memory for fetches")
struct FetchMemoryTests {
    static let mebibyte = 1 << 20

    func withServer(_ body: (TestHTTPServer, Scratch) async throws -> Void) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }
        try await body(server, scratch)
    }

    /// Four loads of `_endless`, at once, each capped at `cap`; their errors in input order.
    func fourEndlessLoads(_ server: TestHTTPServer, loader: ResourceLoader, cap: Int) async throws -> [LoadingError.Reason?] {
        let locations = try (0..<4).map { try ResourceLocation(url: server.url("_endless/\($0)")) }
        return await withTaskGroup(of: Indexed<LoadingError.Reason?>.self) { group in
            for (index, location) in locations.enumerated() {
                group.addTask {
                    do throws(LoadingError) {
                        _ = try await loader.load(location, maximumSize: cap, allowingLocalFiles: false)
                        return Indexed(index: index, value: nil)
                    } catch {
                        return Indexed(index: index, value: error.reason)
                    }
                }
            }
            return await Indexed.inOrder(&group)
        }
    }

    @Test("Four concurrent endless bodies each stop at their own cap and are refused as too large")
    func endlessBodiesStopAtTheirCaps() async throws {
        try await withServer { server, _ in
            let budget = LoadMemoryBudget(limit: 64 * Self.mebibyte)
            let loader = ResourceLoader(timeout: 5, memoryBudget: budget)
            let reasons = try await fourEndlessLoads(server, loader: loader, cap: Self.mebibyte)
            // A timeout here would mean the transfer ran on past its cap instead of being cancelled.
            #expect(reasons == Array(repeating: .tooLarge(limit: Self.mebibyte, size: nil), count: 4))
            // Each read held at most its cap: together, never more than four caps.
            #expect(budget.peak <= 4 * Self.mebibyte)
            #expect(budget.peak > 0)
            #expect(budget.held == 0)
        }
    }

    @Test("Four concurrent endless bodies whose caps add up to more than the shared budget never hold more than it")
    func sharedBudgetBoundsConcurrentReads() async throws {
        try await withServer { server, _ in
            let budget = LoadMemoryBudget(limit: 2 * Self.mebibyte)
            let loader = ResourceLoader(timeout: 5, memoryBudget: budget)
            let reasons = try await fourEndlessLoads(server, loader: loader, cap: Self.mebibyte)
            // Each stops at its cap, or sooner, when the others already hold the budget.
            for reason in reasons {
                #expect(reason == .tooLarge(limit: Self.mebibyte, size: nil) || reason == .memoryBudgetExhausted(limit: 2 * Self.mebibyte))
            }
            #expect(budget.peak <= budget.limit)
            #expect(budget.peak >= Self.mebibyte)
            #expect(budget.held == 0)
        }
    }

    @Test("A read fails at once, naming the input and the shared cap, when other reads hold the budget")
    func readFailsWhenOthersHoldTheBudget() async throws {
        try await withServer { server, scratch in
            try scratch.write("media.m3u8", String(repeating: "#", count: 5000))
            let budget = LoadMemoryBudget(limit: 10_000)
            let loader = ResourceLoader(timeout: 5, memoryBudget: budget)
            // Another read in progress holds most of the budget.
            #expect(budget.reserve(8000, holding: 0))

            let stream = try ResourceLocation(url: server.url("_stream/100000"))
            let error = await #expect(throws: LoadingError.self) {
                try await loader.load(stream, maximumSize: Self.mebibyte, allowingLocalFiles: false)
            }
            #expect(error?.reason == .memoryBudgetExhausted(limit: 10_000))
            #expect(error?.description.hasPrefix(stream.description) == true)
            #expect(error?.description.contains("10000 bytes all reads may hold at once") == true)

            let file = try ResourceLocation(url: scratch.url.appendingPathComponent("media.m3u8"))
            let local = await #expect(throws: LoadingError.self) {
                try await loader.load(file, maximumSize: Self.mebibyte, allowingLocalFiles: true)
            }
            #expect(local?.reason == .memoryBudgetExhausted(limit: 10_000))
            #expect(budget.held == 8000)

            // Once the other read hands its bytes over, the same reads go through.
            budget.release(8000)
            #expect(try await loader.load(stream, maximumSize: Self.mebibyte, allowingLocalFiles: false).data.count == 100_000)
            #expect(try await loader.load(file, maximumSize: Self.mebibyte, allowingLocalFiles: true).data.count == 5000)
            #expect(budget.held == 0)
        }
    }

    @Test("A read alone may go past the shared budget up to its own cap, so a cap above the budget still works")
    func loneReadMayPassTheBudget() async throws {
        try await withServer { server, _ in
            let budget = LoadMemoryBudget(limit: 10_000)
            let loader = ResourceLoader(timeout: 5, memoryBudget: budget)
            let resource = try await loader.load(
                try ResourceLocation(url: server.url("_stream/100000")), maximumSize: Self.mebibyte, allowingLocalFiles: false)
            #expect(resource.data.count == 100_000)
            #expect(resource.data.allSatisfy { $0 == UInt8(ascii: "#") })
            #expect(budget.peak == 100_000)
            #expect(budget.held == 0)
        }
    }

    @Test("The budget lends to a read while others fit beside it, refuses when they would not, and takes bytes back")
    func budgetAccounting() {
        let budget = LoadMemoryBudget(limit: 100)
        #expect(budget.reserve(60, holding: 0))
        #expect(budget.reserve(30, holding: 0))
        // 60 + 30 + 20 > 100, and the asking read (holding 30) is not alone.
        #expect(!budget.reserve(20, holding: 30))
        #expect(budget.reserve(10, holding: 30))
        #expect(budget.held == 100)
        budget.release(60)
        budget.release(40)
        #expect(budget.held == 0)
        // Alone, a read may go past the limit; a second read then gets nothing until it gives back.
        #expect(budget.reserve(150, holding: 0))
        #expect(!budget.reserve(1, holding: 0))
        #expect(budget.peak == 150)
        budget.release(150)
        #expect(budget.held == 0)
    }

    @Test("A body cut to its first bytes keeps exactly the cap and gives its bytes back when handed over")
    func keptPrefixIsReleased() async throws {
        try await withServer { server, _ in
            let budget = LoadMemoryBudget(limit: 64 * Self.mebibyte)
            let loader = ResourceLoader(timeout: 5, memoryBudget: budget)
            let resource = try await loader.load(
                try ResourceLocation(url: server.url("_endless")), maximumSize: 300_000, referrer: .input(allowingLocalFiles: false),
                overflow: .keepFirst)
            #expect(resource.data.count == 300_000)
            #expect(resource.isTruncated)
            #expect(budget.peak == 300_000)
            #expect(budget.held == 0)
        }
    }
}
