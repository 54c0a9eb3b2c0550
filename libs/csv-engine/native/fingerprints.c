// Row fingerprints in native code (issue 30): HMAC-SHA-256 of many byte ranges of one buffer in one call,
// truncated to 64 bits. Same definition as libs/csv-engine/src/history/hmac.ts (which stays the fallback
// when this addon is not built): a row is either one range (the whole output row) or k ranges, each fed as
// a 4-byte big-endian length then its bytes (key columns). SHA-256 is OpenSSL's, which the node binary
// exports to addons (it uses the CPU's SHA extensions where present); the key's inner and outer pad
// blocks are compressed once, in prepareKey(), and copied per row.
// hmacSpans, insertPacked (as insertManyAsync: several parts of one bucket) and lookupMany also have
// `…Async` forms that do the same work on libuv's thread pool and answer a Promise (their arguments are
// held until then and must not change meanwhile): a run's hashing, lookups and loading then take the other
// core while the main thread maps.
#include <node_api.h>
#include <openssl/sha.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
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

typedef struct {
  const keyed_t *key;
  const uint8_t *buf;
  size_t buflen;
  const int32_t *spans;
  int32_t k, rows;
  uint32_t *out;
} hmac_args;

// Validates hmacSpans' arguments (argv[0..5]) into a; throws and answers 0 when they are wrong.
static int hmac_parse(napi_env env, napi_value *argv, size_t argc, hmac_args *a) {
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
    return 0;
  }
  // Every span is checked here, on the main thread, so the work itself cannot fail.
  const int32_t per = k == 0 ? 1 : k;
  for (size_t i = 0; i < (size_t)rows * (size_t)per; i++) {
    int32_t s = spans[2 * i], e = spans[2 * i + 1];
    if (s < 0 || e < s || (size_t)e > buflen) {
      napi_throw_range_error(env, "ERR_FINGERPRINTS", "hmacSpans: a span outside the buffer");
      return 0;
    }
  }
  a->key = (const keyed_t *)keyp;
  a->buf = buf;
  a->buflen = buflen;
  a->spans = spans;
  a->k = k;
  a->rows = rows;
  a->out = out;
  return 1;
}

// The HMAC of one whole row p[0, n) into (hi, lo), its blocks fed to SHA256_Transform straight: the row's
// full blocks where they are, then its tail with the padding (the message is the 64-byte inner pad block
// then the row), then the outer block (the digest, padded). The same values as SHA256_Update/Final with
// none of their buffering, which cost about as much again as the compression itself for rows of ~120 bytes.
static void hmac_whole(const keyed_t *key, const uint8_t *p, size_t n, uint32_t *hi, uint32_t *lo) {
  SHA256_CTX c = key->inner;
  const size_t full = n / 64;
  for (size_t i = 0; i < full; i++) SHA256_Transform(&c, p + 64 * i);
  uint8_t blk[128];
  const size_t rem = n - 64 * full;
  memcpy(blk, p + 64 * full, rem);
  blk[rem] = 0x80;
  const size_t total = rem + 1 + 8 <= 64 ? 64 : 128;
  memset(blk + rem + 1, 0, total - rem - 1 - 8);
  uint64_t bits = ((uint64_t)n + 64) * 8;
  for (int i = 0; i < 8; i++) blk[total - 1 - i] = (uint8_t)(bits >> (8 * i));
  SHA256_Transform(&c, blk);
  if (total == 128) SHA256_Transform(&c, blk + 64);
  uint8_t ob[64];
  for (int i = 0; i < 8; i++) {
    uint32_t h = c.h[i];
    ob[4 * i] = (uint8_t)(h >> 24);
    ob[4 * i + 1] = (uint8_t)(h >> 16);
    ob[4 * i + 2] = (uint8_t)(h >> 8);
    ob[4 * i + 3] = (uint8_t)h;
  }
  ob[32] = 0x80;
  memset(ob + 33, 0, 64 - 33 - 8);
  bits = (64 + 32) * 8;
  for (int i = 0; i < 8; i++) ob[63 - i] = (uint8_t)(bits >> (8 * i));
  SHA256_CTX o = key->outer;
  SHA256_Transform(&o, ob);
  *hi = o.h[0];
  *lo = o.h[1];
}

// fieldsPerRow 0: row r is buf[spans[2r], spans[2r+1]). k > 0: row r is k length-prefixed fields, spans
// [2(rk+j), 2(rk+j)+1]. out[2r], out[2r+1]: the digest's first two big-endian words.
static void hmac_run(const hmac_args *a) {
  SHA256_CTX c;
  uint8_t d[32];
  const int32_t per = a->k == 0 ? 1 : a->k;
  for (int32_t r = 0; r < a->rows; r++) {
    if (a->k == 0) {
      hmac_whole(a->key, a->buf + a->spans[2 * r], (size_t)(a->spans[2 * r + 1] - a->spans[2 * r]), &a->out[2 * r],
                 &a->out[2 * r + 1]);
      continue;
    }
    c = a->key->inner;
    for (int32_t j = 0; j < per; j++) {
      int32_t s = a->spans[2 * (r * per + j)], e = a->spans[2 * (r * per + j) + 1];
      if (a->k > 0) {
        uint32_t n = (uint32_t)(e - s);
        uint8_t len[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
        SHA256_Update(&c, len, 4);
      }
      SHA256_Update(&c, a->buf + s, (size_t)(e - s));
    }
    SHA256_Final(d, &c);
    c = a->key->outer;
    SHA256_Update(&c, d, 32);
    SHA256_Final(d, &c);
    a->out[2 * r] = ((uint32_t)d[0] << 24) | ((uint32_t)d[1] << 16) | ((uint32_t)d[2] << 8) | d[3];
    a->out[2 * r + 1] = ((uint32_t)d[4] << 24) | ((uint32_t)d[5] << 16) | ((uint32_t)d[6] << 8) | d[7];
  }
}

// hmacSpans(key, buf, spans: Int32Array, fieldsPerRow, rows, out: Uint32Array): void
static napi_value HmacSpans(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  hmac_args a;
  if (!hmac_parse(env, argv, argc, &a)) return NULL;
  hmac_run(&a);
  return NULL;
}

// insertPacked(words: Uint32Array, runs: Uint8Array | Uint16Array, bytes: Uint8Array, run, homeBits):
// number — adds the packed big-endian 8-byte fingerprints of one bucket to its open-addressing table
// (history/set.ts FingerprintSet.addPacked, the same slots: home = (hi's low homeBits bits * slots) >>
// homeBits, linear probing, `lo` stored, 0 written as 1; a fingerprint already there keeps its run).
// Answers how many were new.
typedef struct {
  uint32_t *words;
  void *runs;
  int wide;
  size_t slots;
  const uint8_t *bytes;
  size_t nbytes;
  int32_t run, home_bits;
  uint32_t added;
} insert_args;

static int insert_parse(napi_env env, napi_value *argv, size_t argc, insert_args *a) {
  napi_typedarray_type rt;
  napi_value ab;
  size_t off, nruns;
  uint8_t *bytes;
  if (argc < 5 || !typed_of(env, argv[0], napi_uint32_array, (void **)&a->words, &a->slots) ||
      napi_get_typedarray_info(env, argv[1], &rt, &nruns, &a->runs, &ab, &off) != napi_ok ||
      (rt != napi_uint8_array && rt != napi_uint16_array) || nruns != a->slots ||
      !bytes_of(env, argv[2], &bytes, &a->nbytes) || napi_get_value_int32(env, argv[3], &a->run) != napi_ok ||
      napi_get_value_int32(env, argv[4], &a->home_bits) != napi_ok || a->slots == 0 || a->home_bits < 1 ||
      a->home_bits > 31 || a->run < 0) {
    napi_throw_type_error(env, "ERR_FINGERPRINTS", "insertPacked: bad arguments");
    return 0;
  }
  a->bytes = bytes;
  a->wide = rt == napi_uint16_array;
  a->added = 0;
  return 1;
}

static void insert_run(insert_args *a) {
  uint32_t *words = a->words;
  const size_t slots = a->slots;
  const int home_bits = a->home_bits;
  const uint32_t mask = (uint32_t)((1ull << home_bits) - 1);
  uint32_t added = 0;
  const size_t count = a->nbytes / 8;
  size_t home[16];
  for (size_t g = 0; g < count; g += 16) {
    const size_t m = count - g < 16 ? count - g : 16;
    // The group's home slots are prefetched, then the fingerprints are added in their order.
    for (size_t j = 0; j < m; j++) {
      const uint8_t *p = a->bytes + 8 * (g + j);
      uint32_t hi = ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
      home[j] = (size_t)(((uint64_t)(hi & mask) * slots) >> home_bits);
      __builtin_prefetch(&words[home[j]], 1);
    }
    for (size_t j = 0; j < m; j++) {
      const uint8_t *p = a->bytes + 8 * (g + j);
      uint32_t lo = ((uint32_t)p[4] << 24) | ((uint32_t)p[5] << 16) | ((uint32_t)p[6] << 8) | p[7];
      uint32_t v = lo == 0 ? 1 : lo;
      size_t k = home[j];
      for (size_t probes = 0; probes < slots; probes++) {
        uint32_t w = words[k];
        if (w == 0) {
          words[k] = v;
          if (a->wide) ((uint16_t *)a->runs)[k] = (uint16_t)a->run;
          else ((uint8_t *)a->runs)[k] = (uint8_t)a->run;
          added++;
          break;
        }
        if (w == v) break;
        if (++k == slots) k = 0;
      }
    }
  }
  a->added = added;
}

static napi_value InsertPacked(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  insert_args a;
  if (!insert_parse(env, argv, argc, &a)) return NULL;
  insert_run(&a);
  napi_value res;
  CHECK(napi_create_uint32(env, a.added, &res));
  return res;
}

#define BUCKETS_MAX 64
#define GROUP 16

typedef struct {
  uint32_t *words[BUCKETS_MAX];
  void *runs[BUCKETS_MAX];
  int wide[BUCKETS_MAX];
  size_t slots[BUCKETS_MAX];
  const uint32_t *fps;
  int32_t *out;
  int32_t n, home_bits;
} lookup_args;

// Validates lookupMany's arguments; `tables` (when not NULL) receives the 2 * 64 table objects, for the
// async form to hold.
static int lookup_parse(napi_env env, napi_value *argv, size_t argc, lookup_args *a, napi_value *tables) {
  uint32_t nb;
  size_t nfps, nout;
  if (argc < 6 || napi_get_array_length(env, argv[0], &nb) != napi_ok || nb > BUCKETS_MAX ||
      !typed_of(env, argv[2], napi_uint32_array, (void **)&a->fps, &nfps) ||
      napi_get_value_int32(env, argv[3], &a->n) != napi_ok ||
      !typed_of(env, argv[4], napi_int32_array, (void **)&a->out, &nout) ||
      napi_get_value_int32(env, argv[5], &a->home_bits) != napi_ok || a->n < 0 ||
      (size_t)a->n * 2 > nfps || (size_t)a->n > nout || a->home_bits < 1 || a->home_bits > 31 ||
      (32 - a->home_bits) > 6 || nb != (1u << (32 - a->home_bits))) {
    napi_throw_type_error(env, "ERR_FINGERPRINTS", "lookupMany: bad arguments");
    return 0;
  }
  for (uint32_t b = 0; b < nb; b++) {
    napi_value w, r;
    napi_valuetype t;
    a->words[b] = NULL;
    a->slots[b] = 0;
    if (tables) tables[2 * b] = tables[2 * b + 1] = NULL;
    if (napi_get_element(env, argv[0], b, &w) != napi_ok || napi_get_element(env, argv[1], b, &r) != napi_ok ||
        napi_typeof(env, w, &t) != napi_ok) {
      napi_throw_type_error(env, "ERR_FINGERPRINTS", "lookupMany: bad tables");
      return 0;
    }
    if (t == napi_null || t == napi_undefined) continue;
    size_t ns, nr;
    napi_typedarray_type rt;
    napi_value ab;
    size_t off;
    if (!typed_of(env, w, napi_uint32_array, (void **)&a->words[b], &ns) ||
        napi_get_typedarray_info(env, r, &rt, &nr, &a->runs[b], &ab, &off) != napi_ok ||
        (rt != napi_uint8_array && rt != napi_uint16_array) || nr != ns || ns == 0) {
      napi_throw_type_error(env, "ERR_FINGERPRINTS", "lookupMany: bad tables");
      return 0;
    }
    a->slots[b] = ns;
    a->wide[b] = rt == napi_uint16_array;
    if (tables) {
      tables[2 * b] = w;
      tables[2 * b + 1] = r;
    }
  }
  for (uint32_t b = nb; b < BUCKETS_MAX; b++) {
    a->words[b] = NULL;
    a->slots[b] = 0;
  }
  return 1;
}

static void lookup_run(const lookup_args *a) {
  const int home_bits = a->home_bits;
  const uint32_t mask = (uint32_t)((1ull << home_bits) - 1);
  size_t home[GROUP];
  for (int32_t g = 0; g < a->n; g += GROUP) {
    int32_t m = a->n - g < GROUP ? a->n - g : GROUP;
    for (int32_t i = 0; i < m; i++) {
      uint32_t hi = a->fps[2 * (g + i)];
      uint32_t b = hi >> home_bits;
      if (a->words[b] == NULL) continue;
      home[i] = (size_t)(((uint64_t)(hi & mask) * a->slots[b]) >> home_bits);
      __builtin_prefetch(&a->words[b][home[i]]);
    }
    for (int32_t i = 0; i < m; i++) {
      uint32_t hi = a->fps[2 * (g + i)], lo = a->fps[2 * (g + i) + 1];
      uint32_t b = hi >> home_bits;
      int32_t found = -1;
      if (a->words[b] != NULL) {
        uint32_t v = lo == 0 ? 1 : lo;
        size_t k = home[i], ns = a->slots[b];
        const uint32_t *words = a->words[b];
        for (size_t probes = 0; probes < ns; probes++) {
          uint32_t w = words[k];
          if (w == v) {
            found = a->wide[b] ? ((uint16_t *)a->runs[b])[k] : ((uint8_t *)a->runs[b])[k];
            break;
          }
          if (w == 0) break;
          if (++k == ns) k = 0;
        }
      }
      a->out[g + i] = found;
    }
  }
}

// lookupMany(words: (Uint32Array|null)[64], runs: (Uint8Array|Uint16Array|null)[64], fps: Uint32Array,
// n, out: Int32Array, homeBits): out[i] = the run index of fingerprint (fps[2i], fps[2i+1]), or -1 —
// FingerprintSet.find for many at once, the home slots of a group prefetched before they are probed.
static napi_value LookupMany(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  lookup_args a;
  if (!lookup_parse(env, argv, argc, &a, NULL)) return NULL;
  lookup_run(&a);
  return NULL;
}

// ---- the async forms: the same work on libuv's thread pool, answered by a Promise ----

#define MAX_REFS (2 * BUCKETS_MAX + 6)

typedef enum { JOB_HMAC, JOB_INSERT_MANY, JOB_LOOKUP } job_kind;

typedef struct {
  job_kind kind;
  napi_async_work work;
  napi_deferred deferred;
  napi_ref refs[MAX_REFS];
  int nrefs;
  // insertManyAsync: one insert per part (each part one run's fingerprints of the same bucket), with the
  // parts' references (as many as there are parts).
  insert_args *parts;
  napi_ref *part_refs;
  uint32_t nparts;
  uint32_t added; // insertManyAsync's answer: the fingerprints that were new
  union {
    hmac_args hmac;
    lookup_args lookup;
  } u;
} job_t;

static void job_execute(napi_env env, void *data) {
  (void)env;
  job_t *j = (job_t *)data;
  if (j->kind == JOB_HMAC) hmac_run(&j->u.hmac);
  else if (j->kind == JOB_INSERT_MANY) {
    for (uint32_t i = 0; i < j->nparts; i++) {
      insert_run(&j->parts[i]);
      j->added += j->parts[i].added;
    }
  } else lookup_run(&j->u.lookup);
}

static void job_free(napi_env env, job_t *j) {
  for (int i = 0; i < j->nrefs; i++) napi_delete_reference(env, j->refs[i]);
  for (uint32_t i = 0; i < j->nparts; i++)
    if (j->part_refs[i]) napi_delete_reference(env, j->part_refs[i]);
  free(j->parts);
  free(j->part_refs);
  if (j->work) napi_delete_async_work(env, j->work);
  free(j);
}

static void job_complete(napi_env env, napi_status status, void *data) {
  job_t *j = (job_t *)data;
  napi_value v;
  if (status != napi_ok) {
    napi_value msg, err;
    napi_create_string_utf8(env, "fingerprints: the work was cancelled", NAPI_AUTO_LENGTH, &msg);
    napi_create_error(env, NULL, msg, &err);
    napi_reject_deferred(env, j->deferred, err);
  } else {
    if (j->kind == JOB_INSERT_MANY) napi_create_uint32(env, j->added, &v);
    else napi_get_undefined(env, &v);
    napi_resolve_deferred(env, j->deferred, v);
  }
  job_free(env, j);
}

// Holds `v` (an object) until the job completes; answers 0 on failure.
static int job_hold(napi_env env, job_t *j, napi_value v) {
  if (v == NULL || j->nrefs >= MAX_REFS) return v == NULL;
  return napi_create_reference(env, v, 1, &j->refs[j->nrefs++]) == napi_ok;
}

// Queues `j` (its arguments parsed, the first `nhold` values of `hold` to keep alive) and answers its Promise.
static napi_value job_queue(napi_env env, job_t *j, napi_value *hold, int nhold) {
  napi_value promise, name;
  for (int i = 0; i < nhold; i++)
    if (!job_hold(env, j, hold[i])) {
      job_free(env, j);
      napi_throw_error(env, "ERR_FINGERPRINTS", "fingerprints: cannot hold the arguments");
      return NULL;
    }
  if (napi_create_promise(env, &j->deferred, &promise) != napi_ok ||
      napi_create_string_utf8(env, "csvm-fingerprints", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_async_work(env, NULL, name, job_execute, job_complete, j, &j->work) != napi_ok ||
      napi_queue_async_work(env, j->work) != napi_ok) {
    job_free(env, j);
    napi_throw_error(env, "ERR_FINGERPRINTS", "fingerprints: cannot queue the work");
    return NULL;
  }
  return promise;
}

static job_t *job_new(job_kind kind) {
  job_t *j = (job_t *)calloc(1, sizeof(job_t));
  if (j) j->kind = kind;
  return j;
}

static napi_value HmacSpansAsync(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  job_t *j = job_new(JOB_HMAC);
  if (!j) CHECK(napi_generic_failure);
  if (!hmac_parse(env, argv, argc, &j->u.hmac)) {
    free(j);
    return NULL;
  }
  napi_value hold[4] = {argv[0], argv[1], argv[2], argv[5]};
  return job_queue(env, j, hold, 4);
}

// insertManyAsync(words, runs, parts: Uint8Array[], partRuns: Int32Array, homeBits): Promise<number> —
// insertPacked of every part into the same bucket table, in order (part i written by run partRuns[i]), in
// one piece of pool work: one bucket's earlier fingerprints arrive as one part per run.
static napi_value InsertManyAsync(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint32_t nparts = 0;
  int32_t *part_runs;
  size_t nruns;
  bool is_array = false;
  if (argc < 5 || napi_is_array(env, argv[2], &is_array) != napi_ok || !is_array ||
      napi_get_array_length(env, argv[2], &nparts) != napi_ok ||
      !typed_of(env, argv[3], napi_int32_array, (void **)&part_runs, &nruns) || nruns < nparts) {
    napi_throw_type_error(env, "ERR_FINGERPRINTS", "insertManyAsync: bad arguments");
    return NULL;
  }
  job_t *j = job_new(JOB_INSERT_MANY);
  if (!j) CHECK(napi_generic_failure);
  j->parts = (insert_args *)calloc(nparts ? nparts : 1, sizeof(insert_args));
  j->part_refs = (napi_ref *)calloc(nparts ? nparts : 1, sizeof(napi_ref));
  if (!j->parts || !j->part_refs) {
    job_free(env, j);
    CHECK(napi_generic_failure);
  }
  for (uint32_t i = 0; i < nparts; i++) {
    napi_value one[5], run;
    one[0] = argv[0];
    one[1] = argv[1];
    if (napi_get_element(env, argv[2], i, &one[2]) != napi_ok ||
        napi_create_int32(env, part_runs[i], &run) != napi_ok) {
      job_free(env, j);
      CHECK(napi_generic_failure);
    }
    one[3] = run;
    one[4] = argv[4];
    if (!insert_parse(env, one, 5, &j->parts[i])) {
      job_free(env, j);
      return NULL;
    }
    if (napi_create_reference(env, one[2], 1, &j->part_refs[i]) != napi_ok) {
      job_free(env, j);
      CHECK(napi_generic_failure);
    }
    j->nparts = i + 1;
  }
  napi_value hold[2] = {argv[0], argv[1]};
  return job_queue(env, j, hold, 2);
}

static napi_value LookupManyAsync(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  job_t *j = job_new(JOB_LOOKUP);
  if (!j) CHECK(napi_generic_failure);
  napi_value tables[2 * BUCKETS_MAX];
  if (!lookup_parse(env, argv, argc, &j->u.lookup, tables)) {
    free(j);
    return NULL;
  }
  napi_value hold[MAX_REFS];
  int n = 0;
  for (int i = 0; i < 2 * BUCKETS_MAX; i++)
    if (tables[i] != NULL) hold[n++] = tables[i];
  hold[n++] = argv[2];
  hold[n++] = argv[4];
  return job_queue(env, j, hold, n);
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
  napi_create_function(env, "hmacSpansAsync", NAPI_AUTO_LENGTH, HmacSpansAsync, NULL, &f);
  napi_set_named_property(env, exports, "hmacSpansAsync", f);
  napi_create_function(env, "insertManyAsync", NAPI_AUTO_LENGTH, InsertManyAsync, NULL, &f);
  napi_set_named_property(env, exports, "insertManyAsync", f);
  napi_create_function(env, "lookupManyAsync", NAPI_AUTO_LENGTH, LookupManyAsync, NULL, &f);
  napi_set_named_property(env, exports, "lookupManyAsync", f);
  return exports;
}
