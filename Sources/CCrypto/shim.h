// OpenSSL 3's libcrypto, for HomeKit pairing (Cryptography is its one importer): SHA-512, HKDF,
// Ed25519, X25519, ChaCha20-Poly1305, random bytes and BIGNUM for SRP-6a. Not linked: COnDemand
// defines the functions Cryptography calls and loads libcrypto on first use.
#ifndef AIRLAB_CCRYPTO_SHIM_H
#define AIRLAB_CCRYPTO_SHIM_H

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>

#endif
