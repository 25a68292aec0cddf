import Foundation
import Testing
import TestSupport
@testable import Loading

/// Measured reads (`--media realtime`'s segment fetches): the loader's rules, with the body counted
/// and dropped.
@Suite("Measured reads over HTTP from a real server on 127.0.0.1")
struct MeasuredReadTests {
    let loader = ResourceLoader(timeout: 20)
    let network = ResourceReferrer.input(allowingLocalFiles: false)

    func withServer(_ body: (TestHTTPServer, Scratch) async throws -> Void) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("seg.ts", Data(repeating: 0x47, count: 188 * 1000))
        let server = try await BlockingWork.server(serving: scratch.url)
        defer { server.stop() }
        try await body(server, scratch)
    }

    @Test("A segment is counted, not kept: its bytes, its head and its time to the first byte, and nothing reserved from the memory budget")
    func counts() async throws {
        try await withServer { server, _ in
            let budget = LoadMemoryBudget(limit: 1024)
            let read = try await ResourceLoader(timeout: 20, memoryBudget: budget).measure(
                try ResourceLocation(url: server.url("_redirect/2/seg.ts")), maximumSize: 1 << 20, referrer: network,
                pacing: ReadPacing(client: "rx-1", bytesPerSecond: 10_000_000))
            #expect(read.bytes == 188 * 1000)
            #expect(read.response?.status == 200)
            #expect(read.response?.firstByteSeconds != nil)
            #expect(read.finalLocation.url.path == "/seg.ts")
            #expect(budget.held == 0)
        }
    }

    @Test("A body over the cap, a redirect to a file: URL, too many redirects and a local file are refused as a load refuses them")
    func rules() async throws {
        try await withServer { server, scratch in
            let cases: [(String, LoadingError.Reason)] = [
                (server.url("seg.ts").absoluteString, .tooLarge(limit: 1000, size: 188 * 1000)),
                (server.url("_redirect-to?\(scratch.url.appendingPathComponent("seg.ts").absoluteString)").absoluteString, .unsupportedScheme("file")),
                (server.url("_redirect/5/seg.ts").absoluteString, .tooManyRedirects(5)),
                (scratch.url.appendingPathComponent("seg.ts").absoluteString, .localInputNotAllowed),
            ]
            for (url, reason) in cases {
                let error = await #expect(throws: LoadingError.self) {
                    try await loader.measure(try ResourceLocation(argument: url), maximumSize: 1000, referrer: network)
                }
                #expect(error?.reason == reason, "\(url)")
            }
        }
    }

    @Test("A body without end stops at the cap")
    func endless() async throws {
        try await withServer { server, _ in
            let error = await #expect(throws: LoadingError.self) {
                try await loader.measure(try ResourceLocation(url: server.url("_endless")), maximumSize: 1 << 20, referrer: network)
            }
            #expect(error?.reason == .tooLarge(limit: 1 << 20, size: nil))
        }
    }
}
