import JourneyDomain
import Testing

@Suite("SDK error catalog")
struct SDKErrorCatalogTests {
    /// The seed's table: code, category, retryable, "What to do".
    static let seed: [(SDKErrorCode, SDKErrorCategory, Bool, String)] = [
        (73203, .integrationBug, false, "Pass the webAppToken returned by your backend"),
        (73006, .environment, false, "Test on a physical device"),
        (73302, .transient, true, "Retry; if it persists, contact support"),
        (73303, .operatorAction, false, "Check with Unico that token entry is enabled in that environment"),
        (73304, .integrationBug, false, "Pass the webAppToken of a valid process"),
        (73305, .expired, true, "Create a new process and call prepareAndOpenSelfieCamera again with the new webAppToken"),
        (73701, .integrationBug, false, "Use prepareAndOpenSelfieCamera(_:webAppToken:)"),
        (74001, .integrationBug, false, "Implement onSuccess(_:) with the exact signature"),
    ]

    @Test("every code of the seed is in the catalog, and nothing else")
    func coversSeed() {
        #expect(Set(SDKErrorCatalog.standard.entries.keys) == Set(Self.seed.map(\.0)))
    }

    @Test("each entry carries the seed's classification and action", arguments: 0..<8)
    func entry(index: Int) {
        let (code, category, retryable, action) = Self.seed[index]
        let entry = SDKErrorCatalog.standard.entry(for: code)
        #expect(entry.code == code)
        #expect(entry.category == category)
        #expect(entry.retryable == retryable)
        #expect(entry.recommendedAction == action)
        #expect(entry.isDocumented)
        #expect(!entry.meaning.isEmpty)
    }

    @Test("the 73304 meaning mentions passing token instead of webAppToken")
    func tokenRejectedMeaning() {
        #expect(SDKErrorCatalog.standard.entry(for: .tokenRejected).meaning.contains("token field is passed instead of the webAppToken"))
    }

    @Test("only 73302 and 73305 are retryable")
    func retryable() {
        #expect(SDKErrorCatalog.standard.nonRetryableCodes == [73006, 73203, 73303, 73304, 73701, 74001])
    }

    @Test("an unknown code gets a conservative entry: not retryable, escalate")
    func unknown() {
        let entry = SDKErrorCatalog.standard.entry(for: 12_345)
        #expect(entry.code == 12_345)
        #expect(entry.category == .unknown)
        #expect(!entry.retryable)
        #expect(!entry.isDocumented)
        #expect(entry.recommendedAction.contains("contact Unico support"))
    }
}
