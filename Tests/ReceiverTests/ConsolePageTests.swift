import Foundation
import TestSupport
import Testing

/// The console's page in headless Chromium against a real `airlabd` of three profiles playing the
/// ad-supported stream at twice real time: what each tile showed, read from the DOM Chromium renders.
@Suite("The console page in Chromium")
struct ConsolePageTests {
    @Test("Each tile shows primary, the ad with its restrictions, primary again; the slow profile's stall shows its reason; a refused seek shows on its tile")
    func threeProfiles() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let slow = try MediaModeDaemonTests.slowProfile(in: scratch)
        try await CastFixture.with { media in
            try await withDaemon([
                "--profile", "apple-tv-4k", "--profile", "smart-tv-high", "--profile", slow, "--port", "0", "--time-scale", "2", "--media", "verify",
                "--metrics-address", "127.0.0.1:0", "--console-control",
            ]) { daemon in
                let port = try ConsoleDaemonTests.consolePort(daemon)
                // The page follows until every session has ended (`?until-ended`), then Chromium's
                // virtual time, held while the stream is open, runs out and the DOM is written.
                async let dom = Chromium.run(["--virtual-time-budget=10000", "--dump-dom", "http://127.0.0.1:\(port)/console?until-ended"])
                try await Self.untilPages(1, on: port)

                let watch = try await ConsoleDaemonTests.ConsoleStream.open(port: port)
                defer { watch.close() }
                for receiver in daemon.receivers {
                    let reply = try await HTTPTestClient.send(port: receiver.port, "POST", "/play", json: ["url": media.playlist, "detached": true])
                    try #require(reply.status == 200, "POST /play to \(receiver.name): \(reply)")
                }
                _ = try await watch.tiles(until: 0, isIn: "playing-primary")
                let refused = try await HTTPTestClient.send(port: port, "POST", "/console/receivers/0/control?command=seek&position=11")
                #expect(refused.status == 403, "\(refused)")

                let tiles = Self.tiles(in: try await dom)
                #expect(tiles.count == 3, "\(tiles)")
                for tile in tiles {
                    let shown = tile.shown.split(separator: " ").map(String.init)
                    let primary = try #require(shown.firstIndex { $0.hasPrefix("playing-primary") }, "tile \(tile.index) showed \(shown)")
                    let ad = try #require(shown[primary...].firstIndex { $0.hasPrefix("playing-interstitial[SKIP,JUMP]") }, "tile \(tile.index) showed \(shown)")
                    #expect(shown[ad...].contains { $0.hasPrefix("playing-primary") }, "tile \(tile.index) showed \(shown)")
                    #expect(tile.state == "ended")
                }
                let slowTile = try #require(tiles.first { $0.index == 2 })
                // Why it stalled, in the profile's words (the ad not buffered when it started, or a late segment).
                let reasons = ["(asset-priming)", "(segment-late)"]
                #expect(slowTile.shown.split(separator: " ").contains { $0.hasPrefix("stalled") && reasons.contains(where: $0.hasSuffix) }, "\(slowTile.shown)")
                let first = try #require(tiles.first { $0.index == 0 })
                #expect(first.refusal.hasPrefix("refused seek 11"), "\(first.refusal)")
                #expect(tiles.allSatisfy { !$0.html.contains(media.scratch.url.path) })
                // Each tile asked for its pictures as it changed, and showed one.
                #expect(tiles.allSatisfy { $0.html.contains("data-picture=\"shown\"") }, "\(tiles.map(\.html))")
            }
        }
    }

    @Test("Seek pressed on the page (typed and clicked through Chromium's input events) across the JUMP ad shows the receiver's refusal, in the focus view and on the tile")
    func seekPressed() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await CastFixture.with { media in
            try await withDaemon(["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "1", "--console", "127.0.0.1:0", "--console-control"]) { daemon in
                let port = try ConsoleDaemonTests.consolePort(daemon)
                // Opened with receiver 0 in focus, as a link to it does.
                let page = try await DevToolsPage.open("http://127.0.0.1:\(port)/console#0", in: scratch.url)
                defer { page.close() }
                try await Self.until(page, "document.body.dataset.live !== undefined && !document.querySelector('#controls [data-command=seek]').disabled")

                let reply = try await HTTPTestClient.send(port: daemon.port, "POST", "/play", json: ["url": media.playlist, "detached": true])
                try #require(reply.status == 200, "POST /play: \(reply)")
                try await Self.until(page, "document.querySelector('.tile[data-index=\"0\"]').dataset.state === 'playing-primary'")

                // The field holds 0: clicked until it has the focus (a click is aimed where the field is
                // when it is sent), its 0 deleted, 11 typed; then the Seek button clicked.
                for _ in 0..<20 {
                    try await page.click("#seek-to")
                    if try await page.evaluate("document.activeElement && document.activeElement.id === 'seek-to'") as? Bool == true { break }
                }
                try await page.press(key: "End", code: "End", keyCode: 35)
                try await page.press(key: "Backspace", code: "Backspace", keyCode: 8)
                try await page.type("11")
                #expect(try await page.evaluate("document.getElementById('seek-to').value") as? String == "11")
                try await page.click("#controls [data-command=seek]")

                try await Self.until(page, "document.getElementById('control-result').textContent !== ''")
                let result = try await page.evaluate("document.getElementById('control-result').textContent") as? String ?? ""
                #expect(result.hasPrefix("403 "), "\(result)")
                #expect(result.contains("restricts JUMP") || result.contains("SKIP"), "\(result)")
                try await Self.until(page, "document.querySelector('.tile[data-index=\"0\"] .refusal').textContent.startsWith('refused seek 11')")
            }
        }
    }

    /// Polls a condition of the page's script until it holds; 60 s only as a guard against a page that never gets there.
    static func until(_ page: DevToolsPage, _ condition: String) async throws {
        let deadline = Date().addingTimeInterval(60)
        while try await page.evaluate("Boolean(\(condition))") as? Bool != true {
            guard Date() < deadline else { throw TestSupportError("the page never had \(condition)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    struct RenderedTile {
        var index: Int
        var state: String
        var shown: String
        var refusal: String
        var html: String
    }

    /// The tiles of Chromium's DOM: each `<button class="tile" …>…</button>`.
    static func tiles(in dom: String) -> [RenderedTile] {
        dom.components(separatedBy: "<button ").dropFirst().compactMap { part -> RenderedTile? in
            guard let end = part.range(of: "</button>") else { return nil }
            let html = String(part[..<end.lowerBound])
            guard html.contains("class=\"tile\""), let index = attribute("data-index", in: html).flatMap(Int.init) else { return nil }
            let refusal = html.components(separatedBy: "<div class=\"refusal\">").dropFirst().first?.components(separatedBy: "</div>").first ?? ""
            return RenderedTile(
                index: index, state: attribute("data-state", in: html) ?? "", shown: attribute("data-shown", in: html) ?? "",
                refusal: refusal.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&"), html: html)
        }
    }

    static func attribute(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: " \(name)=\"") else { return nil }
        return html[start.upperBound...].components(separatedBy: "\"").first
    }

    /// Polls the process's `/metrics` until `count` console pages watch.
    static func untilPages(_ count: Int, on port: UInt16) async throws {
        while true {
            let text = try await HTTPTestClient.send(port: port, "GET", "/metrics").text
            if text.contains("\nairlab_console_pages \(count)\n") { return }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
