/// One resolved line of `avahi-browse --parsable --resolve` (`=;iface;proto;name;type;domain;host;address;port;txt`).
struct BrowsedService: Equatable {
    var interface: String
    var ipProtocol: String
    var name: String
    var type: String
    var hostName: String
    var address: String
    var port: UInt16
    var txt: [String: String]

    /// The resolved services in `output`; `+`/`-` lines and malformed lines are ignored.
    static func parse(_ output: String) -> [BrowsedService] {
        output.split(separator: "\n").compactMap { line in
            // The TXT field is last and may contain the separator, so split no further than it.
            let fields = line.split(separator: ";", maxSplits: 9, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 10, fields[0] == "=", let port = UInt16(fields[8]) else { return nil }
            return BrowsedService(
                interface: fields[1], ipProtocol: fields[2], name: unescapeLabel(fields[3]), type: fields[4],
                hostName: fields[6], address: fields[7], port: port, txt: txtDictionary(fields[9]))
        }
    }

    /// avahi-browse escapes labels DNS-style: `\032` is a byte in decimal, `\.` a literal character.
    static func unescapeLabel(_ label: String) -> String {
        var bytes: [UInt8] = []
        var input = Array(label.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "\\"), !input.isEmpty else {
                bytes.append(byte)
                continue
            }
            let digits = input.prefix(3)
            if digits.count == 3, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
               let value = UInt8(String(decoding: digits, as: UTF8.self)) {
                bytes.append(value)
                input.removeFirst(3)
            } else {
                bytes.append(input.removeFirst())
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `"k=v" "k2=v2"` with `\"` and `\\` escapes inside the quotes.
    static func txtDictionary(_ field: String) -> [String: String] {
        var entries: [String] = []
        var current: String?
        var escaped = false
        for character in field {
            if var text = current {
                if escaped {
                    text.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    entries.append(text)
                    current = nil
                    continue
                } else {
                    text.append(character)
                }
                current = text
            } else if character == "\"" {
                current = ""
            }
        }
        var result: [String: String] = [:]
        for entry in entries {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            result[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return result
    }
}
