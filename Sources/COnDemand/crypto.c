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

static struct {
    CRYPTO_FUNCTIONS(ONDEMAND_POINTER)
} real;

static struct ondemand_state state = {PTHREAD_ONCE_INIT, NULL, {0}};

static const char *const libraries[] = {"libcrypto.so." ONDEMAND_STRINGIFY(OPENSSL_VERSION_MAJOR)};

static void load(void) {
    void *handle = ondemand_open(&state, libraries, 1);
    if (!handle) return;
#define RESOLVE(type, name, parameters, arguments) \
    if (!ondemand_resolve(&state, handle, libraries[0], #name, (void **)&real.name)) return;
    CRYPTO_FUNCTIONS(RESOLVE)
}

const char *COnDemand_cryptoFailure(void) {
    pthread_once(&state.once, load);
    return state.failure;
}

#define FORWARD(type, name, parameters, arguments) ONDEMAND_FORWARD(state, load, real, type, name, parameters, arguments)
CRYPTO_FUNCTIONS(FORWARD)
