import Foundation
import TestSupport
import Testing

/// The release binaries, as `make install` installs them, carry the Swift runtime and Foundation
/// inside: they need no toolchain on the machine. Run in `make test`'s second pass, which points
/// `AIRLAB_PRODUCTS` at that build; the debug products link the toolchain's libraries on purpose.
@Suite("Static release binaries", .enabled(if: ProcessInfo.processInfo.environment["AIRLAB_PRODUCTS"]?.contains("/release") == true))
struct StaticBinaryTests {
    @Test("airlab and airlabd load no library of the Swift toolchain", arguments: ["airlab", "airlabd"])
    func noToolchainLibraries(binary: String) async throws {
        let path = CommandRunner.productsDirectory.appendingPathComponent(binary).path
        let result = try await BlockingWork.run { try CommandRunner.run(executableURL: URL(fileURLWithPath: "/usr/bin/ldd"), [path]) }
        #expect(result.status == 0, "\(result.stderr)")
        // libc is always there: the listing is real.
        #expect(result.stdout.contains("libc.so.6"))
        for library in ["libswiftCore", "libFoundation", "libdispatch", "lib_FoundationICU"] {
            #expect(!result.stdout.contains(library), "\(binary) loads \(library):\n\(result.stdout)")
        }
    }
}
