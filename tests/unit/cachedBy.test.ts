import { describe, expect, it } from 'vitest';
import { cachedBy } from '../../shared/cachedBy.ts';

describe('cachedBy', () => {
  it('makes a key`s value once and hands the same one out after; each key its own', () => {
    const map = new Map<string, { made: number }>();
    let made = 0;
    const make = () => ({ made: ++made });
    const first = cachedBy(map, 'sv-SE', make);
    expect(cachedBy(map, 'sv-SE', make)).toBe(first);
    expect(cachedBy(map, 'fi-FI', make)).toEqual({ made: 2 });
    expect(made).toBe(2);
    expect([...map.keys()]).toEqual(['sv-SE', 'fi-FI']);
  });
});
