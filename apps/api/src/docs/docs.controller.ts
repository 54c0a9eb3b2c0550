import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { OpenApiDocument } from './openapi.service';

type Op = { summary?: string };

/** The OpenAPI document and a small page that lists it (no inline scripts, so the CSP stays strict). */
@Controller('docs')
@ApiExcludeController()
export class DocsController {
  constructor(private readonly openapi: OpenApiDocument) {}

  @Get('openapi.json')
  document() {
    return this.openapi.document;
  }

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  page(): string {
    const doc = this.openapi.document;
    const rows = Object.entries(doc.paths as Record<string, Record<string, Op>>)
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(
          ([method, op]) =>
            `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${path}</code></td><td>${escape(op.summary ?? '')}</td></tr>`,
        ),
      )
      .join('');
    return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>CSV Mapper API</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}td{padding:.3rem .6rem;border-bottom:1px solid #ddd;vertical-align:top}</style></head>
<body><h1>CSV Mapper API</h1><p>${escape(doc.info.description ?? '')}</p>
<p>Machine-readable document: <a href="/api/docs/openapi.json">/api/docs/openapi.json</a> (OpenAPI ${doc.openapi}).</p>
<table><thead><tr><th>Method</th><th>Path</th><th>What it does</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
  }
}

function escape(s: string): string {
  return s.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string,
  );
}
