import Foundation

/// Writes Apple's XML property list text as bytes, one element at a time: the one place the format is
/// spelled (declaration, DOCTYPE, tab indents, tags, escapes, reals).
///
/// `XMLPropertyList` writes any value through it; the answers senders poll many times a second
/// (`PlaybackInfo`) write their fixed keys through it directly, without building a value first, which
/// made the plist the largest cost of a `/playback-info` answer.
struct XMLPropertyListWriter {
    enum Container {
        case dictionary, array
    }

    private var bytes: [UInt8] = []

    /// A document begun with its declaration, DOCTYPE and `<plist>`; `capacity` is the bytes to reserve.
    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
        append("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """)
    }

    /// The whole document, closed.
    consuming func document() -> Data {
        append("</plist>\n")
        return Data(bytes)
    }

    // MARK: - Elements, each on its own line at `depth` tabs

    mutating func key(_ name: StaticString, depth: Int) {
        indent(depth)
        append("<key>")
        append(name)
        append("</key>\n")
    }

    mutating func key(_ name: String, depth: Int) {
        indent(depth)
        append("<key>")
        appendEscaped(name)
        append("</key>\n")
    }

    mutating func real(_ value: Double, depth: Int) {
        indent(depth)
        append("<real>")
        // Reals of up to 15 characters are small strings: no allocation.
        bytes.append(contentsOf: XMLPropertyList.realText(value).utf8)
        append("</real>\n")
    }

    mutating func integer(_ value: Int64, depth: Int) {
        indent(depth)
        append("<integer>")
        bytes.append(contentsOf: String(value).utf8)
        append("</integer>\n")
    }

    mutating func boolean(_ value: Bool, depth: Int) {
        indent(depth)
        append(value ? "<true/>\n" : "<false/>\n")
    }

    mutating func string(_ value: String, depth: Int) {
        indent(depth)
        append("<string>")
        appendEscaped(value)
        append("</string>\n")
    }

    /// In UTC to the second, as Apple's XML property lists write dates.
    mutating func date(_ value: Date, depth: Int) {
        indent(depth)
        append("<date>")
        bytes.append(contentsOf: value.formatted(.iso8601).utf8)
        append("</date>\n")
    }

    mutating func open(_ container: Container, depth: Int) {
        indent(depth)
        append(container == .dictionary ? "<dict>\n" : "<array>\n")
    }

    mutating func close(_ container: Container, depth: Int) {
        indent(depth)
        append(container == .dictionary ? "</dict>\n" : "</array>\n")
    }

    /// A container without elements, as its self-closing tag.
    mutating func empty(_ container: Container, depth: Int) {
        indent(depth)
        append(container == .dictionary ? "<dict/>\n" : "<array/>\n")
    }

    // MARK: - Bytes

    private mutating func indent(_ depth: Int) {
        let tabs: StaticString = "\t\t\t\t\t\t\t\t"
        var left = depth
        while left > 0 {
            let count = min(left, tabs.utf8CodeUnitCount)
            bytes.append(contentsOf: UnsafeBufferPointer(start: tabs.utf8Start, count: count))
            left -= count
        }
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Character data: `&` and `<` must be escaped, and `>` is, so that `]]>` can never appear. Text
    /// without them (every key, nearly every value) is copied whole.
    private mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            guard utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "&"): append("&amp;")
                case UInt8(ascii: "<"): append("&lt;")
                case UInt8(ascii: ">"): append("&gt;")
                default: bytes.append(byte)
                }
            }
        }
    }
}
