import Testing
@testable import Audit

@Suite struct AuditPlaceholderTests {
    @Test func moduleLinks() { #expect(String(describing: AuditModule.self) == "AuditModule") }
}
