#pragma once
#include <openssl/evp.h>
#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

/// `BIO_get_mem_data` is a macro; Swift cannot call it directly.
static inline long shim_BIO_get_mem_data(BIO *bio, char **out) {
    return BIO_get_mem_data(bio, out);
}

/// `EVP_PKEY_KEYPAIR` is a compound macro that Swift does not import.
static inline int shim_EVP_PKEY_KEYPAIR(void) { return EVP_PKEY_KEYPAIR; }

/// `EVP_PKEY_PUBLIC_KEY` is a compound macro that Swift does not import.
static inline int shim_EVP_PKEY_PUBLIC_KEY(void) { return EVP_PKEY_PUBLIC_KEY; }
