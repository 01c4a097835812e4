import Testing
@testable import Workers

@Suite struct WorkersPlaceholderTests {
    @Test func moduleLinks() { #expect(String(describing: WorkersModule.self) == "WorkersModule") }
}
