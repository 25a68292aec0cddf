// OpenSSL's libcrypto, for the one digest HTTP Digest authentication needs on the client side.
#ifndef AIRLAB_CCRYPTO_SHIM_H
#define AIRLAB_CCRYPTO_SHIM_H

#include <openssl/evp.h>

#endif
