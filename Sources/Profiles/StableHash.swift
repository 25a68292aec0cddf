/// FNV-1a over text, 64 bits: the same value in every run and on every platform, unlike `Hasher`,
/// for what must stay stable across restarts (a receiver's device ID, a seed's named streams).
public enum StableHash {
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
