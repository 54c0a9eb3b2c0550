'use strict';
// A signature-checking front for the test S3 server. s3rver accepts any signature, so on its own a wrong
// secret, a tampered or expired presigned URL, or a PUT of another length than the one signed would all be
// stored. This HTTP proxy recomputes each request's AWS Signature Version 4 with the AWS SDK's own signer
// (@smithy/signature-v4: canonical request, string to sign, signing key) and forwards to s3rver only the
// requests real S3 would take; the others get S3's own XML errors (403 SignatureDoesNotMatch, AccessDenied
// "Request has expired", 400 XAmzContentSHA256Mismatch…).
//
// What it checks, as S3 does (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html):
// - Authorization header: credential scope (date, region, service), time skew ≤ 15 min, every signed header
//   present with the value signed, every x-amz-* header signed, and the body against x-amz-content-sha256
//   (a hex SHA-256 is checked over the bytes that arrived; UNSIGNED-PAYLOAD is taken as it is).
// - Presigned query string (X-Amz-Algorithm, -Credential, -Date, -Expires, -SignedHeaders, -Signature):
//   the same, with the payload UNSIGNED-PAYLOAD, refused once X-Amz-Date + X-Amz-Expires has passed.
// - aws-chunked bodies (STREAMING-* payload hashes): each chunk's signature is checked
//   (STREAMING-AWS4-HMAC-SHA256-PAYLOAD), the framing removed and the trailing checksum compared, so s3rver
//   stores the object's own bytes.
// CORS preflights (OPTIONS) carry no signature, as with S3, and go straight through.
const http = require('node:http');
const { createHash, createHmac, randomBytes, timingSafeEqual } = require('node:crypto');
const { Transform } = require('node:stream');
const {
  SignatureV4,
  getCanonicalHeaders,
  createScope,
  ALGORITHM_IDENTIFIER,
  UNSIGNED_PAYLOAD,
  MAX_PRESIGNED_TTL,
} = require('@smithy/signature-v4');

/** The largest body whose SHA-256 is checked before it is forwarded (held in memory meanwhile). */
const MAX_HASHED_BODY = 64 * 1024 * 1024;
const MAX_SKEW_MS = 15 * 60_000;
const EMPTY_SHA256 = createHash('sha256').digest('hex');
const STREAMING_SIGNED = 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD';
const STREAMING_SIGNED_TRAILER = 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER';
const STREAMING_UNSIGNED_TRAILER = 'STREAMING-UNSIGNED-PAYLOAD-TRAILER';
/** Headers that describe one hop, not the request: never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

/** SHA-256 and HMAC-SHA256 in the shape the SDK's signer takes (its hash constructor), over node:crypto. */
class NodeSha256 {
  constructor(secret) {
    this.secret = secret;
    this.reset();
  }
  update(data) {
    this.hash.update(bytesOf(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
  reset() {
    this.hash = this.secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(this.secret));
  }
}

/** string (UTF-8), ArrayBuffer or a view of one, as a Buffer over the same bytes. */
function bytesOf(data) {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

/**
 * The SDK's SigV4 signer, used the other way round: given what a request says it signed, it rebuilds the
 * canonical request and the signature from the secret we hold (uriEscapePath off, as for S3).
 */
class SigV4Recomputer extends SignatureV4 {
  constructor() {
    super({
      service: 's3',
      region: 'us-east-1',
      credentials: { accessKeyId: 'unused', secretAccessKey: 'unused' },
      sha256: NodeSha256,
      uriEscapePath: false,
      applyChecksum: false,
    });
  }

  /**
   * @param {{ method: string, path: string, query: Record<string, string | string[]>,
   *   canonicalHeaders: Record<string, string>, payloadHash: string, longDate: string, shortDate: string,
   *   region: string, service: string, accessKeyId: string, secretAccessKey: string }} r
   */
  async recompute(r) {
    const scope = createScope(r.shortDate, r.region, r.service);
    const canonicalRequest = this.createCanonicalRequest(
      { method: r.method, path: r.path, query: r.query, headers: {} },
      r.canonicalHeaders,
      r.payloadHash,
    );
    const stringToSign = await this.createStringToSign(
      r.longDate,
      scope,
      canonicalRequest,
      ALGORITHM_IDENTIFIER,
    );
    const key = await this.getSigningKey(
      { accessKeyId: r.accessKeyId, secretAccessKey: r.secretAccessKey },
      r.region,
      r.shortDate,
      r.service,
    );
    return { signature: await this.hmacHex(key, stringToSign), canonicalRequest, stringToSign, key };
  }

  async hmacHex(key, text) {
    const h = new NodeSha256(key);
    h.update(text);
    return Buffer.from(await h.digest()).toString('hex');
  }
}

/** An S3-shaped refusal. */
class S3Refusal {
  /** @param {number} status @param {string} code @param {string} message @param {Record<string,string>} [extra] */
  constructor(status, code, message, extra = {}) {
    this.status = status;
    this.code = code;
    this.message = message;
    this.extra = extra;
  }
}

const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your key and signing method.';

function xmlEscape(s) {
  return String(s).replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c],
  );
}

function errorXml(refusal) {
  const extra = Object.entries(refusal.extra)
    .map(([k, v]) => `<${k}>${xmlEscape(v)}</${k}>`)
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${refusal.code}</Code><Message>${xmlEscape(refusal.message)}</Message>${extra}` +
    `<RequestId>${randomBytes(8).toString('hex').toUpperCase()}</RequestId></Error>`
  );
}

/** The query string as the signer reads it: names and values decoded (no `+` for space), repeats kept. */
function parseQuery(raw) {
  /** @type {Record<string, string | string[]>} */
  const query = {};
  if (!raw) return query;
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = safeDecode(eq < 0 ? part : part.slice(0, eq));
    const value = safeDecode(eq < 0 ? '' : part.slice(eq + 1));
    if (name === null || value === null) throw new S3Refusal(400, 'InvalidArgument', 'Malformed query.');
    const prev = query[name];
    query[name] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  }
  return query;
}

function safeDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

function single(query, name) {
  const v = query[name];
  return Array.isArray(v) ? undefined : v;
}

/** 20261127T102512Z → a Date, or null. */
function parseAmzDate(s) {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s ?? '');
  if (!m) return null;
  const t = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return Number.isNaN(t) ? null : new Date(t);
}

function sameHex(a, b) {
  const x = Buffer.from(String(a), 'utf8');
  const y = Buffer.from(String(b), 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks one request's SigV4 against `secrets` (access key id → secret). Resolves to what the proxy needs
 * to forward it ({ payloadHash, signingKey, signature, scope, longDate }) or throws an S3Refusal.
 * @param {import('node:http').IncomingMessage} req
 * @param {{ secrets: Map<string, string>, region: string, now?: () => number }} opts
 */
async function verifyRequest(req, opts) {
  const now = (opts.now ?? Date.now)();
  const url = req.url ?? '/';
  const qAt = url.indexOf('?');
  const path = qAt < 0 ? url : url.slice(0, qAt);
  const query = parseQuery(qAt < 0 ? '' : url.slice(qAt + 1));
  const headers = req.headers;
  const auth = headers.authorization;
  const presigned = 'X-Amz-Algorithm' in query || 'X-Amz-Signature' in query;

  let accessKeyId, credentialScope, signedHeaders, signature, longDate, expires;
  if (auth !== undefined && presigned) {
    throw new S3Refusal(
      400,
      'InvalidArgument',
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
    );
  }
  if (auth !== undefined) {
    const m = /^AWS4-HMAC-SHA256 +(.*)$/.exec(auth);
    if (!m) {
      throw new S3Refusal(
        400,
        'InvalidArgument',
        'Unsupported Authorization Type (only AWS4-HMAC-SHA256 is accepted here)',
      );
    }
    const parts = {};
    for (const kv of m[1].split(',')) {
      const eq = kv.indexOf('=');
      if (eq > 0) parts[kv.slice(0, eq).trim()] = kv.slice(eq + 1).trim();
    }
    if (!parts.Credential || !parts.SignedHeaders || !parts.Signature) {
      throw new S3Refusal(
        400,
        'AuthorizationHeaderMalformed',
        'The authorization header is malformed; it must name Credential, SignedHeaders and Signature.',
      );
    }
    [accessKeyId, ...credentialScope] = parts.Credential.split('/');
    signedHeaders = parts.SignedHeaders;
    signature = parts.Signature;
    longDate = headers['x-amz-date'];
    if (typeof longDate !== 'string') {
      throw new S3Refusal(
        403,
        'AccessDenied',
        'AWS authentication requires a valid Date or x-amz-date header',
      );
    }
  } else if (presigned) {
    const need = [
      'X-Amz-Algorithm',
      'X-Amz-Credential',
      'X-Amz-Date',
      'X-Amz-Expires',
      'X-Amz-SignedHeaders',
      'X-Amz-Signature',
    ];
    const missing = need.filter((n) => typeof single(query, n) !== 'string');
    if (missing.length > 0) {
      throw new S3Refusal(
        400,
        'AuthorizationQueryParametersError',
        `Query-string authentication version 4 requires the ${need.join(', ')} parameters (missing or repeated: ${missing.join(', ')}).`,
      );
    }
    if (single(query, 'X-Amz-Algorithm') !== ALGORITHM_IDENTIFIER) {
      throw new S3Refusal(
        400,
        'AuthorizationQueryParametersError',
        'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"',
      );
    }
    [accessKeyId, ...credentialScope] = single(query, 'X-Amz-Credential').split('/');
    signedHeaders = single(query, 'X-Amz-SignedHeaders');
    signature = single(query, 'X-Amz-Signature');
    longDate = single(query, 'X-Amz-Date');
    expires = single(query, 'X-Amz-Expires');
    if (!/^\d+$/.test(expires) || Number(expires) > MAX_PRESIGNED_TTL) {
      throw new S3Refusal(
        400,
        'AuthorizationQueryParametersError',
        'X-Amz-Expires must be a whole number of seconds, at most 604800 (seven days).',
      );
    }
  } else {
    // Anonymous: the bucket is private.
    throw new S3Refusal(403, 'AccessDenied', 'Access Denied');
  }

  const date = parseAmzDate(longDate);
  if (!date) {
    throw new S3Refusal(
      presigned ? 400 : 403,
      presigned ? 'AuthorizationQueryParametersError' : 'AccessDenied',
      'X-Amz-Date must be in the ISO8601 Long Format "yyyyMMddTHHmmssZ"',
    );
  }
  const [shortDate, region, service, terminator] = credentialScope;
  if (credentialScope.length !== 4 || terminator !== 'aws4_request' || service !== 's3') {
    throw new S3Refusal(
      400,
      presigned ? 'AuthorizationQueryParametersError' : 'AuthorizationHeaderMalformed',
      'The credential is malformed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/s3/aws4_request".',
    );
  }
  if (shortDate !== longDate.slice(0, 8)) {
    throw new S3Refusal(
      400,
      presigned ? 'AuthorizationQueryParametersError' : 'AuthorizationHeaderMalformed',
      `Invalid credential date "${shortDate}". This date is not the same as X-Amz-Date: "${longDate.slice(0, 8)}".`,
    );
  }
  if (region !== opts.region) {
    throw new S3Refusal(
      400,
      presigned ? 'AuthorizationQueryParametersError' : 'AuthorizationHeaderMalformed',
      `The authorization header is malformed; the region '${region}' is wrong; expecting '${opts.region}'`,
      { Region: opts.region },
    );
  }
  const secret = opts.secrets.get(accessKeyId);
  if (secret === undefined) {
    throw new S3Refusal(
      403,
      'InvalidAccessKeyId',
      'The AWS Access Key Id you provided does not exist in our records.',
      { AWSAccessKeyId: accessKeyId },
    );
  }
  if (presigned) {
    if (date.getTime() - MAX_SKEW_MS > now) {
      throw new S3Refusal(403, 'AccessDenied', 'Request is not yet valid');
    }
    const expiresAt = date.getTime() + Number(expires) * 1000;
    if (now > expiresAt) {
      throw new S3Refusal(403, 'AccessDenied', 'Request has expired', {
        'X-Amz-Expires': expires,
        Expires: new Date(expiresAt).toISOString(),
        ServerTime: new Date(now).toISOString(),
      });
    }
  } else if (Math.abs(date.getTime() - now) > MAX_SKEW_MS) {
    throw new S3Refusal(
      403,
      'RequestTimeTooSkewed',
      'The difference between the request time and the current time is too large.',
      { RequestTime: longDate, ServerTime: new Date(now).toISOString() },
    );
  }

  // The headers as signed: every one named must have arrived (a missing one is signed as empty, so it can
  // only match a signature made without it), and every x-amz-* header that arrived must be signed.
  const names = signedHeaders.split(';');
  if (names.some((n) => n === '' || n !== n.toLowerCase()) || !names.includes('host')) {
    throw new S3Refusal(
      400,
      presigned ? 'AuthorizationQueryParametersError' : 'AuthorizationHeaderMalformed',
      'SignedHeaders must be a ;-separated list of lower-case header names that includes host.',
    );
  }
  const unsigned = Object.keys(headers).filter((h) => h.startsWith('x-amz-') && !names.includes(h));
  if (unsigned.length > 0) {
    throw new S3Refusal(
      403,
      'AccessDenied',
      'There were headers present in the request which were not signed',
      {
        HeadersNotSigned: unsigned.join(', '),
      },
    );
  }
  /** @type {Record<string, string>} */
  const signedValues = {};
  for (const n of names) {
    const v = headers[n];
    signedValues[n] = v === undefined ? '' : Array.isArray(v) ? v.join(',') : v;
  }
  const canonicalHeaders = getCanonicalHeaders({ headers: signedValues }, undefined, new Set(names));
  for (const n of names) canonicalHeaders[n] ??= '';

  let payloadHash;
  if (presigned) {
    payloadHash = UNSIGNED_PAYLOAD;
  } else {
    payloadHash = headers['x-amz-content-sha256'];
    if (typeof payloadHash !== 'string') {
      throw new S3Refusal(
        400,
        'InvalidRequest',
        'Missing required header for this request: x-amz-content-sha256',
      );
    }
    if (
      ![UNSIGNED_PAYLOAD, STREAMING_SIGNED, STREAMING_SIGNED_TRAILER, STREAMING_UNSIGNED_TRAILER].includes(
        payloadHash,
      ) &&
      !/^[0-9a-f]{64}$/.test(payloadHash)
    ) {
      throw new S3Refusal(
        400,
        'InvalidArgument',
        'x-amz-content-sha256 must be UNSIGNED-PAYLOAD, a STREAMING-* value, or a valid sha256 value.',
        { ArgumentName: 'x-amz-content-sha256', ArgumentValue: payloadHash },
      );
    }
  }

  const queryForSigning = { ...query };
  delete queryForSigning['X-Amz-Signature'];
  const recomputer = new SigV4Recomputer();
  const result = await recomputer.recompute({
    method: req.method ?? 'GET',
    path,
    query: queryForSigning,
    canonicalHeaders,
    payloadHash,
    longDate,
    shortDate,
    region,
    service,
    accessKeyId,
    secretAccessKey: secret,
  });
  if (!sameHex(result.signature, signature)) {
    throw new S3Refusal(403, 'SignatureDoesNotMatch', SIGNATURE_MISMATCH, {
      AWSAccessKeyId: accessKeyId,
      StringToSign: result.stringToSign,
      SignatureProvided: signature,
      CanonicalRequest: result.canonicalRequest,
    });
  }
  return {
    payloadHash,
    signingKey: result.key,
    signature,
    scope: createScope(shortDate, region, service),
    longDate,
    recomputer,
  };
}

/**
 * Decodes an aws-chunked body (`<hex size>[;chunk-signature=<sig>]\r\n<bytes>\r\n` … `0…\r\n` then trailers
 * and `\r\n`), checking each chunk's signature when the payload is STREAMING-AWS4-HMAC-SHA256-PAYLOAD(-TRAILER),
 * and the trailing x-amz-checksum-* when one is announced. Passes on the object's own bytes.
 */
class AwsChunkedDecoder extends Transform {
  /**
   * @param {{ signed: boolean, signingKey?: Uint8Array, seedSignature?: string, scope?: string,
   *   longDate?: string, recomputer?: SigV4Recomputer, trailer?: string }} o
   */
  constructor(o) {
    super();
    this.o = o;
    this.buffer = Buffer.alloc(0);
    this.state = 'header'; // header | data | data-crlf | trailers | done
    this.remaining = 0;
    this.chunkSignature = null;
    this.chunkHash = null;
    this.previousSignature = o.seedSignature;
    this.decoded = 0;
    this.checksum = o.trailer ? checksumFor(o.trailer) : null;
    this.trailers = {};
    this.pending = Promise.resolve();
  }

  _transform(chunk, _enc, done) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    this.drain().then(() => done(), done);
  }

  _flush(done) {
    if (this.state !== 'done')
      return done(new S3Refusal(400, 'IncompleteBody', 'The aws-chunked body ended early.'));
    if (this.checksum) {
      const name = this.o.trailer;
      const got = this.trailers[name];
      const want = this.checksum.digest();
      if (got !== want) {
        return done(
          new S3Refusal(400, 'BadDigest', `The ${name} you specified did not match the calculated checksum.`),
        );
      }
    }
    done();
  }

  async drain() {
    for (;;) {
      if (this.state === 'header' || this.state === 'trailers') {
        const eol = this.buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = this.buffer.subarray(0, eol).toString('latin1');
        this.buffer = this.buffer.subarray(eol + 2);
        if (this.state === 'trailers') {
          if (line === '') {
            this.state = 'done';
            continue;
          }
          const colon = line.indexOf(':');
          const name = line.slice(0, colon).trim().toLowerCase();
          const value = line.slice(colon + 1).trim();
          if (name === 'x-amz-trailer-signature') await this.checkTrailerSignature(value);
          else this.trailers[name] = value;
          continue;
        }
        const [sizeHex, ...ext] = line.split(';');
        const size = parseInt(sizeHex, 16);
        if (!/^[0-9a-fA-F]+$/.test(sizeHex) || !Number.isSafeInteger(size)) {
          throw new S3Refusal(400, 'IncompleteBody', 'A chunk header of the aws-chunked body is malformed.');
        }
        const sig = ext.map((e) => e.split('=')).find(([k]) => k === 'chunk-signature');
        if (this.o.signed && !sig) {
          throw new S3Refusal(
            403,
            'SignatureDoesNotMatch',
            'A chunk of the signed stream has no chunk-signature.',
          );
        }
        this.chunkSignature = sig ? sig[1] : null;
        this.chunkHash = createHash('sha256');
        this.remaining = size;
        if (size === 0) {
          await this.checkChunk();
          this.state = 'trailers'; // then trailer lines, if any, and an empty line
          continue;
        }
        this.state = 'data';
      } else if (this.state === 'data') {
        if (this.buffer.length === 0) return;
        const take = this.buffer.subarray(0, Math.min(this.remaining, this.buffer.length));
        this.buffer = this.buffer.subarray(take.length);
        this.remaining -= take.length;
        this.chunkHash.update(take);
        this.checksum?.update(take);
        this.decoded += take.length;
        this.push(take);
        if (this.remaining === 0) this.state = 'data-crlf';
      } else if (this.state === 'data-crlf') {
        if (this.buffer.length < 2) return;
        if (this.buffer[0] !== 13 || this.buffer[1] !== 10) {
          throw new S3Refusal(
            400,
            'IncompleteBody',
            'A chunk of the aws-chunked body is longer than announced.',
          );
        }
        this.buffer = this.buffer.subarray(2);
        await this.checkChunk();
        this.state = 'header';
      } else {
        if (this.buffer.length > 0) {
          throw new S3Refusal(400, 'IncompleteBody', 'Bytes follow the end of the aws-chunked body.');
        }
        return;
      }
    }
  }

  /** A chunk's string to sign chains the previous signature (the seed is the request's). */
  async checkChunk() {
    if (!this.o.signed) return;
    const toSign = [
      'AWS4-HMAC-SHA256-PAYLOAD',
      this.o.longDate,
      this.o.scope,
      this.previousSignature,
      EMPTY_SHA256,
      this.chunkHash.digest('hex'),
    ].join('\n');
    const want = await this.o.recomputer.hmacHex(this.o.signingKey, toSign);
    if (!sameHex(want, this.chunkSignature)) {
      throw new S3Refusal(403, 'SignatureDoesNotMatch', SIGNATURE_MISMATCH, {
        StringToSign: toSign,
        SignatureProvided: String(this.chunkSignature),
      });
    }
    this.previousSignature = want;
  }

  async checkTrailerSignature(value) {
    if (!this.o.signed) return;
    const canonicalTrailers = Object.entries(this.trailers)
      .map(([k, v]) => `${k}:${v}\n`)
      .join('');
    const toSign = [
      'AWS4-HMAC-SHA256-TRAILER',
      this.o.longDate,
      this.o.scope,
      this.previousSignature,
      createHash('sha256').update(canonicalTrailers).digest('hex'),
    ].join('\n');
    const want = await this.o.recomputer.hmacHex(this.o.signingKey, toSign);
    if (!sameHex(want, value)) {
      throw new S3Refusal(403, 'SignatureDoesNotMatch', SIGNATURE_MISMATCH, { StringToSign: toSign });
    }
  }
}

/** x-amz-checksum-sha256 / -sha1 / -crc32 / -crc32c as base64, over the decoded bytes. */
function checksumFor(trailerName) {
  const algo = trailerName.replace(/^x-amz-checksum-/, '');
  if (algo === 'sha256' || algo === 'sha1') {
    const h = createHash(algo);
    return { update: (b) => h.update(b), digest: () => h.digest('base64') };
  }
  if (algo === 'crc32' || algo === 'crc32c') {
    const table = crcTable(algo === 'crc32' ? 0xedb88320 : 0x82f63b78);
    let crc = 0xffffffff;
    return {
      update: (b) => {
        for (let i = 0; i < b.length; i++) crc = table[(crc ^ b[i]) & 0xff] ^ (crc >>> 8);
      },
      digest: () => {
        const out = Buffer.alloc(4);
        out.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
        return out.toString('base64');
      },
    };
  }
  return null; // an algorithm this test server does not compute: not compared
}

const crcTables = new Map();
function crcTable(poly) {
  let t = crcTables.get(poly);
  if (t) return t;
  t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? poly ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  crcTables.set(poly, t);
  return t;
}

/**
 * Starts the verifying proxy in front of `upstream` (s3rver's http://127.0.0.1:port).
 * @param {{ upstream: string, secrets: Map<string, string>, region: string, port?: number,
 *   onRefusal?: (refusal: S3Refusal, req: import('node:http').IncomingMessage) => void }} opts
 * @returns {Promise<{ endpoint: string, refusals: Array<{ method: string, url: string, status: number, code: string, message: string }>, close(): Promise<void> }>}
 */
async function startSigV4Proxy(opts) {
  const upstream = new URL(opts.upstream);
  const agent = new http.Agent({ keepAlive: true });
  /** Every refusal, newest last (tests read it to see why something was refused). */
  const refusals = [];

  const refuse = (req, res, refusal) => {
    if (!(refusal instanceof S3Refusal)) {
      refusal = new S3Refusal(500, 'InternalError', String(refusal?.message ?? refusal));
    }
    refusals.push({
      method: req.method ?? '',
      url: req.url ?? '',
      status: refusal.status,
      code: refusal.code,
      message: refusal.message,
    });
    if (refusals.length > 1000) refusals.shift();
    opts.onRefusal?.(refusal, req);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = req.method === 'HEAD' ? '' : errorXml(refusal);
    const headers = {
      'content-type': 'application/xml',
      'content-length': Buffer.byteLength(body),
      'x-amz-request-id': randomBytes(8).toString('hex').toUpperCase(),
      connection: 'close',
    };
    // As S3 does when the bucket's CORS rule matches: the browser can read the refusal.
    if (req.headers.origin) {
      headers['access-control-allow-origin'] = '*';
      headers['access-control-expose-headers'] = 'ETag';
    }
    res.writeHead(refusal.status, headers);
    res.end(body);
    req.resume();
  };

  const forward = (req, res, body, bodyHeaders) => {
    const headers = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(k) && v !== undefined) headers[k] = v;
    }
    Object.assign(headers, bodyHeaders);
    for (const [k, v] of Object.entries(headers)) if (v === undefined) delete headers[k];
    const up = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
        agent,
      },
      (upRes) => {
        const out = {};
        for (const [k, v] of Object.entries(upRes.headers)) if (!HOP_BY_HOP.has(k)) out[k] = v;
        res.writeHead(upRes.statusCode ?? 502, out);
        upRes.pipe(res);
      },
    );
    up.on('error', (err) => refuse(req, res, new S3Refusal(502, 'InternalError', err.message)));
    if (Buffer.isBuffer(body)) up.end(body);
    else if (body) {
      body.on('error', (err) => {
        up.destroy();
        refuse(req, res, err);
      });
      body.pipe(up);
    } else up.end();
  };

  /** Verifies, then forwards the request with the body s3rver should store (framing removed). */
  const handle = async (req, res) => {
    if (req.method === 'OPTIONS') {
      forward(req, res, req);
      return;
    }
    const v = await verifyRequest(req, { secrets: opts.secrets, region: opts.region });
    if (process.env.S3_SIGV4_LOG) {
      const extra = Object.keys(req.headers).filter(
        (h) => h.startsWith('x-amz-checksum') || h === 'x-amz-sdk-checksum-algorithm' || h === 'expect',
      );
      process.stderr.write(
        `s3-sigv4: ${req.method} ${req.url} payload=${v.payloadHash} ` +
          `encoding=${req.headers['content-encoding'] ?? ''} ${extra.join(',')}\n`,
      );
    }
    if ([STREAMING_SIGNED, STREAMING_SIGNED_TRAILER, STREAMING_UNSIGNED_TRAILER].includes(v.payloadHash)) {
      const decodedLength = req.headers['x-amz-decoded-content-length'];
      if (typeof decodedLength !== 'string' || !/^\d+$/.test(decodedLength)) {
        throw new S3Refusal(
          411,
          'MissingContentLength',
          'x-amz-decoded-content-length is required with aws-chunked bodies.',
        );
      }
      const decoder = new AwsChunkedDecoder({
        signed: v.payloadHash !== STREAMING_UNSIGNED_TRAILER,
        signingKey: v.signingKey,
        seedSignature: v.signature,
        scope: v.scope,
        longDate: v.longDate,
        recomputer: v.recomputer,
        trailer: req.headers['x-amz-trailer'],
      });
      // Collected before it is forwarded: a bad chunk signature or checksum must store nothing.
      const bytes = await collect(req.pipe(decoder), Number(decodedLength));
      if (bytes.length !== Number(decodedLength)) {
        throw new S3Refusal(
          400,
          'IncompleteBody',
          'The decoded body is not x-amz-decoded-content-length long.',
        );
      }
      const rest = String(req.headers['content-encoding'] ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e && e !== 'aws-chunked')
        .join(',');
      forward(req, res, bytes, {
        'content-length': String(bytes.length),
        'content-encoding': rest || undefined,
        'x-amz-content-sha256': createHash('sha256').update(bytes).digest('hex'),
      });
    } else if (/^[0-9a-f]{64}$/.test(v.payloadHash)) {
      // The signature covers the hash; the hash must cover the bytes. Checked before anything is stored.
      const bytes = await collect(req, MAX_HASHED_BODY);
      const got = createHash('sha256').update(bytes).digest('hex');
      if (got !== v.payloadHash) {
        throw new S3Refusal(
          400,
          'XAmzContentSHA256Mismatch',
          "The provided 'x-amz-content-sha256' header does not match what was computed.",
          { ClientComputedContentSHA256: v.payloadHash, S3ComputedContentSHA256: got },
        );
      }
      forward(req, res, bytes, {});
    } else {
      forward(req, res, req);
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => refuse(req, res, err));
  });
  server.keepAliveTimeout = 5000;

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve(undefined));
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    endpoint: `http://127.0.0.1:${port}`,
    refusals,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      }),
  };
}

/** Reads a stream into one buffer, refusing more than `max` bytes. */
function collect(stream, max) {
  return new Promise((resolve, reject) => {
    const parts = [];
    let n = 0;
    stream.on('data', (c) => {
      n += c.length;
      if (n > max) {
        stream.destroy();
        reject(new S3Refusal(400, 'EntityTooLarge', 'The body is larger than this test server checks.'));
        return;
      }
      parts.push(c);
    });
    stream.on('end', () => resolve(Buffer.concat(parts)));
    stream.on('error', reject);
  });
}

module.exports = { startSigV4Proxy, verifyRequest, S3Refusal, NodeSha256 };
