import Foundation

extension EndToEndBenchmark {
    /// CPU time (user + system) spent by this process and by an embedded cluster's processes,
    /// read from the kernel's counters: a figure that stays meaningful on a loaded machine, where
    /// wall-clock rates and latencies do not.
    struct CPUTime: Sendable, Equatable {
        /// This process: service, emulator and load client.
        var process: Double
        /// The postmaster's children (backends, WAL writer, checkpointer...); nil without a cluster folder.
        var postgres: Double?

        /// Now, with the cluster whose `postmaster.pid` is in `dataDirectory` (nil: not counted).
        static func now(dataDirectory: String?) -> CPUTime {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let process =
                Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
            return CPUTime(process: process, postgres: dataDirectory.flatMap(postgresSeconds))
        }

        /// Seconds of CPU used by the children of the postmaster recorded in `dataDirectory`.
        static func postgresSeconds(dataDirectory: String) -> Double? {
            guard let pidFile = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
                let postmaster = pidFile.split(separator: "\n").first.flatMap({ Int($0) }),
                let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc")
            else { return nil }
            return entries.compactMap(Int.init).reduce(0.0) { total, pid in
                guard let stat = ProcStat(pid: pid), stat.parent == postmaster else { return total }
                return total + stat.cpuSeconds
            }
        }
    }

    /// The fields of `/proc/<pid>/stat` the bench reads.
    struct ProcStat: Equatable {
        let parent: Int
        let cpuSeconds: Double

        init?(pid: Int) {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
            self.init(stat: text)
        }

        /// Parses a stat line; the command name (in parentheses) may hold spaces.
        init?(stat text: String) {
            guard let close = text.lastIndex(of: ")") else { return nil }
            // After the name: state(3) ppid(4) ... utime(14) stime(15), counted from field 3.
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let parent = Int(fields[1]), let user = Double(fields[11]), let system = Double(fields[12])
            else { return nil }
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            self.parent = parent
            cpuSeconds = (user + system) / (ticks > 0 ? ticks : 100)
        }
    }
}
