import ErrorCodes
import Testing

@Suite struct CodedErrorTests {
    struct SampleError: CodedError {
        struct Code: ErrorCode {
            let rawValue: String
            init(rawValue: String) { self.rawValue = rawValue }
            static let notFound = Code(rawValue: "not_found")
        }
        var code: Code
        var message: String
    }

    @Test func describesItselfAsCodeColonMessage() {
        let error = SampleError(code: .notFound, message: "no journey has this id")
        #expect(error.description == "not_found: no journey has this id")
        #expect("\(error)" == "not_found: no journey has this id")
    }

    @Test func aCodeIsItsTextAndComparesByIt() {
        #expect(SampleError.Code.notFound.description == "not_found")
        #expect("\(SampleError.Code.notFound)" == "not_found")
        #expect(SampleError.Code("not_found") == .notFound)
        #expect(SampleError.Code(rawValue: "other") != .notFound)
        #expect(Set([SampleError.Code.notFound, SampleError.Code("not_found")]).count == 1)
    }
}
