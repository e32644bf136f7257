// The entry's epk (identification-routing-creation §2 Onboarding query; our reading, shared/accountPicker.ts
// initialAccounts): epk=true ticks the Norwegian pension account (EPK_NO) in the account picker from the start, next
// to the market's defaults; elsewhere, without it or in another shape it changes nothing. It travels in the visit
// cookie until the person identifies, then in the session. Over HTTP against the embedded stack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { accountPickerOverHttp, tickedAccounts as ticked } from '../support/journey.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack();
});
afterAll(async () => stack?.stop());

describe('epk in the entry query', () => {
  it.each([
    ['NO', 'epk=true', ['ASK_NO', 'EPK_NO']],
    ['NO', 'utm_source=pension&epk=true&clientId=partner-1', ['ASK_NO', 'EPK_NO']],
    ['NO', '', ['ASK_NO']],
    ['NO', 'epk=false', ['ASK_NO']],
    ['NO', 'epk=yes', ['ASK_NO']],
    ['SE', 'epk=true', ['ISK_SE', 'DEP_SE']],
    ['DK', 'epk=true', ['DEP_DK']],
  ])('%s, entered with ?%s: %j ticked', async (country, entry, expected) => {
    const html = await accountPickerOverHttp(stack, country, entry);
    expect(html).toContain('name="accounts"');
    expect(ticked(html)).toEqual(expected);
  });
});
