// EventStore module.
