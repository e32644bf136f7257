// Personal data and secrets never reach the logs.
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { createLogger, scrubUrl } from '../../server/logger.ts';
import { requestLogger } from '../../server/requestLog.ts';
import { UpstreamError } from '../../shared/upstreamError.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, logger: createLogger({ level: 'info', name: 'test' }, stream) };
}

const secrets = {
  nationalId: '199001012384',
  personalNumber: '198112289874',
  givenName: 'Astrid',
  surname: 'Lindqvist',
  email: 'astrid@example.se',
  mobilePhoneNumber: '+46701234567',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.secret.token',
  qrStartSecret: 'd28db9a7-4cde-429e-a983-359be676944c',
  autoStartToken: 'c5a1b5c4-8b0e-4d6a-9a7b-0e1e3f2a1b9d',
  refreshToken: 'rt-5f1c2b7e-9d0a-4c4e-8f3b-2a6d1e0c9b8a',
  address: 'Invalidenstraße 1',
  zipCode: '10115',
  city: 'Berlin',
  taxIdentificationNumber: '65929970489',
  questionsAndAnswers: 'I work in Berlin',
};

describe('log redaction', () => {
  it.each(Object.entries(secrets))('redacts %s at any depth', (key, value) => {
    const { lines, logger } = capture();
    logger.info({ [key]: value, nested: { [key]: value, deeper: { [key]: value } } }, 'event');
    const out = lines.join('');
    expect(out).toContain('event');
    expect(out).not.toContain(value);
    expect(out).toContain('[Redacted]');
  });

  it('redacts the person inside a BankID completion and keeps harmless fields', () => {
    const { lines, logger } = capture();
    logger.info({ completionData: { user: { personalNumber: secrets.personalNumber, name: 'Astrid Lindqvist' } }, prospectId: 'p-1' }, 'complete');
    const out = lines.join('');
    expect(out).not.toContain(secrets.personalNumber);
    expect(out).not.toContain('Astrid Lindqvist');
    expect(out).toContain('p-1');
  });

  it('an error keeps its type, name, message and stack (and its cause`s); its upstream answer and a person`s name are not logged', () => {
    const { lines, logger } = capture();
    const err = new UpstreamError('brokerage', 400, { first_name: secrets.givenName, nationalId: secrets.nationalId }, 'brokerage POST /api/2/x: answered 400');
    err.cause = new SyntaxError('Unexpected token');
    logger.error({ err, person: { name: 'Astrid Lindqvist' } }, 'failed');
    const entry = JSON.parse(lines.join('')) as { err: Record<string, unknown>; person: { name: string } };
    expect(entry.err).toMatchObject({ type: 'UpstreamError', name: 'UpstreamError', message: 'brokerage POST /api/2/x: answered 400', status: 400 });
    expect(entry.err.stack).toMatch(/^UpstreamError: brokerage POST \/api\/2\/x: answered 400\n\s+at /);
    expect(entry.err.cause).toMatchObject({ type: 'SyntaxError', name: 'SyntaxError', message: 'Unexpected token' });
    expect(entry.err).not.toHaveProperty('body');
    expect(entry.person.name).toBe('[Redacted]');
    expect(lines.join('')).not.toMatch(new RegExp(`${secrets.givenName}|${secrets.nationalId}|Lindqvist`));
  });

  it('scrubs tokens and codes from logged URLs', () => {
    expect(scrubUrl('/sandbox/bankid/app?autostarttoken=abc&redirect=null')).toBe('/sandbox/bankid/app?autostarttoken=%5BRedacted%5D&redirect=%5BRedacted%5D');
    expect(scrubUrl('/onboarding?code=xyz&state=NEXT_abc&lang=sv')).not.toMatch(/xyz|NEXT_abc/);
    expect(scrubUrl('/onboarding')).toBe('/onboarding');
    expect(scrubUrl('/onboarding/customer-information/p1/step?_csrf=s3cr3t')).not.toContain('s3cr3t');
  });

  it('logs entry query values by an allow-list: our switches as sent, clientUrl, clientId and tracking ids never', () => {
    const logged = scrubUrl(
      `/onboarding?lang=sv&webview=true&clientId=partner-1&clientUrl=${encodeURIComponent('/sv/kund/astrid-lindqvist')}&tduid=abc123&at_gd=x9&utm_source=news`,
    );
    expect(logged).toBe(
      '/onboarding?lang=sv&webview=true&clientId=%5BRedacted%5D&clientUrl=%5BRedacted%5D&tduid=%5BRedacted%5D&at_gd=%5BRedacted%5D&utm_source=%5BRedacted%5D',
    );
    // An allow-listed name with a value that is no short token, and names that are no names, are not logged either.
    expect(scrubUrl(`/onboarding?lang=${encodeURIComponent('Astrid Lindqvist')}&19900101-1234=1&${encodeURIComponent('a b')}=2`)).toBe(
      '/onboarding?lang=%5BRedacted%5D&%5Bunnamed%5D=2',
    );
  });

  it('request log lines carry no cookie, authorization header or query secret', async () => {
    const { lines, logger } = capture();
    const app = express();
    app.use(requestLogger(logger));
    app.get('/x', (_req, res) => {
      res.json({ ok: true });
    });
    await request(app)
      .get('/x?code=oidc-code-123&lang=en')
      .set('cookie', 'onb.sid=s%3Asession-secret')
      .set('authorization', `Bearer ${secrets.jwt}`)
      .expect(200);
    const out = lines.join('');
    expect(out).toContain('"url":"/x?code=%5BRedacted%5D&lang=en"');
    expect(out).not.toContain('session-secret');
    expect(out).not.toContain(secrets.jwt);
    expect(out).not.toContain('oidc-code-123');
  });
});
