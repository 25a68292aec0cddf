import Foundation
import TestSupport
import Testing

/// `group simulate --html` as headless Chromium builds it: the page parses (also strictly, as the
/// XHTML it is written as), and its SVG has a lane per participant, hatched waits labelled with the
/// holder, catch-up arrows labelled with the seconds missed, and a sync-error strip under each lane.
@Suite("airlab group simulate --html in Chromium")
struct GroupHTMLReportTests {
    static let browser = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,900"]

    /// Chromium's DOM of `page`, loaded as HTML and as XHTML (where any malformed markup becomes a
    /// `parsererror` element).
    func dom(of page: URL, in scratch: Scratch) async throws -> (html: String, xhtml: String) {
        let strict = scratch.url.appendingPathComponent(page.deletingPathExtension().lastPathComponent + ".xhtml")
        try FileManager.default.copyItem(at: page, to: strict)
        let html = try await BlockingWork.run { try Tool.run("chromium", Self.browser + ["--dump-dom", page.absoluteString]) }
        let xhtml = try await BlockingWork.run { try Tool.run("chromium", Self.browser + ["--dump-dom", strict.absoluteString]) }
        return (String(decoding: html, as: UTF8.self), String(decoding: xhtml, as: UTF8.self))
    }

    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("Wait: three lanes with strips; A's and C's waits are hatched and labelled with B, the holder; the page parses as XHTML")
    func waits() async throws {
        try await GroupSimulateCommandTests().withGroup(policy: #"{"waitFor": ["playingInterstitial"]}"#) { file, scratch in
            let page = scratch.url.appendingPathComponent("wait.html")
            let result = try await BlockingWork.airlab(["group", "simulate", file, "--seed", "3", "--html", page.path])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let (html, xhtml) = try await dom(of: page, in: scratch)
            #expect(!xhtml.contains("parsererror"), "the page is not well-formed: \(xhtml.prefix(600))")
            #expect(xhtml.contains("<svg"))
            for dom in [html, xhtml] {
                #expect(count("<g class=\"lane\"", in: dom) == 3)
                #expect(count("class=\"sync-strip\"", in: dom) == 3)
                #expect(count("class=\"sync-tolerance\"", in: dom) == 3)
                #expect(count("class=\"wait\"", in: dom) == 2, "A and C waited")
                #expect(count(">wait for B</text>", in: dom) == 2, "both waits end with B letting go")
                #expect(dom.contains("fill: url(#hatch)") && dom.contains("<pattern id=\"hatch\""))
            }
        }
    }

    @Test("Catch-up: A's and B's jumps are arrows labelled with the seconds missed, and the screenshot is drawn")
    func jumps() async throws {
        try await GroupSimulateCommandTests().withGroup(policy: #"{"waitFor": []}"#) { file, scratch in
            let page = scratch.url.appendingPathComponent("catch-up.html")
            let result = try await BlockingWork.airlab(["group", "simulate", file, "--seed", "3", "--html", page.path])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let (html, xhtml) = try await dom(of: page, in: scratch)
            #expect(!xhtml.contains("parsererror"), "the page is not well-formed: \(xhtml.prefix(600))")
            #expect(count("<path class=\"jump\"", in: html) == 2)
            #expect(count(">missed ", in: html) == 2)
            #expect(count("class=\"sync-strip\"", in: html) == 3)
            let screenshot = scratch.url.appendingPathComponent("catch-up.png")
            _ = try await BlockingWork.run { try Tool.run("chromium", Self.browser + ["--screenshot=\(screenshot.path)", page.absoluteString]) }
            let image = try Data(contentsOf: screenshot)
            #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47]) && image.count > 10_000, "a PNG with something drawn")
        }
    }

    @Test("Frames: each participant's breaks show the last primary frame before, the break's first and primary's first after, embedded; an ad-free participant has none; the page parses as XHTML")
    func frames() async throws {
        try await GroupSimulateCommandTests().withGroup(policy: #"{"waitFor": ["playingInterstitial"]}"#) { file, scratch in
            let page = scratch.url.appendingPathComponent("frames.html")
            let result = try await BlockingWork.airlab(["group", "simulate", file, "--seed", "3", "--html", page.path])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let (html, xhtml) = try await dom(of: page, in: scratch)
            #expect(!xhtml.contains("parsererror"), "the page is not well-formed: \(xhtml.prefix(600))")
            let rows = html.components(separatedBy: "<tr><td>").dropFirst().map { String($0.prefix { $0 != "<" }) }
            // A plays ad-matching; B both breaks; C, ad-free, none.
            #expect(rows == ["A", "B", "B"], "\(rows)")
            #expect(count("<img class=\"frame\"", in: html) == 9, "a picture either side of each break and after it")
            #expect(count("alt=\"first primary frame after ad-matching\"", in: html) == 2)
            #expect(count("alt=\"first frame of ad-mismatching\"", in: html) == 1)
            let pictures = html.components(separatedBy: "src=\"data:image/jpeg;base64,").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
            // Primary's picture and the mismatching ad's (another codec and picture size) are not the same JPEG.
            #expect(Set(pictures).count > 1)
        }
    }
}
