/// An attribute whose value is a list of enumerated strings (CUE, SNAP, X-RESTRICT), held as an option
/// set whose members are the cases of an enum spelled as the spec writes them.
///
/// A member's bit is its case's place in `Member.allCases`, and the parse table and the printed list
/// come from the same cases: a new case needs nothing but its line, and can take no other case's bit.
public protocol SpelledOptionSet: OptionSet, Hashable, Sendable where RawValue == UInt8, Element == Self {
    associatedtype Member: RawRepresentable, CaseIterable, Hashable, Sendable where Member.RawValue == String
}

extension SpelledOptionSet {
    /// The most members a set can hold: one bit each.
    public static var capacity: Int { RawValue.bitWidth }

    public init(_ member: Member) {
        let index = Member.allCases.enumerated().first { $0.element == member }?.offset ?? 0
        self.init(rawValue: 1 << UInt8(index))
    }

    public init(_ members: some Sequence<Member>) {
        self = members.reduce(into: []) { $0.insert(Self($1)) }
    }

    /// The members, in the order the enum declares them (the spec's).
    public var members: [Member] { Member.allCases.filter { contains(Self($0)) } }

    /// The spec's spellings of the members, in that order.
    public var spellings: [String] { members.map(\.rawValue) }

    /// The member a spec spelling names; nil for a value the spec does not define.
    public static func member(spelled name: String) -> Member? {
        Member(rawValue: name)
    }
}
