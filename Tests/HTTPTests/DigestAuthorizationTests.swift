import Foundation
import Testing
import TestSupport
@testable import HTTP

@Suite("HTTP Digest authentication, client side")
struct DigestAuthorizationTests {
    @Test("MD5 agrees with coreutils' md5sum on empty, short, block-boundary and multi-block inputs")
    func md5AgreesWithMd5sum() async throws {
        let inputs = ["", "abc", String(repeating: "a", count: 55), String(repeating: "b", count: 56), String(repeating: "c", count: 64),
            "AirPlay:AirPlay:sésame ouvre-toi", String(repeating: "0123456789", count: 100)]
        for input in inputs {
            let reference = try await BlockingWork.run {
                try CommandRunner.run(executableURL: URL(fileURLWithPath: "/usr/bin/md5sum"), [], stdin: Data(input.utf8))
            }
            #expect(DigestHash.md5Hex(input) == String(reference.stdout.prefix(32)), "input of \(input.utf8.count) bytes")
        }
    }

    @Test("The answer to RFC 2617's example challenge is the RFC's")
    func rfcExample() throws {
        let challenge = try #require(DigestChallenge(header: """
            Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"
            """))
        #expect(challenge.qop == "auth")
        let header = challenge.authorization(
            method: "GET", uri: "/dir/index.html", username: "Mufasa", password: "Circle Of Life", clientNonce: "0a4f113b")
        #expect(header == """
            Digest username="Mufasa", realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", uri="/dir/index.html", \
            response="6629fae49393a05397450978507c4ef1", qop=auth, nc=00000001, cnonce="0a4f113b", opaque="5ccc069c403ebaf9f0171e9517f40e41"
            """)
    }

    @Test("Challenges of other schemes or algorithms, or without a nonce, are not answered")
    func otherChallenges() {
        #expect(DigestChallenge(header: "Basic realm=\"AirPlay\"") == nil)
        #expect(DigestChallenge(header: "Digest realm=\"AirPlay\"") == nil)
        #expect(DigestChallenge(header: "Digest realm=\"AirPlay\", nonce=\"n\", algorithm=SHA-256") == nil)
        let legacy = DigestChallenge(header: "Digest realm=\"AirPlay\", nonce=\"abc, def\"")
        #expect(legacy?.nonce == "abc, def" && legacy?.qop == nil)
    }
}
