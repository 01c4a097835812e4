import EmbeddedPostgres
import Foundation
import Testing

/// Programs the embedded cluster spawns (pg_ctl, pgbouncer) start with no blocked signals, whatever
/// the spawning thread blocks: a daemon that inherited a blocked SIGTERM could never be stopped.
@Suite struct ShellCommandTests {
    @Test func aSpawnedProgramStartsWithNoBlockedSignalsEvenFromAThreadThatBlocksThem() throws {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGINT)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let output = Result {
            try ShellCommand(executable: "/bin/sh", arguments: ["-c", "grep '^SigBlk' /proc/self/status"]).run()
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        let result = try output.get()
        #expect(result.status == 0)
        #expect(result.text.trimmingCharacters(in: .whitespacesAndNewlines) == "SigBlk:\t0000000000000000")
    }

    /// A daemon started through it (postgres by pg_ctl) once kept the write end of a test's pipe
    /// for its whole life, and that test's read never saw end of file.
    @Test func aSpawnedProgramInheritsNoDescriptorBeyondTheStandardThree() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let probe = "if [ -e /proc/$$/fd/\(ends[1]) ]; then echo inherited; else echo closed; fi"
        let result = try ShellCommand(executable: "/bin/sh", arguments: ["-c", probe]).run()
        #expect(result.status == 0)
        #expect(result.text.trimmingCharacters(in: .whitespacesAndNewlines) == "closed")
    }
}
