import Foundation

extension ProgressBar {
    /// A terminal bar: `append [##########--------------]  42% 4200/10000 1.2k/s ETA 0:05`.
    public static func bar(label: String, done: Int, total: Int, elapsed: Duration, width: Int) -> String {
        let fraction = total > 0 ? Double(min(done, total)) / Double(total) : 1
        let width = max(0, width)
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return "\(label) [\(bar)] \(percent(fraction).paddedLeft(to: 4)) \(done)/\(total) "
            + "\(rate(done: done, elapsed: elapsed)) ETA \(eta(done: done, total: total, elapsed: elapsed))"
    }

    /// A plain log line: `append: 42% (4200/10000), 1.2k/s, ETA 0:05`.
    public static func line(label: String, done: Int, total: Int, elapsed: Duration) -> String {
        let fraction = total > 0 ? Double(min(done, total)) / Double(total) : 1
        return "\(label): \(percent(fraction)) (\(done)/\(total)), \(rate(done: done, elapsed: elapsed)), "
            + "ETA \(eta(done: done, total: total, elapsed: elapsed))"
    }

    /// The closing line when not on a terminal: `append: 10000 done in 0:08, 1.2k/s`.
    public static func summary(label: String, done: Int, elapsed: Duration) -> String {
        "\(label): \(done) done in \(clock(elapsed.seconds)), \(rate(done: done, elapsed: elapsed))"
    }

    /// A whole percentage, rounded down so 100% means done: `42%`.
    static func percent(_ fraction: Double) -> String {
        "\(Int((fraction * 100).rounded(.down)))%"
    }

    /// Units per second: `0/s`, `7.5/s`, `420/s`, `1.2k/s`, `3.4M/s`.
    static func rate(done: Int, elapsed: Duration) -> String {
        let seconds = elapsed.seconds
        guard seconds > 0 else { return "-/s" }
        let perSecond = Double(done) / seconds
        switch perSecond {
        case 1_000_000...: return "\(oneDecimal(perSecond / 1_000_000))M/s"
        case 1_000...: return "\(oneDecimal(perSecond / 1_000))k/s"
        case ..<10: return "\(oneDecimal(perSecond))/s"
        default: return "\(Int(perSecond.rounded()))/s"
        }
    }

    /// Time left at the average rate so far: `0:05`, `1:02:03`; `--:--` before any progress.
    static func eta(done: Int, total: Int, elapsed: Duration) -> String {
        let seconds = elapsed.seconds
        guard done > 0, seconds > 0 else { return done >= total ? "0:00" : "--:--" }
        return clock(Double(max(0, total - done)) * seconds / Double(done))
    }

    /// Seconds as `m:ss` or `h:mm:ss`, rounded up so work is never shown as done early;
    /// `>99h` beyond 99 hours.
    static func clock(_ seconds: Double) -> String {
        guard seconds <= 99 * 3600 else { return ">99h" }
        let whole = Int(max(0, seconds).rounded(.up))
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        let ss = secs < 10 ? "0\(secs)" : "\(secs)"
        guard hours > 0 else { return "\(minutes):\(ss)" }
        return "\(hours):\(minutes < 10 ? "0\(minutes)" : "\(minutes)"):\(ss)"
    }

    private static func oneDecimal(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var seconds: Double { self / .seconds(1) }
}
