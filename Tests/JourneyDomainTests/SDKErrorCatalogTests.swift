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

    @Test("the page entries are exactly the seed's codes")
    func coversSeed() {
        #expect(Set(SDKErrorCatalog.sdkLitePage.map(\.code)) == Set(Self.seed.map(\.0)))
        let onPage = SDKErrorCatalog.standard.entries.values.filter(\.isDocumented).map(\.code)
        #expect(Set(onPage) == Set(Self.seed.map(\.0)))
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
        #expect(
            SDKErrorCatalog.standard.entry(for: .tokenRejected).meaning.contains(
                "token field is passed instead of the webAppToken"))
    }

    @Test("only 73302 and 73305 are retryable")
    func retryable() {
        #expect(SDKErrorCatalog.standard.nonRetryableCodes == [73006, 73203, 73303, 73304, 73701, 74001])
    }

    /// unico-contract.md, "SDK codes beyond the SDK Lite page": code and full SDK name.
    static let beyondPage: [(SDKErrorCode, String)] =
        [
            (73000, "UNKNOWN_INTERNAL_ERROR"), (73100, "NETWORK_ERROR"), (73204, "CONFIG_ENVIRONMENT_NOT_SET"),
            (73704, "SESSION_STATUS_USER_CANCELLED"),
        ] + (73705...73713).map { (SDKErrorCode(rawValue: $0), "SESSION_STATUS_*") } + [(73740, "CONSENT_NOT_GIVEN_ERROR")]

    @Test("the codes beyond the SDK Lite page are listed, marked off the page, and retryable")
    func beyondThePage() {
        #expect(SDKErrorCatalog.fullSDK.map(\.code) == Self.beyondPage.map(\.0))
        #expect(SDKErrorCatalog.standard.entries.count == Self.seed.count + Self.beyondPage.count)
        for (code, name) in Self.beyondPage {
            let entry = SDKErrorCatalog.standard.entry(for: code)
            #expect(entry.source == .fullSDK, "\(code)")
            #expect(!entry.isDocumented, "\(code)")
            #expect(entry.fullSDKName == name, "\(code)")
            #expect(entry.retryable, "\(code) must not end a journey")
            #expect(entry.journeyAction.contains("new attempt"), "\(code)")
            #expect(!entry.meaning.isEmpty && !entry.recommendedAction.isEmpty, "\(code)")
        }
    }

    @Test("the contract's meanings: cancel, consent, environment not set, session timeout at 73710")
    func beyondThePageMeanings() {
        let catalog = SDKErrorCatalog.standard
        #expect(catalog.entry(for: .userCancelled).meaning.contains("cancel"))
        #expect(catalog.entry(for: .consentNotGiven).meaning.contains("consent"))
        #expect(catalog.entry(for: .environmentNotSet).meaning.contains("setEnvironment"))
        #expect(catalog.entry(for: .environmentNotSet).category == .integrationBug)
        #expect(catalog.entry(for: .sessionTimeout).meaning.contains("timed out"))
        #expect(catalog.entry(for: 73705).meaning.contains("camera permission denied"))
        #expect(catalog.entry(for: .networkError).category == .transient)
        #expect(catalog.entry(for: .userCancelled).category == .captureInterrupted)
    }

    @Test("the page's non-retryable codes are unchanged by the off-page ones")
    func pageStillDecides() {
        #expect(RetryPolicy.standard.nonRetryableCodes == Set(SDKErrorCatalog.standard.nonRetryableCodes))
        #expect(Set(SDKErrorCatalog.fullSDK.map(\.code)).isDisjoint(with: RetryPolicy.standard.nonRetryableCodes))
    }

    @Test("a code listed nowhere fails the attempt without ending the journey, and says so")
    func unknown() {
        let entry = SDKErrorCatalog.standard.entry(for: 12_345)
        #expect(entry.code == 12_345)
        #expect(entry.category == .unknown)
        #expect(entry.retryable)
        #expect(entry.source == .unlisted)
        #expect(!entry.isDocumented)
        #expect(entry.recommendedAction.contains("Unico support"))
        #expect(AttemptFailureReason.sdkError(12_345).retryable)
    }
}
