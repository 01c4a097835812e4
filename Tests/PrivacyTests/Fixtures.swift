import Cryptography
import Foundation
import JourneyDomain
import Privacy

/// A configuration with fresh random keys; the cache is off unless a lifetime is given.
func configuration(
    keyID: String = "k1", key: SecretKey = .random(), previous: [String: SecretKey] = [:],
    referenceKey: SecretKey = .random(), cacheLifetime: Duration = .zero
) throws -> PrivacyConfiguration {
    try PrivacyConfiguration(
        activeKeyID: keyID, activeKey: key, previousKeys: previous,
        subjectReferenceKey: referenceKey, dataKeyCacheLifetime: cacheLifetime)
}

/// A random subject reference, shaped like a real one.
func someSubject() -> SubjectReference {
    SubjectReference(Hex.encode(SecureRandom.bytes(32)))
}

/// Whether `needle` occurs as a contiguous byte run in `haystack`.
func containsBytes(_ haystack: Data, _ needle: Data) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
    let h = Array(haystack), n = Array(needle)
    return (0...(h.count - n.count)).contains { start in h[start..<(start + n.count)].elementsEqual(n) }
}
