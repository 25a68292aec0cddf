import Testing

@Suite("avahi-browse output")
struct AvahiBrowseOutputTests {
    @Test("avahi-browse's parsable lines give unescaped names, addresses, ports and TXT entries")
    func parsesBrowseOutput() {
        let output = """
            +;mdns0;IPv4;Living\\032Room;_airplay._tcp;local
            =;mdns0;IPv4;Living\\032Room\\032#2;_airplay._tcp;local;tv.local;10.0.0.1;7000;"vv=2" "model=A;B" "pw" "q=\\"x\\""
            """
        let services = BrowsedService.parse(output)
        #expect(services == [
            BrowsedService(
                interface: "mdns0", ipProtocol: "IPv4", name: "Living Room #2", type: "_airplay._tcp",
                hostName: "tv.local", address: "10.0.0.1", port: 7000,
                txt: ["vv": "2", "model": "A;B", "pw": "", "q": "\"x\""]),
        ])
    }
}
