/// Collects what sample commands did, found through a task-local so tests stay independent.
actor Recorder {
    @TaskLocal static var current: Recorder?

    private(set) var entries: [String] = []

    func record(_ entry: String) {
        entries.append(entry)
    }
}
