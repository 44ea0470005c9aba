// The parts of the system's OpenSSL libcrypto that RegState uses on Linux:
// SHA-256, HMAC, random bytes and RSA (RS256, PS256, PS512) through the EVP interface.
#ifndef REGSTATE_CLIBCRYPTO_SHIM_H
#define REGSTATE_CLIBCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#endif
