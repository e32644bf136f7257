import { describe, expect, it } from 'vitest';
import { MAX_USP_ITEMS, campaignOf, signupImageFor, visibleUsps } from '../../shared/shell.ts';

describe('signupImageFor', () => {
  it.each([
    ['level-up', 'signup_level-up'],
    ['LEVEL-UP', 'signup_level-up'],
    ['ask', 'signup_ask'],
    ['ASK', 'signup_ask'],
    [' ask ', 'signup_ask'],
    ['summer', 'signup_page2'],
    ['', 'signup_page2'],
    [undefined, 'signup_page2'],
    [['ask'], 'signup_page2'],
  ] as const)('campaign %j → %s', (campaign, image) => {
    expect(signupImageFor(campaign)).toBe(image);
  });

  it('only knows the spec campaign types', () => {
    expect(campaignOf('level-up')).toBe('level-up');
    expect(campaignOf('levelup')).toBeUndefined();
  });
});

describe('visibleUsps', () => {
  const nine = Array.from({ length: 9 }, (_, i) => `item ${i + 1}`);
  it.each([
    ['all shown', ['a', 'b'], ['a', 'b']],
    ['N/A hidden', ['a', 'N/A', 'c'], ['a', 'c']],
    ['n/a in any case and spacing hidden', ['a', ' n/a ', 'N/a'], ['a']],
    ['empty hidden', ['a', '', '  '], ['a']],
    ['text containing N/A kept', ['Fees: N/A for savings'], ['Fees: N/A for savings']],
    ['all N/A', ['N/A', 'N/A'], []],
    ['nine kept', nine, nine],
    ['a tenth dropped', [...nine, 'item 10'], nine],
    ['hiding does not pull in a tenth', ['N/A', ...nine.slice(1), 'item 10'], nine.slice(1)],
  ] as const)('%s', (_name, texts, expected) => {
    expect(visibleUsps(texts)).toEqual(expected);
  });

  it('allows up to 9 items (identification-routing-creation §9)', () => {
    expect(MAX_USP_ITEMS).toBe(9);
  });
});
