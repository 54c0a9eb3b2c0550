// Row fingerprints in native code (issue 30): HMAC-SHA-256 of many byte ranges of one buffer in one call,
// truncated to 64 bits. Same definition as libs/csv-engine/src/history/hmac.ts (which stays the fallback
// when this addon is not built): a row is either one range (the whole output row) or k ranges, each fed as
// a 4-byte big-endian length then its bytes (key columns). SHA-256 is OpenSSL's, which the node binary
// exports to addons (it uses the CPU's SHA extensions where present); the key's inner and outer pad
// blocks are compressed once, in prepareKey(), and copied per row.
#include <node_api.h>
#include <openssl/sha.h>
#include <stdint.h>
#include <string.h>

typedef struct {
  SHA256_CTX inner;
  SHA256_CTX outer;
} keyed_t;

#define CHECK(call)                                                                            \
  do {                                                                                         \
    if ((call) != napi_ok) {                                                                   \
      napi_throw_error(env, "ERR_FINGERPRINTS", "fingerprints: bad arguments");                \
      return NULL;                                                                             \
    }                                                                                          \
  } while (0)

static int bytes_of(napi_env env, napi_value v, uint8_t **data, size_t *len) {
  napi_typedarray_type type;
  napi_value ab;
  size_t off;
  if (napi_get_typedarray_info(env, v, &type, len, (void **)data, &ab, &off) != napi_ok) return 0;
  return type == napi_uint8_array;
}

static int typed_of(napi_env env, napi_value v, napi_typedarray_type want, void **data, size_t *len) {
  napi_typedarray_type type;
  napi_value ab;
  size_t off;
  if (napi_get_typedarray_info(env, v, &type, len, data, &ab, &off) != napi_ok) return 0;
  return type == want;
}

// prepareKey(key: Uint8Array): Uint8Array — the keyed inner/outer states.
static napi_value PrepareKey(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint8_t *key;
  size_t klen;
  if (argc < 1 || !bytes_of(env, argv[0], &key, &klen)) {
    napi_throw_type_error(env, "ERR_FINGERPRINTS", "prepareKey: a Uint8Array key");
    return NULL;
  }
  uint8_t k[64];
  memset(k, 0, sizeof k);
  if (klen > 64) SHA256(key, klen, k);
  else memcpy(k, key, klen);
  napi_value ab, out;
  void *mem;
  CHECK(napi_create_arraybuffer(env, sizeof(keyed_t), &mem, &ab));
  keyed_t *st = (keyed_t *)mem;
  uint8_t pad[64];
  for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x36;
  SHA256_Init(&st->inner);
  SHA256_Update(&st->inner, pad, 64);
  for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x5c;
  SHA256_Init(&st->outer);
  SHA256_Update(&st->outer, pad, 64);
  CHECK(napi_create_typedarray(env, napi_uint8_array, sizeof(keyed_t), ab, 0, &out));
  return out;
}

// hmacSpans(key, buf, spans: Int32Array, fieldsPerRow, rows, out: Uint32Array): void
// fieldsPerRow 0: row r is buf[spans[2r], spans[2r+1]). k > 0: row r is k length-prefixed fields, spans
// [2(rk+j), 2(rk+j)+1]. out[2r], out[2r+1]: the digest's first two big-endian words.
static napi_value HmacSpans(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint8_t *keyp, *buf;
  size_t keylen, buflen, nspans, nout;
  int32_t *spans;
  uint32_t *out;
  int32_t k, rows;
  if (argc < 6 || !bytes_of(env, argv[0], &keyp, &keylen) || keylen != sizeof(keyed_t) ||
      !bytes_of(env, argv[1], &buf, &buflen) ||
      !typed_of(env, argv[2], napi_int32_array, (void **)&spans, &nspans) ||
      napi_get_value_int32(env, argv[3], &k) != napi_ok || napi_get_value_int32(env, argv[4], &rows) != napi_ok ||
      !typed_of(env, argv[5], napi_uint32_array, (void **)&out, &nout) || k < 0 || rows < 0 ||
      (size_t)rows * 2 > nout || (size_t)rows * 2 * (size_t)(k == 0 ? 1 : k) > nspans) {
    napi_throw_type_error(env, "ERR_FINGERPRINTS", "hmacSpans: bad arguments");
    return NULL;
  }
  const keyed_t *st = (const keyed_t *)keyp;
  SHA256_CTX c;
  uint8_t d[32];
  const int32_t per = k == 0 ? 1 : k;
  for (int32_t r = 0; r < rows; r++) {
    c = st->inner;
    for (int32_t j = 0; j < per; j++) {
      int32_t s = spans[2 * (r * per + j)], e = spans[2 * (r * per + j) + 1];
      if (s < 0 || e < s || (size_t)e > buflen) {
        napi_throw_range_error(env, "ERR_FINGERPRINTS", "hmacSpans: a span outside the buffer");
        return NULL;
      }
      if (k > 0) {
        uint32_t n = (uint32_t)(e - s);
        uint8_t len[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
        SHA256_Update(&c, len, 4);
      }
      SHA256_Update(&c, buf + s, (size_t)(e - s));
    }
    SHA256_Final(d, &c);
    c = st->outer;
    SHA256_Update(&c, d, 32);
    SHA256_Final(d, &c);
    out[2 * r] = ((uint32_t)d[0] << 24) | ((uint32_t)d[1] << 16) | ((uint32_t)d[2] << 8) | d[3];
    out[2 * r + 1] = ((uint32_t)d[4] << 24) | ((uint32_t)d[5] << 16) | ((uint32_t)d[6] << 8) | d[7];
  }
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value f;
  napi_create_function(env, "prepareKey", NAPI_AUTO_LENGTH, PrepareKey, NULL, &f);
  napi_set_named_property(env, exports, "prepareKey", f);
  napi_create_function(env, "hmacSpans", NAPI_AUTO_LENGTH, HmacSpans, NULL, &f);
  napi_set_named_property(env, exports, "hmacSpans", f);
  return exports;
}
