// Each distinct screen checked once per run by each markup checker (tests/support/checkedOnce.ts): what makes two
// screens the same, that a screen seen before gets the first check's findings (in this worker and in another), and
// that every submission is counted.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkedOnce, checkedScreensReport, withOpaqueValuesNamed } from '../support/checkedOnce.ts';

const page = (nonce: string, token: string, prospect: string, text = 'Hello') =>
  `<html><head><meta name="csrf-token" content="${token}"><script nonce="${nonce}" src="/a.js"></script></head><body>` +
  `<form method="post" action="/onboarding/customer-information/${prospect}?_csrf=${token}"><input type="hidden" name="_csrf" value="${token}">` +
  `<p>${text}</p></form></body></html>`;
const UUID_A = '3f2a1c9e-8b7d-4e6f-a5c4-1b2d3e4f5a6b';
const UUID_B = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';

describe('withOpaqueValuesNamed', () => {
  it('makes screens that differ only in their nonce, token and prospect id the same', () => {
    expect(withOpaqueValuesNamed(page('n0nce+/A==', 'tok-A_1', UUID_A))).toBe(withOpaqueValuesNamed(page('b9ZZ/x==', 'tok-B_2', UUID_B)));
  });

  it('keeps screens apart that differ in anything else, or in which of those values are equal', () => {
    expect(withOpaqueValuesNamed(page('n', 't', UUID_A))).not.toBe(withOpaqueValuesNamed(page('n', 't', UUID_A, 'Hej')));
    const twice = (first: string, second: string) => withOpaqueValuesNamed(`<a href="/x/${first}">a</a><a href="/x/${second}">b</a>`);
    expect(twice(UUID_A, UUID_A)).not.toBe(twice(UUID_A, UUID_B));
  });
});

describe('checkedOnce', () => {
  const dirs: string[] = [];
  const runDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'checked-once-test-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('checks a content once, answers its findings for every submission, and counts each', async () => {
    const dir = runDir();
    let runs = 0;
    const check = async () => [`finding ${++runs}`];
    expect(await checkedOnce('nu', 'same', check, dir)).toEqual(['finding 1']);
    expect(await checkedOnce('nu', 'same', check, dir)).toEqual(['finding 1']);
    expect(await checkedOnce('nu', 'other', check, dir)).toEqual(['finding 2']);
    expect(await checkedOnce('axe', 'same', check, dir)).toEqual(['finding 3']);
    expect(checkedScreensReport(dir)).toEqual({
      axe: { submitted: 1, distinct: 1, checked: 1 },
      nu: { submitted: 3, distinct: 2, checked: 2 },
      codeSniffer: { submitted: 0, distinct: 0, checked: 0 },
    });
  });

  it('answers another worker’s findings from the shared directory', async () => {
    const dir = runDir();
    await checkedOnce('codeSniffer', 'theirs', async () => ['found there'], dir);
    // Under another directory this worker has not seen it: only the file written there can answer.
    const other = runDir();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) writeFileSync(join(other, file), JSON.stringify(['found there']));
    expect(await checkedOnce('codeSniffer', 'theirs', () => Promise.reject(new Error('checked again')), other)).toEqual(['found there']);
  });

  it('checks again after a check that failed', async () => {
    const dir = runDir();
    await expect(checkedOnce('axe', 'flaky', () => Promise.reject(new Error('page went away')), dir)).rejects.toThrow('page went away');
    expect(await checkedOnce('axe', 'flaky', async () => [], dir)).toEqual([]);
  });
});
