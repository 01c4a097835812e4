/// Gathers field issues while validation continues, so one answer lists every invalid field.
struct IssueCollector {
    private(set) var issues: [FieldIssue] = []

    /// The value on success; records the issue and returns nil on failure.
    mutating func take<T>(_ result: Result<T, FieldIssue>) -> T? {
        switch result {
        case .success(let value):
            return value
        case .failure(let issue):
            issues.append(issue)
            return nil
        }
    }

    mutating func add(_ issue: FieldIssue) {
        issues.append(issue)
    }
}
