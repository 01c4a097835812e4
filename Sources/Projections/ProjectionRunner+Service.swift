import Lifecycle

/// `run()` follows the log until the group cancels it.
extension ProjectionRunner: Service {}
