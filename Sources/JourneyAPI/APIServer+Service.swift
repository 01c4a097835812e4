import Lifecycle

/// `run()` starts listening and serves until the group cancels it, then shuts down gracefully.
extension APIServer: Service {}
