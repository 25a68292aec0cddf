// OpenSSL libcrypto's functions, loaded on first use (loader.h): the ones Cryptography calls for
// HomeKit pairing, with OpenSSL 3.0's prototypes. libcrypto initialises itself when it is loaded, so
// only a process that pairs pays for it.
#include "COnDemand.h"
#include "loader.h"

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/opensslv.h>
#include <openssl/rand.h>

#define CRYPTO_FUNCTIONS(X) \
    X(int, EVP_Digest, (const void *data, size_t count, unsigned char *md, unsigned int *size, const EVP_MD *type, ENGINE *impl), \
        (data, count, md, size, type, impl)) \
    X(const EVP_MD *, EVP_sha512, (void), ()) \
    X(EVP_PKEY_CTX *, EVP_PKEY_CTX_new, (EVP_PKEY *pkey, ENGINE *e), (pkey, e)) \
    X(EVP_PKEY_CTX *, EVP_PKEY_CTX_new_id, (int id, ENGINE *e), (id, e)) \
    X(int, EVP_PKEY_derive_init, (EVP_PKEY_CTX *ctx), (ctx)) \
    X(int, EVP_PKEY_derive_set_peer, (EVP_PKEY_CTX *ctx, EVP_PKEY *peer), (ctx, peer)) \
    X(int, EVP_PKEY_derive, (EVP_PKEY_CTX *ctx, unsigned char *key, size_t *keylen), (ctx, key, keylen)) \
    X(int, EVP_PKEY_CTX_set_hkdf_md, (EVP_PKEY_CTX *ctx, const EVP_MD *md), (ctx, md)) \
    X(int, EVP_PKEY_CTX_set1_hkdf_salt, (EVP_PKEY_CTX *ctx, const unsigned char *salt, int saltlen), (ctx, salt, saltlen)) \
    X(int, EVP_PKEY_CTX_set1_hkdf_key, (EVP_PKEY_CTX *ctx, const unsigned char *key, int keylen), (ctx, key, keylen)) \
    X(int, EVP_PKEY_CTX_add1_hkdf_info, (EVP_PKEY_CTX *ctx, const unsigned char *info, int infolen), (ctx, info, infolen)) \
    X(EVP_PKEY *, EVP_PKEY_new_raw_private_key, (int type, ENGINE *e, const unsigned char *priv, size_t len), (type, e, priv, len)) \
    X(EVP_PKEY *, EVP_PKEY_new_raw_public_key, (int type, ENGINE *e, const unsigned char *pub, size_t len), (type, e, pub, len)) \
    X(int, EVP_PKEY_get_raw_private_key, (const EVP_PKEY *pkey, unsigned char *priv, size_t *len), (pkey, priv, len)) \
    X(int, EVP_PKEY_get_raw_public_key, (const EVP_PKEY *pkey, unsigned char *pub, size_t *len), (pkey, pub, len)) \
    X(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ()) \
    X(int, EVP_DigestSignInit, (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey), \
        (ctx, pctx, type, e, pkey)) \
    X(int, EVP_DigestSign, (EVP_MD_CTX *ctx, unsigned char *sigret, size_t *siglen, const unsigned char *tbs, size_t tbslen), \
        (ctx, sigret, siglen, tbs, tbslen)) \
    X(int, EVP_DigestVerifyInit, (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey), \
        (ctx, pctx, type, e, pkey)) \
    X(int, EVP_DigestVerify, (EVP_MD_CTX *ctx, const unsigned char *sigret, size_t siglen, const unsigned char *tbs, size_t tbslen), \
        (ctx, sigret, siglen, tbs, tbslen)) \
    X(const EVP_CIPHER *, EVP_chacha20_poly1305, (void), ()) \
    X(EVP_CIPHER_CTX *, EVP_CIPHER_CTX_new, (void), ()) \
    X(int, EVP_CIPHER_CTX_ctrl, (EVP_CIPHER_CTX *ctx, int type, int arg, void *ptr), (ctx, type, arg, ptr)) \
    X(int, EVP_CipherInit_ex, \
        (EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher, ENGINE *impl, const unsigned char *key, const unsigned char *iv, int enc), \
        (ctx, cipher, impl, key, iv, enc)) \
    X(int, EVP_CipherUpdate, (EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl, const unsigned char *in, int inl), \
        (ctx, out, outl, in, inl)) \
    X(int, EVP_CipherFinal_ex, (EVP_CIPHER_CTX *ctx, unsigned char *outm, int *outl), (ctx, outm, outl)) \
    X(int, RAND_bytes, (unsigned char *buf, int num), (buf, num)) \
    X(unsigned long, ERR_get_error, (void), ()) \
    X(BIGNUM *, BN_new, (void), ()) \
    X(BN_CTX *, BN_CTX_new, (void), ()) \
    X(BIGNUM *, BN_bin2bn, (const unsigned char *s, int len, BIGNUM *ret), (s, len, ret)) \
    X(int, BN_bn2binpad, (const BIGNUM *a, unsigned char *to, int tolen), (a, to, tolen)) \
    X(int, BN_num_bits, (const BIGNUM *a), (a)) \
    X(int, BN_is_zero, (const BIGNUM *a), (a)) \
    X(int, BN_cmp, (const BIGNUM *a, const BIGNUM *b), (a, b)) \
    X(int, BN_add, (BIGNUM *r, const BIGNUM *a, const BIGNUM *b), (r, a, b)) \
    X(int, BN_sub, (BIGNUM *r, const BIGNUM *a, const BIGNUM *b), (r, a, b)) \
    X(int, BN_mul, (BIGNUM *r, const BIGNUM *a, const BIGNUM *b, BN_CTX *ctx), (r, a, b, ctx)) \
    X(int, BN_nnmod, (BIGNUM *r, const BIGNUM *m, const BIGNUM *d, BN_CTX *ctx), (r, m, d, ctx)) \
    X(int, BN_mod_add, (BIGNUM *r, const BIGNUM *a, const BIGNUM *b, const BIGNUM *m, BN_CTX *ctx), (r, a, b, m, ctx)) \
    X(int, BN_mod_sub, (BIGNUM *r, const BIGNUM *a, const BIGNUM *b, const BIGNUM *m, BN_CTX *ctx), (r, a, b, m, ctx)) \
    X(int, BN_mod_mul, (BIGNUM *r, const BIGNUM *a, const BIGNUM *b, const BIGNUM *m, BN_CTX *ctx), (r, a, b, m, ctx)) \
    X(int, BN_mod_exp, (BIGNUM *r, const BIGNUM *a, const BIGNUM *p, const BIGNUM *m, BN_CTX *ctx), (r, a, p, m, ctx)) \
    X(int, BN_mod_exp_mont_consttime, \
        (BIGNUM *rr, const BIGNUM *a, const BIGNUM *p, const BIGNUM *m, BN_CTX *ctx, BN_MONT_CTX *in_mont), (rr, a, p, m, ctx, in_mont)) \
    X(int, BN_is_odd, (const BIGNUM *a), (a))

#define CRYPTO_PROCEDURES(X) \
    X(EVP_PKEY_CTX_free, (EVP_PKEY_CTX *ctx), (ctx)) \
    X(EVP_PKEY_free, (EVP_PKEY *pkey), (pkey)) \
    X(EVP_MD_CTX_free, (EVP_MD_CTX *ctx), (ctx)) \
    X(EVP_CIPHER_CTX_free, (EVP_CIPHER_CTX *c), (c)) \
    X(ERR_error_string_n, (unsigned long e, char *buf, size_t len), (e, buf, len)) \
    X(ERR_clear_error, (void), ()) \
    X(BN_clear_free, (BIGNUM *a), (a)) \
    X(BN_CTX_free, (BN_CTX *c), (c))

static const char *const libraries[] = {"libcrypto.so." ONDEMAND_STRINGIFY(OPENSSL_VERSION_MAJOR)};

ONDEMAND_LIBRARY(CRYPTO_FUNCTIONS, CRYPTO_PROCEDURES, ONDEMAND_NONE, COnDemand_cryptoFailure)
