import Testing
@testable import HLS

/// A restriction kind the spec may add one day, to show that a third member gets a bit of its own.
private struct ThreeRestrictions: SpelledOptionSet {
    enum Member: String, CaseIterable, Hashable, Sendable { case skip = "SKIP", jump = "JUMP", pause = "PAUSE" }
    let rawValue: UInt8
    init(rawValue: UInt8) { self.rawValue = rawValue }
}

@Suite("The value lists of CUE, SNAP and X-RESTRICT")
struct SpelledOptionSetTests {
    @Test("Every member of every list has a bit of its own, within the set's width")
    func distinctBits() {
        func check<Options: SpelledOptionSet>(_: Options.Type) {
            let bits = Options.Member.allCases.map { Options($0).rawValue }
            #expect(Set(bits).count == bits.count, "\(Options.self): \(bits)")
            #expect(bits.allSatisfy { $0 != 0 && $0 & ($0 - 1) == 0 }, "\(Options.self): \(bits)")
            #expect(Options.Member.allCases.count <= Options.capacity)
        }
        check(InterstitialEvent.Cue.self)
        check(InterstitialEvent.Snap.self)
        check(InterstitialEvent.Restrictions.self)
        check(ThreeRestrictions.self)
        // The case the old hand-written bit gave JUMP's bit to.
        #expect(!ThreeRestrictions(.pause).contains(ThreeRestrictions(.jump)))
    }

    @Test("A set prints its members as the spec spells them, in the spec's order, and reads them back")
    func spellings() {
        let all = InterstitialEvent.Restrictions([.jump, .skip])
        #expect(all.spellings == ["SKIP", "JUMP"])
        #expect(all.members == [.skip, .jump])
        #expect(InterstitialEvent.Cue([.once, .pre]).spellings == ["PRE", "ONCE"])
        #expect(InterstitialEvent.Snap.out.spellings == ["OUT"])
        for name in ["PRE", "POST", "ONCE"] {
            #expect(InterstitialEvent.Cue.member(spelled: name)?.rawValue == name)
        }
        #expect(InterstitialEvent.Cue.member(spelled: "pre") == nil)
        #expect(InterstitialEvent.Restrictions.member(spelled: "PAUSE") == nil)
    }
}
