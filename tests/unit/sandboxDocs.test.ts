// The personas the README and docs/sandbox.md tell a person to pick in each market are the sandbox's own: the name
// with that national id, market and scenario, so the directions cannot go stale when the persona list changes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findPersona, personas } from '../../sandbox/personas.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const markets = ['SE', 'NO', 'DK', 'FI'] as const;
const cells = (row: string) =>
  row
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());

describe('each market’s personas in the docs', () => {
  it('docs/sandbox.md: every scenario row names, per market, a persona of that market and scenario', () => {
    const rows = read('docs/sandbox.md')
      .split('\n')
      .filter((line) => /^\| `[A-Za-z]+`:/.test(line));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      const [first, ...perMarket] = cells(row);
      const scenario = /`([A-Za-z]+)`/.exec(first!)![1];
      expect(perMarket).toHaveLength(markets.length);
      perMarket.forEach((cell, i) => {
        const [, name, id] = /^(.+) \(([^)]+)\)$/.exec(cell) ?? [];
        expect(findPersona(id ?? ''), cell).toMatchObject({ name, country: markets[i], scenario });
      });
    }
  });

  it('README: the new customer to pick in each market is that market’s onboarding persona', () => {
    const rows = read('README.md')
      .split('\n')
      .filter((line) => /^\| (Sweden|Norway|Denmark|Finland) /.test(line));
    expect(rows).toHaveLength(markets.length);
    rows.forEach((row, i) => {
      const name = cells(row).at(-1);
      expect(personas.find((p) => p.country === markets[i] && p.scenario === 'onboarding')?.name).toBe(name);
    });
  });
});
