import COnDemand
import Foundation
import TestSupport
import Testing

/// FFmpeg's libraries, libcurl, libmicrohttpd and libcrypto come into a process only when it first
/// demuxes, fetches, serves or pairs (COnDemand), so that commands that do none of these start without
/// the libraries they bring.
@Suite("C libraries loaded on first use")
struct LibrariesOnDemandTests {
    /// The libraries the dynamic loader opened for one run of `airlab ARGUMENTS`, from its own trace.
    static func librariesOpened(by arguments: [String]) async throws -> String {
        let airlab = CommandRunner.productsDirectory.appendingPathComponent("airlab").path
        let result = try await BlockingWork.run {
            try CommandRunner.run(executableURL: URL(fileURLWithPath: "/usr/bin/env"), ["LD_DEBUG=files", airlab] + arguments)
        }
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        return result.stderr
    }

    /// What this process has mapped, read to its end: /proc files say they are empty, so a read by
    /// size would stop short.
    static func mappedFiles() throws -> String {
        String(decoding: try #require(FileHandle(forReadingAtPath: "/proc/self/maps")).readDataToEndOfFile(), as: UTF8.self)
    }

    @Test("airlab --help starts without loading libavformat, libavcodec, libavutil, libcurl, libmicrohttpd or libcrypto")
    func helpLoadsNeither() async throws {
        let trace = try await Self.librariesOpened(by: ["--help"])
        // The trace is there at all: glibc names every library it opens, libc among them.
        #expect(trace.contains("libc.so.6"))
        for library in ["libavformat.so", "libavcodec.so", "libavutil.so", "libcurl.so", "libmicrohttpd.so", "libcrypto.so"] {
            #expect(!trace.contains(library), "airlab --help opened \(library)")
        }
    }

    @Test("The first call loads FFmpeg, once, and every function Media calls is found")
    func ffmpegOnFirstUse() throws {
        #expect(COnDemand_ffmpegFailure() == nil)
        let maps = try Self.mappedFiles()
        #expect(maps.contains("libavformat.so"))
        #expect(maps.contains("libavutil.so"))
        // Asked again, the answer stands without a second load.
        #expect(COnDemand_ffmpegFailure() == nil)
    }

    @Test("The first call loads libcurl, and every function Transport calls is found")
    func curlOnFirstUse() throws {
        #expect(COnDemand_curlFailure() == nil)
        #expect(try Self.mappedFiles().contains("libcurl.so"))
    }

    @Test("The first call loads libmicrohttpd, and every function HTTP calls is found")
    func microhttpdOnFirstUse() throws {
        #expect(COnDemand_microhttpdFailure() == nil)
        #expect(try Self.mappedFiles().contains("libmicrohttpd.so"))
    }

    @Test("The first call loads libcrypto, and every function Cryptography calls is found")
    func cryptoOnFirstUse() throws {
        #expect(COnDemand_cryptoFailure() == nil)
        #expect(try Self.mappedFiles().contains("libcrypto.so"))
    }
}
