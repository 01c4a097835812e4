import Testing
@testable import Reports

@Suite struct ReportsPlaceholderTests {
    @Test func moduleLinks() { #expect(String(describing: ReportsModule.self) == "ReportsModule") }
}
