// UnicoEmulator module.
