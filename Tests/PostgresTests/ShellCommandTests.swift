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
        let output = Result { try ShellCommand(executable: "/bin/sh", arguments: ["-c", "grep '^SigBlk' /proc/self/status"]).run() }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        let result = try output.get()
        #expect(result.status == 0)
        #expect(result.text.trimmingCharacters(in: .whitespacesAndNewlines) == "SigBlk:\t0000000000000000")
    }
}
