import { logRedaction, redactHeaders, redactParams, redactText, redactUrl } from './log-redaction';

const KEY = 'csvm_Wv_2AMYcZMgby-9toxsX_sFPUKVx2UQ2Kx3grcKiWtM';

describe('log redaction', () => {
  it.each([
    [`/api/jobs?api_key=${KEY}`, '/api/jobs?api_key=[REDACTED]'],
    [`/api/jobs?q=${KEY.replace('_', '%5F')}&page=2`, '/api/jobs?q=[REDACTED]&page=2'],
    [`/api/jobs?q=${KEY.replace('_', '%255F')}`, '/api/jobs?q=[REDACTED]'],
    [`/api/api-keys/${KEY}/x`, '/api/api-keys/[REDACTED]/x'],
    ['/reset-password?token=abc.def&next=%2F', '/reset-password?token=[REDACTED]&next=%2F'],
    [
      'https://app.example/invite?invitation_token=xyz',
      'https://app.example/invite?invitation_token=[REDACTED]',
    ],
    ['/api/webhooks?x=whsec_c2VjcmV0', '/api/webhooks?x=[REDACTED]'],
    ['/api/jobs?page=1&sort=desc', '/api/jobs?page=1&sort=desc'],
  ])('redactUrl(%s)', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('masks key-shaped tokens in free text, encoded or not, and leaves other text alone', () => {
    expect(redactText(`bad key ${KEY} and whsec_abc%2Bdef`)).toBe(
      'bad key csvm_[REDACTED] and whsec_[REDACTED]',
    );
    expect(redactText(`GET /x?k=csvm%5Fabc`)).toBe('GET /x?k=csvm_[REDACTED]');
    expect(redactText('job 42 done')).toBe('job 42 done');
  });

  it('copies headers with credentials, secret-named and key-carrying values replaced', () => {
    const live = {
      authorization: 'Bearer x',
      cookie: 'csvm.sid=s%3Aabc',
      'x-api-key': 'anything',
      'x-webhook-secret': 'whsec_x',
      'x-custom': `Key ${KEY}`,
      referer: 'http://localhost/reset-password?token=t0k',
      accept: 'application/json',
    };
    expect(redactHeaders(live)).toEqual({
      authorization: '[REDACTED]',
      cookie: '[REDACTED]',
      'x-api-key': '[REDACTED]',
      'x-webhook-secret': '[REDACTED]',
      'x-custom': '[REDACTED]',
      referer: 'http://localhost/reset-password?token=[REDACTED]',
      accept: 'application/json',
    });
    expect(live.authorization).toBe('Bearer x'); // the request itself is untouched
  });

  it('redacts parsed query and params objects by name and by value', () => {
    expect(redactParams({ token: 't', page: '1', q: [KEY, 'x'] })).toEqual({
      token: '[REDACTED]',
      page: '1',
      q: ['[REDACTED]', 'x'],
    });
  });

  it('redacts a key sent as a parameter or header name, with its value', () => {
    expect(redactParams({ [KEY]: '', page: '1', 'whsec_abc%5F': 'v' })).toEqual({
      '[REDACTED]': '[REDACTED]',
      page: '1',
    });
    expect(redactHeaders({ [KEY.toLowerCase()]: '1', accept: '*/*' })).toEqual({
      '[REDACTED]': '[REDACTED]',
      accept: '*/*',
    });
  });

  it('the log formatter treats path/url fields as URLs', () => {
    expect(logRedaction.formatters.log({ path: '/reset-password?token=t', msg: KEY, n: 1 })).toEqual({
      path: '/reset-password?token=[REDACTED]',
      msg: 'csvm_[REDACTED]',
      n: 1,
    });
  });
});
