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
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/// `BIO_get_mem_data` is a macro; Swift cannot call it directly.
static inline long shim_BIO_get_mem_data(BIO *bio, char **out) {
    return BIO_get_mem_data(bio, out);
}

/// `EVP_PKEY_KEYPAIR` is a compound macro that Swift does not import.
static inline int shim_EVP_PKEY_KEYPAIR(void) { return EVP_PKEY_KEYPAIR; }

/// `EVP_PKEY_PUBLIC_KEY` is a compound macro that Swift does not import.
static inline int shim_EVP_PKEY_PUBLIC_KEY(void) { return EVP_PKEY_PUBLIC_KEY; }

/// `SSL_set_tlsext_host_name` (SNI) is a macro over `SSL_ctrl`.
static inline int shim_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// `SSL_CTX_set_min_proto_version` is a macro over `SSL_CTX_ctrl`.
static inline int shim_SSL_CTX_set_min_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

/// `SSL_get_servername`'s type argument is the macro `TLSEXT_NAMETYPE_host_name` (for test receivers).
static inline const char *shim_SSL_get_servername(const SSL *ssl) {
    return SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
}
