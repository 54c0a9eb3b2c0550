import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { startAppServing } from './support/web-dist';

// Issue 31: an unknown path is not a page. With the build's list of app routes (app-routes.json, written by
// scripts/prerender-web.js from the app's router), the api answers 404 with the not-found page for any
// path that is neither prerendered nor an app route; prerendered pages and app routes answer 200.
describe('unknown paths answer 404 (e2e)', () => {
  let app: INestApplication;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ app, close } = await startAppServing({
      'index.html': '<!doctype html><title>Home</title><h1>Landing</h1>',
      'app.html': '<!doctype html><title>CSV Mapper</title><div id="root"></div>',
      '404.html': '<!doctype html><title>Page not found</title><h1>404 Page Not Found</h1>',
      'terms/index.html': '<!doctype html><title>Terms</title><h1>Terms</h1>',
      'app-routes.json': JSON.stringify([
        '/',
        '/auth',
        '/team/join',
        '/dashboard',
        '/billing/checkout/:sessionId',
        '/terms',
      ]),
    }));
  });
  afterAll(() => close());

  it('answers 404 with the not-found page for paths that are no page', async () => {
    for (const path of ['/no-such-page', '/pricing', '/dashboard/x', '/billing/checkout', '/terms/nested']) {
      const res = await request(app.getHttpServer()).get(path).set('Accept', 'text/html');
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toContain('404 Page Not Found');
    }
    await request(app.getHttpServer()).head('/no-such-page').expect(404);
  });

  it('serves prerendered pages and the app shell for app routes with 200', async () => {
    const cases: Array<[string, string]> = [
      ['/', '<h1>Landing</h1>'],
      ['/terms', '<h1>Terms</h1>'],
      ['/terms/', '<h1>Terms</h1>'],
      ['/auth?tab=signup', '<div id="root"></div>'],
      ['/dashboard/', '<div id="root"></div>'],
      ['/team/join?token=abc', '<div id="root"></div>'],
      ['/billing/checkout/cs_test_1', '<div id="root"></div>'],
    ];
    for (const [path, body] of cases) {
      const res = await request(app.getHttpServer()).get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.text).toContain(body);
    }
  });

  it('sends a sign-in form posted before its script ran back to the page (303), keeping ?next=', async () => {
    const res = await request(app.getHttpServer())
      .post('/auth?next=%2Fprofile')
      .type('form')
      .send({ identifier: 'ada', password: 'Tr1cky-Mapper!' })
      .expect(303);
    expect(res.headers.location).toBe('/auth?next=%2Fprofile');
    await request(app.getHttpServer()).post('/terms').type('form').send({ a: 1 }).expect(404);
  });

  it('keeps the JSON 404 for unknown api paths', async () => {
    const res = await request(app.getHttpServer()).get('/api/no-such-thing').expect(404);
    expect(res.body).toEqual({ error: 'No API route matches GET /api/no-such-thing.', code: 'NOT_FOUND' });
  });
});
