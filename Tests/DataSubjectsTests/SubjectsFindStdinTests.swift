@preconcurrency import Glibc
import Foundation
import JourneyTesting
import Testing

/// Issue 23: `journeys subjects find --document -` reads the document from standard input, so it
/// appears in no process list or shell history.
@Suite(.serialized) struct SubjectsFindStdinTests {
    @Test func theDocumentComesFromStandardInput() async throws {
        var options = TestStack.Options(time: .system)
        options.emulatorRateLimit = 1000
        try await TestStack.with(options) { stack in
            let person = SubjectErasureEndToEndTests.one
            let journey = try await SubjectErasureEndToEndTests.complete(person, stack: stack, idempotencyKey: "stdin-1")

            let saved = dup(STDIN_FILENO)
            var pipe: [Int32] = [0, 0]
            #expect(Foundation.pipe(&pipe) == 0)
            let line = person.formatted + "\n"
            _ = line.withCString { write(pipe[1], $0, strlen($0)) }
            close(pipe[1])
            dup2(pipe[0], STDIN_FILENO)
            close(pipe[0])
            clearerr(stdin)
            let found = await SubjectsCommandTests().journeys(
                ["subjects", "find", "--document", "-", "--format", "json"],
                stack.database)
            dup2(saved, STDIN_FILENO)
            close(saved)
            clearerr(stdin)
            #expect(found.code == 0, "\(found.error)")
            let finding = try JSONSerialization.jsonObject(with: Data(found.output.utf8)) as? [String: Any]
            #expect(finding?["journeyIds"] as? [String] == [journey.id])
            #expect(!found.output.contains(person.cpf))
        }
    }
}
