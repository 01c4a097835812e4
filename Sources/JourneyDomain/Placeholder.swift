// JourneyDomain module.
