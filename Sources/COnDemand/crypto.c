// OpenSSL libcrypto's functions, loaded on first use (loader.h): the two the MD5 of HTTP Digest needs.
// libcrypto initialises itself when it is loaded, which every process paid before.
#include "COnDemand.h"
#include "loader.h"

#include <openssl/evp.h>
#include <openssl/opensslv.h>

#define CRYPTO_FUNCTIONS(X) \
    X(int, EVP_Digest, (const void *data, size_t count, unsigned char *md, unsigned int *size, const EVP_MD *type, ENGINE *impl), \
        (data, count, md, size, type, impl)) \
    X(const EVP_MD *, EVP_md5, (void), ())

static const char *const libraries[] = {"libcrypto.so." ONDEMAND_STRINGIFY(OPENSSL_VERSION_MAJOR)};

ONDEMAND_LIBRARY(CRYPTO_FUNCTIONS, ONDEMAND_NONE, ONDEMAND_NONE, COnDemand_cryptoFailure)
