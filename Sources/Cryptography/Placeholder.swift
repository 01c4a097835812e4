// Cryptography module.
