import Foundation
import Testing
import TestSupport

@Suite("mDNS without a system D-Bus")
struct MissingSystemBusTests {
    @Test("without a system D-Bus, start() reports systemBusUnavailable instead of crashing")
    func missingSystemBus() async throws {
        let probe = CommandRunner.productsDirectory.appendingPathComponent("airlab-mdns-probe").path
        let result = try await BlockingWork.run {
            try CommandRunner.run(
                executableURL: URL(fileURLWithPath: "/usr/bin/env"),
                ["DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/airlab-no-bus", probe])
        }
        #expect(result.status == 1)
        #expect(result.stdout == """
            error: the system D-Bus is not reachable (cannot connect to unix:path=/nonexistent/airlab-no-bus); \
            start dbus-daemon --system for mDNS

            """)
    }
}
