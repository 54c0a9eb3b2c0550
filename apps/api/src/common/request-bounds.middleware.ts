import type { NextFunction, Request, Response } from 'express';

// Bounds every request, not only uploads (issue 28): a body trickled into a JSON route used to hold its
// connection for HTTP_REQUEST_TIMEOUT_MS (15 minutes, sized for a 100 MB upload), and only uploads had a
// per-IP cap, so 1,250 slow connections exhausted an instance's file descriptors. Non-upload bodies now
// must arrive within HTTP_BODY_TIMEOUT_MS, and one client IP may have REQUESTS_PER_IP requests in flight.

/** The multipart upload routes: their bodies keep the server's long request timeout. */
const UPLOAD_PATH = /^\/api\/upload(?:\/(?:template|data))?\/?$/;

export function isUploadRequest(req: Request): boolean {
  return req.method === 'POST' && UPLOAD_PATH.test(req.path);
}

const RETRY_AFTER_SECONDS = 5;

function send(res: Response, status: number, code: string, error: string): void {
  res.setHeader('Connection', 'close');
  res.status(status).json({ error, code });
}

/**
 * Answers 408 and closes the connection when a non-upload request's body has not fully arrived within
 * `timeoutMs` of its headers (if the route already answered, the connection is just closed).
 */
export function bodyTimeout(timeoutMs: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.complete || isUploadRequest(req)) return next();
    const timer = setTimeout(() => {
      if (req.complete) return;
      if (!res.headersSent) {
        send(res, 408, 'REQUEST_TIMEOUT', 'The request body took too long to arrive. Send it again.');
        res.once('finish', () => req.socket.destroy());
      } else req.socket.destroy();
    }, timeoutMs);
    const clear = () => clearTimeout(timer);
    req.once('end', clear);
    // Per request, never on the socket: a keep-alive socket serves many requests, and a listener per
    // request on it kept every request and response alive until the connection closed (the api's heap
    // grew ~15 KB per request under bench:api-memory). A request whose body never arrived keeps its
    // timer, so the connection is still closed at the timeout.
    res.once('close', () => {
      if (req.complete) clear();
    });
    next();
  };
}

/** Caps the requests one client IP has in flight on this instance; the next one gets 429 + Retry-After. */
export function requestsPerIp(limit: number) {
  const inFlight = new Map<string, number>();
  return (req: Request, res: Response, next: NextFunction): void => {
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const n = inFlight.get(ip) ?? 0;
    if (n >= limit) {
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      return send(
        res,
        429,
        'TOO_MANY_REQUESTS',
        `Your address already has ${n} requests in progress. Wait for some to finish, then try again.`,
      );
    }
    inFlight.set(ip, n + 1);
    res.once('close', () => {
      const left = (inFlight.get(ip) ?? 1) - 1;
      if (left > 0) inFlight.set(ip, left);
      else inFlight.delete(ip);
    });
    next();
  };
}
