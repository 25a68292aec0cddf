import Testing
@testable import Receiver

@Suite("The process's own figures and the metrics address")
struct ProcessFiguresTests {
    @Test("VmRSS in /proc/self/status is read as KiB; a missing or malformed line gives no figure")
    func residentMemory() {
        let status = "Name:\tairlabd\nVmPeak:\t  200000 kB\nVmRSS:\t   96256 kB\nThreads:\t9\n"
        #expect(ProcessFigures.residentBytes(inStatus: status) == 96256 * 1024)
        #expect(ProcessFigures.residentBytes(inStatus: "Name:\tairlabd\n") == nil)
        #expect(ProcessFigures.residentBytes(inStatus: "VmRSS:\t 12 MB\n") == nil)
        #expect(ProcessFigures.residentBytes(inStatus: "VmRSS:\t 99999999999999999999999 kB\n") == nil)
        #expect(ProcessFigures.residentBytes(inStatus: "VmRSS:\t -5 kB\n") == nil)
    }

    @Test("This process's figures are read from /proc: some memory and a few descriptors")
    func currentFigures() {
        let figures = ProcessFigures.current()
        #expect((figures.residentBytes ?? 0) > 1_000_000)
        #expect((figures.openDescriptors ?? 0) >= 3)
    }

    @Test("--metrics-address takes HOST:PORT and [IPV6]:PORT, port 0 included, and nothing else", arguments: [
        ("127.0.0.1:9100", "127.0.0.1", 9100), ("0.0.0.0:0", "0.0.0.0", 0), ("[::1]:9100", "::1", 9100),
    ])
    func listenAddress(_ text: String, _ host: String, _ port: Int) {
        let parsed = FleetMetricsEndpoint.listenAddress(text)
        #expect(parsed?.host == host && parsed.map { Int($0.port) } == port)
    }

    @Test("A metrics address without a port, with a bare IPv6 address or a port past 65535 is refused", arguments: [
        "9100", "127.0.0.1", "::1:9100", "127.0.0.1:65536", ":9100", "127.0.0.1:-1", "[::1]9100",
    ])
    func badListenAddress(_ text: String) {
        #expect(FleetMetricsEndpoint.listenAddress(text) == nil)
    }
}
