// The parts of the system's OpenSSL libcrypto that RegState uses on Linux:
// SHA-256, HMAC and RSA (RS256, PS256, PS512) and ECDSA P-256 through the EVP interface; random bytes come from the
// kernel's getrandom(2) (<sys/random.h>), which libcrypto itself seeds from.
#ifndef REGSTATE_CLIBCRYPTO_SHIM_H
#define REGSTATE_CLIBCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <sys/random.h>
#endif
