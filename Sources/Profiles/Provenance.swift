/// Where a profile's number comes from: a citation and the kind of evidence it is.
///
/// A lab trusts an emulated receiver only as far as its numbers match devices, so every number a
/// profile states says how it was obtained (docs/profiles.md, "Provenance").
public struct Provenance: Sendable, Hashable, Codable {
    /// The kind of evidence behind a number.
    public enum Basis: String, Sendable, Hashable, Codable, CaseIterable {
        /// Measured on a device: the source says by whom, on what, and when.
        case measured
        /// Published by the maker, a standard, a player's documentation or an issue report with the figure.
        case published
        /// Computed or carried over from other sourced numbers: the source says from which.
        case derived
        /// Nothing better exists: the source gives the reason.
        case assumed
    }

    public var basis: Basis
    /// The citation (a URL, a paper, an issue, a standard), or for `assumed`, the reason.
    public var source: String

    public init(basis: Basis, source: String) {
        self.basis = basis
        self.source = source
    }
}

/// How many of a profile's numbers rest on each basis.
public struct BasisCounts: Sendable, Hashable, Codable {
    public var measured = 0
    public var published = 0
    public var derived = 0
    public var assumed = 0

    public init() {}

    public var total: Int { measured + published + derived + assumed }

    public subscript(basis: Provenance.Basis) -> Int {
        get {
            switch basis {
            case .measured: measured
            case .published: published
            case .derived: derived
            case .assumed: assumed
            }
        }
        set {
            switch basis {
            case .measured: measured = newValue
            case .published: published = newValue
            case .derived: derived = newValue
            case .assumed: assumed = newValue
            }
        }
    }
}

/// What a report says about a profile it used: its name, its version, and how its numbers are sourced.
public struct ProfileSummary: Sendable, Hashable, Codable {
    public var name: String
    public var version: String
    public var numbers: BasisCounts

    public init(name: String, version: String, numbers: BasisCounts) {
        self.name = name
        self.version = version
        self.numbers = numbers
    }

    /// `apple-tv-4k version 2: 12 of 58 numbers assumed`
    public var text: String {
        "\(name) version \(version): \(numbers.assumed) of \(numbers.total) numbers assumed"
    }
}
