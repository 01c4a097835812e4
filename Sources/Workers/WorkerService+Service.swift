import Lifecycle

/// `run()` polls until the group cancels it.
extension WorkerService: Service {}
