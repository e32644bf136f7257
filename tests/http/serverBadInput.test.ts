// HTTP tests of the web server: bad input never gives a 500.
// The stack and helpers: tests/support/serverHttp.ts.
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { useServerStack, SID, stack, sidOf, h1, expectNoInternals } from '../support/serverHttp.ts';

useServerStack();

describe('bad input never gives a 500', () => {
  const customerTypeTitle = "Before we get started. Who's the account for?";

  // Bodies the form parser accepts but the schema refuses: the form redirects (303) and nothing changes.
  const refusedBodies: Array<{ name: string; type: string; body: string }> = [
    { name: 'missing field', type: 'application/x-www-form-urlencoded', body: '' },
    { name: 'unknown value', type: 'application/x-www-form-urlencoded', body: 'customerType=admin' },
    { name: 'repeated field', type: 'application/x-www-form-urlencoded', body: 'customerType=private&customerType=corporate' },
    { name: 'bracket syntax', type: 'application/x-www-form-urlencoded', body: 'customerType[]=private&customerType[x]=1' },
    { name: 'huge value', type: 'application/x-www-form-urlencoded', body: `customerType=${'p'.repeat(15_000)}` },
    { name: 'binary garbage', type: 'application/x-www-form-urlencoded', body: '%ff%fe%00customerType=%E0%A4%A' },
    { name: 'JSON object instead of string', type: 'application/json', body: '{"customerType":{"$ne":null}}' },
    { name: 'JSON array', type: 'application/json', body: '["private"]' },
    { name: 'JSON prototype pollution', type: 'application/json', body: '{"__proto__":{"customerType":"private"}}' },
    { name: 'text/plain', type: 'text/plain', body: 'customerType=private' },
    {
      name: 'multipart',
      type: 'multipart/form-data; boundary=x',
      body: '--x\r\nContent-Disposition: form-data; name="customerType"\r\n\r\nprivate\r\n--x--\r\n',
    },
  ];

  it.each(refusedBodies)('customer-type form, $name: 303 back to the start page, type unchanged', async ({ type, body }) => {
    const agent = request.agent(stack.webUrl);
    await agent.get('/onboarding').expect(200);
    let req = agent.post('/onboarding/customer-type').set('sec-fetch-site', 'same-origin');
    if (type) req = req.set('content-type', type);
    const res = await req.send(body);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/onboarding');
    expect(h1((await agent.get('/onboarding').expect(200)).text)).toBe(customerTypeTitle);
  });

  it('customer-type form without any content type: 303, type unchanged', async () => {
    const agent = request.agent(stack.webUrl);
    await agent.get('/onboarding').expect(200);
    // fetch sends a byte body without a content type (supertest would add one).
    const res = await fetch(`${stack.webUrl}/onboarding/customer-type`, {
      method: 'POST',
      body: new TextEncoder().encode('customerType=private'),
      headers: { cookie: `${SID}=${sidOf(agent)}`, 'sec-fetch-site': 'same-origin' },
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/onboarding');
    expect(h1((await agent.get('/onboarding').expect(200)).text)).toBe(customerTypeTitle);
  });

  // Bodies the parser itself rejects: a 4xx error page for browsers, 4xx JSON for API callers.
  const rejectedBodies: Array<{ name: string; headers: Record<string, string>; body: string; status: number }> = [
    { name: 'malformed JSON', headers: { 'content-type': 'application/json' }, body: '{"customerType": "private"', status: 400 },
    {
      name: 'oversized form (25 kB)',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `customerType=private&pad=${'x'.repeat(25_000)}`,
      status: 413,
    },
    {
      name: 'oversized JSON (25 kB)',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customerType: 'private', pad: 'x'.repeat(25_000) }),
      status: 413,
    },
    {
      name: 'too many parameters',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Array.from({ length: 1200 }, (_, i) => `p${i}=1`).join('&'),
      status: 413,
    },
    {
      name: 'unsupported charset',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=koi8-r' },
      body: 'customerType=private',
      status: 415,
    },
    {
      name: 'gzip that is not gzip',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
      body: 'customerType=private',
      status: 400,
    },
    {
      name: 'unknown content encoding',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'zstd-ish' },
      body: 'customerType=private',
      status: 415,
    },
  ];

  it.each(rejectedBodies)('customer-type form, $name: $status page for browsers, $status JSON for API callers', async ({ headers, body, status }) => {
    const page = await request(stack.webUrl)
      .post('/onboarding/customer-type')
      .set('sec-fetch-site', 'same-origin')
      .set(headers)
      .set('accept', 'text/html')
      .send(body);
    expect(page.status).toBe(status);
    expect(page.headers['content-type']).toMatch(/html/);
    expect(h1(page.text)).toBe('Something went wrong');
    expectNoInternals(page.text);

    const api = await request(stack.webUrl)
      .post('/onboarding/customer-type')
      .set('sec-fetch-site', 'same-origin')
      .set(headers)
      .set('accept', 'application/json')
      .send(body);
    expect(api.status).toBe(status);
    expect(api.body).toEqual({ error: 'Bad request' });
  });

  it.each([
    '/onboarding?lang=en&lang=sv',
    '/onboarding?lang=' + 'x'.repeat(5000),
    '/onboarding?webview=maybe&webview=true',
    '/onboarding?lang[$gt]=&webview[]=true',
    '/onboarding?%E0%A4%A=1&lang=%ZZ',
    '/onboarding/nightly-downtime-status?justCompletedSignup=true&justCompletedSignup=true',
    '/onboarding/nightly-downtime-status?justCompletedSignup[]=true&webview=%00',
    '/onboarding/cancel?x=1&x=2&x=3',
  ])('query garbage on a page, %s: the page renders, queries ignored', async (path) => {
    const res = await request(stack.webUrl).get(path).expect(200);
    expect(res.headers['content-type']).toMatch(/html/);
    expect(res.text).toContain('<html lang="en"');
    if (path.includes('nightly')) expect(h1(res.text)).toBe('See you tomorrow!');
  });

  it('a repeated webview or lang parameter does not switch the journey (nothing is half-applied)', async () => {
    const agent = request.agent(stack.webUrl);
    await agent.get('/onboarding?lang=sv&lang=en&webview=true&webview=true').expect(200);
    const page = await agent.get('/onboarding').expect(200);
    expect(page.text).toContain('<html lang="en"');
    // Not in webview mode: the close X leaves for the bank's home, not for the in-app close route.
    expect(page.text).toMatch(/class="site-header__close" href="\/onboarding\/leave"/);
  });

  it('malformed percent-encoding in a route parameter: 400 page, or 400 JSON on API-style paths', async () => {
    const page = await request(stack.webUrl).get('/onboarding/customer-information/%E0%A4%A').set('accept', 'text/html');
    expect(page.status).toBe(400);
    expectNoInternals(page.text);
    const events = await request(stack.webUrl).get('/onboarding/customer-creation/%E0%A4%A/events').set('accept', 'text/event-stream');
    expect(events.status).toBe(400);
    expect(events.body).toEqual({ error: 'Bad request' });
  });

  it('API-style routes answer 4xx JSON: status poll without an identification, unknown POST', async () => {
    const status = await request(stack.webUrl).get('/onboarding/identification/bankid/status').expect(409).expect('content-type', /json/);
    expect(status.body).toEqual({ error: 'No identification in progress' });
    const unknown = await request(stack.webUrl)
      .post('/onboarding/no-such-action')
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send('a=1&a=2')
      .expect(404)
      .expect('content-type', /json/);
    expect(unknown.body).toEqual({ error: 'Not found' });
  });

  it('BankID retry and cancel with garbage bodies redirect to the start page', async () => {
    for (const path of ['/onboarding/identification/bankid/retry', '/onboarding/identification/bankid/cancel']) {
      const res = await request(stack.webUrl)
        .post(path)
        .set('sec-fetch-site', 'same-origin')
        .set('content-type', 'application/json')
        .send('{"orderRef":{"$gt":""},"x":[1,2]}');
      expect(res.status, path).toBe(303);
      expect(res.headers.location).toBe('/onboarding');
    }
  });
});
