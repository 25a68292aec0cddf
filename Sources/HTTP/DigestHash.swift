import CCrypto
import COnDemand
import Foundation

/// MD5, for HTTP Digest authentication only: the hash that scheme and the AirPlay receivers that use
/// it are defined with. Never use it where collisions matter. Computed by OpenSSL's libcrypto rather
/// than by hand: hashing is not code to write again.
enum DigestHash {
    /// The lowercase hexadecimal MD5 of `text`'s UTF-8 bytes.
    static func md5Hex(_ text: String) -> String {
        md5(Array(text.utf8)).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    static func md5(_ message: [UInt8]) -> [UInt8] {
        // libcrypto is opened on first use (COnDemand); without it the installation is broken.
        if let failure = COnDemand_cryptoFailure() { preconditionFailure(String(cString: failure)) }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let succeeded = message.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, EVP_md5(), nil) == 1
        }
        // EVP_Digest fails only when MD5 is unavailable (a FIPS-only libcrypto): that is a broken installation.
        precondition(succeeded, "libcrypto cannot compute MD5 (is it built FIPS-only?)")
        return Array(digest.prefix(Int(length)))
    }
}
