import Foundation
import FuzzReplay
import HTTP
import SenderProtocol

/// Any bytes as a request head, split as libmicrohttpd hands one over (method, percent-decoded path,
/// query parameters, header fields), then read by everything the receiver reads from a head: the
/// route table, `/scrub` and `/rate` queries, a `Range` as the folder servers read it, the body form
/// named by `Content-Type`. (A receiver's Digest challenge is read by libcurl, on the sender's side.)
func requestHeadFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
    guard !lines.isEmpty else { return 0 }
    let requestLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
    let method = requestLine.first.map(String.init) ?? ""
    let target = requestLine.count > 1 ? String(requestLine[1]) : "/"
    let (path, query) = split(target)
    var headers = HTTPHeaders()
    for line in lines {
        guard let colon = line.firstIndex(of: ":") else { break }
        headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }

    if let route = Route(path: path) {
        _ = route.methods.contains(method)
        _ = route.path(session: path.split(separator: "/").last.map(String.init))
    }
    _ = try? QueryCommand.scrub(query)
    _ = try? QueryCommand.rate(query)
    _ = PlayRequest.form(of: Data(), contentType: headers["Content-Type"])
    // The folder servers (airlab origin, cast's) read Range against files of any size.
    if let range = headers["Range"] {
        for size in [0, 1, 1_000, Int.max] {
            if case .part(let bytes) = ServedFolder.byteRange(range, size: size) {
                precondition(bytes.lowerBound >= 0 && bytes.upperBound <= size && !bytes.isEmpty, "range \(range) gave \(bytes) of \(size)")
            }
        }
    }
    return 0
}

/// The path, percent-decoded, and the query's parameters (the first value of a repeated name wins,
/// a name without a value maps to ""), as libmicrohttpd gives them.
private func split(_ target: String) -> (path: String, query: [String: String]) {
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
    var query: [String: String] = [:]
    if parts.count > 1 {
        for pair in parts[1].split(separator: "&") {
            let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(nameAndValue[0]).removingPercentEncoding ?? String(nameAndValue[0])
            let value = nameAndValue.count > 1 ? (String(nameAndValue[1]).removingPercentEncoding ?? String(nameAndValue[1])) : ""
            if query[name] == nil { query[name] = value }
        }
    }
    return (path, query)
}

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { requestHeadFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), requestHeadFuzz) }
}
#endif
