#!/usr/bin/env node
// Regenerates apps/web/public/og-image.png, the 1200×630 social-sharing card (Open Graph / Twitter
// summary_large_image), by screenshotting an HTML card in Chromium. Run by hand when the brand changes:
//   node scripts/generate-og-image.js   (needs playwright-core and /usr/bin/chromium; the build does not)
'use strict';
const path = require('node:path');
const { chromium } = require('playwright-core');

const OUT = path.resolve(__dirname, '../apps/web/public/og-image.png');
const PAIRS = [
  ['ItemID', 'Handle'],
  ['ProductName', 'Title'],
  ['CostPrice', 'Variant Price'],
  ['Debit + Credit', 'Amount'],
];

const html = `<!doctype html><html><head><style>
  * { box-sizing: border-box; margin: 0; }
  body { width: 1200px; height: 630px; font-family: Inter, "DejaVu Sans", system-ui, sans-serif; color: #fff;
    background: linear-gradient(135deg, #1d4ed8 0%, #1e3a8a 100%); display: flex; align-items: center; padding: 72px; gap: 56px; }
  .left { flex: 1.15; } .brand { display: flex; align-items: center; gap: 18px; font-size: 40px; font-weight: 700; }
  .mark { width: 64px; height: 64px; border-radius: 14px; background: #fff; display: grid; place-items: center; }
  h1 { font-size: 54px; line-height: 1.08; margin-top: 40px; letter-spacing: -1.5px; }
  p { font-size: 26px; margin-top: 28px; color: #dbeafe; }
  .card { flex: 1; background: #fff; border-radius: 24px; padding: 28px; color: #0f172a; box-shadow: 0 30px 60px rgba(0,0,0,.35); }
  .head { display: flex; justify-content: space-between; font-size: 15px; font-weight: 700; color: #64748b; letter-spacing: 1px; margin-bottom: 14px; }
  .row { display: grid; grid-template-columns: 1fr 28px 1fr; gap: 10px; align-items: center; margin-top: 12px; }
  .from { background: #f1f5f9; border-radius: 10px; padding: 12px 14px; font: 18px "DejaVu Sans Mono", monospace; }
  .to { background: #dbeafe; color: #1e3a8a; border-radius: 10px; padding: 12px 14px; font-size: 18px; font-weight: 600; white-space: nowrap; overflow: hidden; }
  .arrow { color: #2563eb; font-size: 24px; text-align: center; } .ok { margin-top: 18px; color: #15803d; font-size: 18px; font-weight: 600; }
</style></head><body>
  <div class="left">
    <div class="brand"><div class="mark"><svg width="40" height="40" viewBox="0 0 32 32"><g fill="none" stroke="#2563eb" stroke-width="2.6" stroke-linecap="round"><path d="M7 10h7M7 16h7M7 22h7M18 10h7M18 16h7M18 22h7"/><path d="M14.5 10l3 6M14.5 22l3-6"/></g></svg></div>CSV Mapper</div>
    <h1>Map any CSV to the format your software expects</h1>
    <p>QuickBooks · Shopify · CRM imports. Upload, map, download. First file free.</p>
  </div>
  <div class="card"><div class="head"><span>YOUR DATA</span><span>TEMPLATE</span></div>
    ${PAIRS.map(([a, b]) => `<div class="row"><div class="from">${a}</div><div class="arrow">→</div><div class="to">${b}</div></div>`).join('')}
    <div class="ok">✓ 4 of 4 columns mapped</div></div>
</body></html>`;

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.setContent(html);
  await page.screenshot({ path: OUT, type: 'png' });
  await browser.close();
  console.log(`og image written to ${path.relative(process.cwd(), OUT)}`);
})();
