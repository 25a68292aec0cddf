import Casting
import Media
import MediaValues

extension MediaProbe {
    /// `probe` with a timeout of two minutes: what these tests check is what a probe finds, and a loaded
    /// machine running the whole suite (or two at once) must not turn that into a timeout. The timeout
    /// itself has tests of its own.
    static func patientProbe(_ input: String, variant: Int? = nil, preferredLanguage: String? = nil) async throws(MediaError) -> MediaParameters {
        try await probe(input, variant: variant, preferredLanguage: preferredLanguage, options: ProbeOptions(timeout: 120))
    }
}
