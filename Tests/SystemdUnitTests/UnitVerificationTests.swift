import Foundation
import Testing
import TestSupport

/// `systemd-analyze`, where the `systemd` package puts it, or nil when it is not installed.
private let systemdAnalyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

/// Stands in for airlabd, which `verify` requires to exist; the units' other checks do not depend on it.
private let standIn = "/bin/true"

@Suite(
    "systemd-analyze verify",
    .enabled(
        if: systemdAnalyze != nil,
        "systemd-analyze is missing: install the Debian package systemd (scripts/install-dependencies does)"))
struct UnitVerificationTests {
    @Test(
        "systemd-analyze verify accepts each unit without a warning",
        arguments: [("airlabd.service", "airlabd.service"), ("airlabd@.service", "airlabd@lab.service")])
    func verify(_ file: String, as unitName: String) async throws {
        let analyze = try #require(systemdAnalyze)
        #expect(FileManager.default.isExecutableFile(atPath: standIn))
        let scratch = try Scratch()
        defer { scratch.remove() }
        let text = try String(contentsOf: UnitFile.shippedDirectory.appendingPathComponent(file), encoding: .utf8)
        #expect(text.contains("ExecStart=/usr/local/bin/airlabd "))
        // An instance is verified through its template, which must sit in the same folder.
        try scratch.write(file, text.replacingOccurrences(of: "ExecStart=/usr/local/bin/airlabd ", with: "ExecStart=\(standIn) "))
        let unit = scratch.url.appendingPathComponent(unitName).path

        // --recursive-errors=no: the units this one orders after belong to the host, not to us.
        let result = try await BlockingWork.run {
            try CommandRunner.run(executableURL: URL(fileURLWithPath: analyze), ["verify", "--recursive-errors=no", unit])
        }

        #expect(result.status == 0, "\(result.stderr)")
        let aboutUs = result.stderr.split(separator: "\n").filter { $0.contains("airlabd") }
        #expect(aboutUs.isEmpty, "\(aboutUs.joined(separator: "\n"))")
    }
}
