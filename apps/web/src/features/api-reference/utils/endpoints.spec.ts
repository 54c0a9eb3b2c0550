import { describe, expect, it } from '@jest/globals';
import { endpointsOf, plainDescription } from './endpoints';

describe('the documentation page’s endpoint table', () => {
  const doc = {
    openapi: '3.1.0',
    info: { version: '1.0.0', description: 'Map CSV files. Send `Authorization: Bearer csvm_…`.' },
    paths: {
      '/api/upload/template': {
        post: { summary: 'Upload a template', responses: { 201: {}, 400: {}, 401: {} } },
      },
      '/api/mappings/{id}': {
        parameters: [{ name: 'id', in: 'path' }],
        get: { summary: 'One saved mapping', responses: { 200: {} } },
        put: { responses: { 200: {}, 201: {} } },
        delete: { summary: 'Delete it', responses: { 204: {} } },
      },
    },
  };

  it('lists one row per operation with its method, path, summary and statuses', () => {
    expect(endpointsOf(doc)).toEqual([
      {
        method: 'POST',
        path: '/api/upload/template',
        summary: 'Upload a template',
        statuses: '201, 400, 401',
      },
      { method: 'GET', path: '/api/mappings/{id}', summary: 'One saved mapping', statuses: '200' },
      { method: 'PUT', path: '/api/mappings/{id}', summary: '', statuses: '200, 201' },
      { method: 'DELETE', path: '/api/mappings/{id}', summary: 'Delete it', statuses: '204' },
    ]);
  });

  it('shows the description without Markdown code marks', () => {
    expect(plainDescription(doc)).toBe('Map CSV files. Send Authorization: Bearer csvm_….');
  });
});
