/// A parsed route template; matches percent-decoded path segments.
struct PathTemplate: Sendable, Hashable {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]

    /// Parses `template`; returns nil for a malformed one (no leading `/`, empty or duplicate names,
    /// braces inside a segment).
    init?(_ template: String) {
        guard template.hasPrefix("/") else { return nil }
        var names: Set<String> = []
        var segments: [Segment] = []
        for part in Self.split(template) {
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                let name = String(part.dropFirst().dropLast())
                guard !name.contains("{"), !name.contains("}"), names.insert(name).inserted else { return nil }
                segments.append(.parameter(name))
            } else {
                guard !part.contains("{"), !part.contains("}") else { return nil }
                segments.append(.literal(part))
            }
        }
        self.segments = segments
    }

    /// The captured parameters when `path` (decoded segments) matches, nil otherwise.
    func match(_ path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, value) in zip(segments, path) {
            switch segment {
            case .literal(let literal):
                guard literal == value else { return nil }
            case .parameter(let name):
                guard !value.isEmpty else { return nil }
                parameters[name] = value
            }
        }
        return parameters
    }

    /// Whether `self` should win over `other` when both match: the first literal segment wins.
    func isMoreSpecific(than other: PathTemplate) -> Bool {
        for (mine, theirs) in zip(segments, other.segments) {
            switch (mine, theirs) {
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return false
    }

    /// The shape used to detect duplicates: parameter names do not matter.
    var shape: [String?] {
        segments.map { if case .literal(let literal) = $0 { literal } else { nil } }
    }

    /// Splits a path into segments, ignoring empty ones (`//`, trailing `/`).
    static func split(_ path: some StringProtocol) -> [String] {
        path.split(separator: "/" as Character, omittingEmptySubsequences: true).map { String($0) }
    }

    /// Splits a raw path and percent-decodes each segment; nil when an escape is invalid.
    static func decodedSegments(_ rawPath: String) -> [String]? {
        var result: [String] = []
        for part in split(rawPath) {
            guard let decoded = PercentDecoding.decode(part) else { return nil }
            result.append(decoded)
        }
        return result
    }
}
