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

// insertPacked(words: Uint32Array, runs: Uint8Array | Uint16Array, bytes: Uint8Array, run, homeBits):
// number — adds the packed big-endian 8-byte fingerprints of one bucket to its open-addressing table
// (history/set.ts FingerprintSet.addPacked, the same slots: home = (hi's low homeBits bits * slots) >>
// homeBits, linear probing, `lo` stored, 0 written as 1; a fingerprint already there keeps its run).
// Answers how many were new.
static napi_value InsertPacked(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint32_t *words;
  void *runs;
  uint8_t *bytes;
  size_t slots, nruns, nbytes;
  napi_typedarray_type rt;
  napi_value ab;
  size_t off;
  int32_t run, home_bits;
  if (argc < 5 || !typed_of(env, argv[0], napi_uint32_array, (void **)&words, &slots) ||
      napi_get_typedarray_info(env, argv[1], &rt, &nruns, &runs, &ab, &off) != napi_ok ||
      (rt != napi_uint8_array && rt != napi_uint16_array) || nruns != slots ||
      !bytes_of(env, argv[2], &bytes, &nbytes) || napi_get_value_int32(env, argv[3], &run) != napi_ok ||
      napi_get_value_int32(env, argv[4], &home_bits) != napi_ok || slots == 0 || home_bits < 1 ||
      home_bits > 31 || run < 0) {
    napi_throw_type_error(env, "ERR_FINGERPRINTS", "insertPacked: bad arguments");
    return NULL;
  }
  const uint32_t mask = (uint32_t)((1ull << home_bits) - 1);
  uint32_t added = 0;
  const size_t count = nbytes / 8;
  size_t home[16];
  for (size_t g = 0; g < count; g += 16) {
    const size_t m = count - g < 16 ? count - g : 16;
    // The group's home slots are prefetched, then the fingerprints are added in their order.
    for (size_t j = 0; j < m; j++) {
      const uint8_t *p = bytes + 8 * (g + j);
      uint32_t hi = ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
      home[j] = (size_t)(((uint64_t)(hi & mask) * slots) >> home_bits);
      __builtin_prefetch(&words[home[j]], 1);
    }
    for (size_t j = 0; j < m; j++) {
      const uint8_t *p = bytes + 8 * (g + j);
      uint32_t lo = ((uint32_t)p[4] << 24) | ((uint32_t)p[5] << 16) | ((uint32_t)p[6] << 8) | p[7];
      uint32_t v = lo == 0 ? 1 : lo;
      size_t k = home[j];
      for (size_t probes = 0; probes < slots; probes++) {
        uint32_t w = words[k];
        if (w == 0) {
          words[k] = v;
          if (rt == napi_uint8_array) ((uint8_t *)runs)[k] = (uint8_t)run;
          else ((uint16_t *)runs)[k] = (uint16_t)run;
          added++;
          break;
        }
        if (w == v) break;
        if (++k == slots) k = 0;
      }
    }
  }
  napi_value res;
  CHECK(napi_create_uint32(env, added, &res));
  return res;
}

#define BUCKETS_MAX 64
#define GROUP 16

// lookupMany(words: (Uint32Array|null)[64], runs: (Uint8Array|Uint16Array|null)[64], fps: Uint32Array,
// n, out: Int32Array, homeBits): out[i] = the run index of fingerprint (fps[2i], fps[2i+1]), or -1 —
// FingerprintSet.find for many at once, the home slots of a group prefetched before they are probed.
static napi_value LookupMany(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint32_t nb;
  uint32_t *words[BUCKETS_MAX];
  void *runs[BUCKETS_MAX];
  int wide[BUCKETS_MAX];
  size_t slots[BUCKETS_MAX];
  uint32_t *fps;
  int32_t *out;
  size_t nfps, nout;
  int32_t n, home_bits;
  if (argc < 6 || napi_get_array_length(env, argv[0], &nb) != napi_ok || nb > BUCKETS_MAX ||
      !typed_of(env, argv[2], napi_uint32_array, (void **)&fps, &nfps) ||
      napi_get_value_int32(env, argv[3], &n) != napi_ok ||
      !typed_of(env, argv[4], napi_int32_array, (void **)&out, &nout) ||
      napi_get_value_int32(env, argv[5], &home_bits) != napi_ok || n < 0 || (size_t)n * 2 > nfps ||
      (size_t)n > nout || home_bits < 1 || home_bits > 31 || (32 - home_bits) > 6 ||
      nb != (1u << (32 - home_bits))) {
    napi_throw_type_error(env, "ERR_FINGERPRINTS", "lookupMany: bad arguments");
    return NULL;
  }
  for (uint32_t b = 0; b < nb; b++) {
    napi_value w, r;
    napi_valuetype t;
    CHECK(napi_get_element(env, argv[0], b, &w));
    CHECK(napi_get_element(env, argv[1], b, &r));
    CHECK(napi_typeof(env, w, &t));
    words[b] = NULL;
    slots[b] = 0;
    if (t == napi_null || t == napi_undefined) continue;
    size_t ns, nr;
    napi_typedarray_type rt;
    napi_value ab;
    size_t off;
    if (!typed_of(env, w, napi_uint32_array, (void **)&words[b], &ns) ||
        napi_get_typedarray_info(env, r, &rt, &nr, &runs[b], &ab, &off) != napi_ok ||
        (rt != napi_uint8_array && rt != napi_uint16_array) || nr != ns || ns == 0) {
      napi_throw_type_error(env, "ERR_FINGERPRINTS", "lookupMany: bad tables");
      return NULL;
    }
    slots[b] = ns;
    wide[b] = rt == napi_uint16_array;
  }
  const uint32_t mask = (uint32_t)((1ull << home_bits) - 1);
  size_t home[GROUP];
  for (int32_t g = 0; g < n; g += GROUP) {
    int32_t m = n - g < GROUP ? n - g : GROUP;
    for (int32_t i = 0; i < m; i++) {
      uint32_t hi = fps[2 * (g + i)];
      uint32_t b = hi >> home_bits;
      if (words[b] == NULL) continue;
      home[i] = (size_t)(((uint64_t)(hi & mask) * slots[b]) >> home_bits);
      __builtin_prefetch(&words[b][home[i]]);
    }
    for (int32_t i = 0; i < m; i++) {
      uint32_t hi = fps[2 * (g + i)], lo = fps[2 * (g + i) + 1];
      uint32_t b = hi >> home_bits;
      int32_t found = -1;
      if (words[b] != NULL) {
        uint32_t v = lo == 0 ? 1 : lo;
        size_t k = home[i], ns = slots[b];
        for (size_t probes = 0; probes < ns; probes++) {
          uint32_t w = words[b][k];
          if (w == v) {
            found = wide[b] ? ((uint16_t *)runs[b])[k] : ((uint8_t *)runs[b])[k];
            break;
          }
          if (w == 0) break;
          if (++k == ns) k = 0;
        }
      }
      out[g + i] = found;
    }
  }
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value f0;
  napi_create_function(env, "lookupMany", NAPI_AUTO_LENGTH, LookupMany, NULL, &f0);
  napi_set_named_property(env, exports, "lookupMany", f0);
  napi_create_function(env, "insertPacked", NAPI_AUTO_LENGTH, InsertPacked, NULL, &f0);
  napi_set_named_property(env, exports, "insertPacked", f0);
  napi_value f;
  napi_create_function(env, "prepareKey", NAPI_AUTO_LENGTH, PrepareKey, NULL, &f);
  napi_set_named_property(env, exports, "prepareKey", f);
  napi_create_function(env, "hmacSpans", NAPI_AUTO_LENGTH, HmacSpans, NULL, &f);
  napi_set_named_property(env, exports, "hmacSpans", f);
  return exports;
}
