// JourneyTesting module.
