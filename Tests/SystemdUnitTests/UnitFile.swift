import Foundation

/// A systemd unit file read as systemd reads it, as far as these tests need: sections, settings that
/// may repeat, comment lines and backslash continuations.
struct UnitFile {
    struct Setting: Equatable {
        var section: String
        var key: String
        var value: String
    }

    let name: String
    let settings: [Setting]

    init(name: String, text: String) {
        self.name = name
        var settings: [Setting] = []
        var section = ""
        var pending = ""
        // CRLF is one Character in Swift; unit files use LF, so split on it alone.
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String(rawLine).trimmingCharacters(in: .whitespaces)
            if pending.isEmpty, line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasSuffix("\\") {
                line.removeLast()
                pending += line + " "
                continue
            }
            line = pending + line
            pending = ""
            if line.isEmpty { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            settings.append(Setting(
                section: section, key: line[..<equals].trimmingCharacters(in: .whitespaces),
                value: line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)))
        }
        self.settings = settings
    }

    /// A unit shipped in the package's `deploy/systemd/` folder.
    static func shipped(_ name: String) throws -> UnitFile {
        UnitFile(name: name, text: try String(contentsOf: shippedDirectory.appendingPathComponent(name), encoding: .utf8))
    }

    /// `deploy/systemd/` at the package root, found from this file's place in `Tests/SystemdUnitTests/`.
    static var shippedDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("deploy/systemd")
    }

    /// Every value assigned to `key` in `section`, in order.
    func values(_ key: String, in section: String) -> [String] {
        settings.filter { $0.section == section && $0.key == key }.map(\.value)
    }

    /// The value that takes effect for a single-valued setting: the last one.
    func value(_ key: String, in section: String) -> String? {
        values(key, in: section).last
    }

    /// A list setting's words across all its assignments; an empty assignment clears the list, as in
    /// systemd.
    func words(_ key: String, in section: String) -> [String] {
        values(key, in: section).reduce(into: []) { words, value in
            if value.isEmpty { words = [] } else { words += value.split(separator: " ").map(String.init) }
        }
    }

    /// `Environment=` assignments by variable name; the units quote nothing, so words split at spaces.
    var environment: [String: String] {
        var variables: [String: String] = [:]
        for word in words("Environment", in: "Service") {
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            variables[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return variables
    }
}
