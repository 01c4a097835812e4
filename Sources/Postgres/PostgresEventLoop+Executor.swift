import Glibc

/// The loop as a `TaskExecutor`: a job is queued and the loop thread runs it between epoll
/// waits. A job enqueued from the loop thread itself (a statement's completion resuming its
/// caller) costs no wake-up; from another thread, one eventfd write.
extension PostgresEventLoop: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard queue(job) else {
            globalConcurrentExecutor.enqueue(job)
            return
        }
        if !isCurrentThread { signal() }
    }

    /// Queues `job` for the loop thread (starting it); false when the loop is stopped or cannot
    /// run, and the job goes to the global executor instead.
    private func queue(_ job: UnownedJob) -> Bool {
        guard isUsable else { return false }
        startIfNeeded()
        return state.withLock { state -> Bool in
            guard !state.stopped, !state.exited else { return false }
            state.jobs.append(job)
            return true
        }
    }

    /// Runs the jobs queued so far (not those they enqueue: the loop polls its sockets first).
    func runJobs() {
        let jobs = state.withLock { state -> [UnownedJob] in
            guard !state.jobs.isEmpty else { return [] }
            defer { state.jobs = [] }
            return state.jobs
        }
        guard !jobs.isEmpty else { return }
        let executor = asUnownedTaskExecutor()
        for job in jobs { job.runSynchronously(on: executor) }
    }
}
