import Testing
@testable import UnicoEmulator

/// The hand-written matchers answer exactly like the regexes they replaced.
@Suite("Create Process field shapes")
struct FieldShapesTests {
    static let samples = [
        "", "s", "1s", "0s", "3600s", "1.5s", "1.s", ".5s", "12345678901s", "1234567890s", "1.123456789s", "1.1234567890s",
        "1..5s", "1.5.5s", "1.5", "-1s", "1e3s", "١s", "2\u{301}s", "+", "+12345678", "12345678", "1234567",
        "123456789012345", "1234567890123456", "+1234567890123456", "++12345678", "1234 5678", "+55119999９9999",
        "DUI_TYPE_BR_CPF", "DUI_TYPE_BR_", "DUI_TYPE_BR_X", "DUI_TYPE_B_CPF", "DUI_TYPE_br_CPF", "DUI_TYPE_BRX_CPF",
        "DUI_TYPE_BR__", "DUI_TYPE_BR_CPF_2", "DUI_TYPE_BR_cpf", "dui_type_BR_CPF", " DUI_TYPE_BR_CPF", "DUI_TYPE_BR_CPF ",
        "DUI_TYPE_BR_CPF\u{301}", "DUI_TYPE_ÀB_CPF", "DUI_TYPE_BR-CPF",
    ]

    @Test func equalTheRegexes() {
        for text in Self.samples {
            #expect(FieldShapes.isDUIType(text) == (text.wholeMatch(of: /DUI_TYPE_[A-Z]{2}_[A-Z0-9_]+/) != nil), "\(text)")
            #expect(FieldShapes.isPhone(text) == (text.wholeMatch(of: /\+?[0-9]{8,15}/) != nil), "\(text)")
            #expect(FieldShapes.isDuration(text) == (text.wholeMatch(of: /[0-9]{1,10}(\.[0-9]{1,9})?s/) != nil), "\(text)")
        }
    }

    @Test func acceptWhatTheServiceSends() {
        #expect(FieldShapes.isDUIType("DUI_TYPE_BR_CPF"))
        #expect(FieldShapes.isPhone("+5511999999999"))
        #expect(FieldShapes.isDuration("3600s"))
    }
}
