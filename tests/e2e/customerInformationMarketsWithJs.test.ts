// Every customer-information step in all four markets with JavaScript (customer-information §2.3, §4.1):
// the walk is tests/support/marketWalk.ts; the walk without JavaScript is customerInformationMarketsWithoutJs.test.ts.
import { describe, it } from 'vitest';
import { useE2eStack } from '../support/e2e.ts';
import { walkEveryMarket } from '../support/marketWalk.ts';

useE2eStack();

describe('customer-information steps in every market', () => {
  // Four markets side by side on two cores, axe and HTML_CodeSniffer on some 30 screens each (the KYC questionnaire's
  // ten pages among them), while the suite's other browser tests share the cores: 420 s ran out in a full CI run.
  it('SE, NO, DK and FI with JavaScript: every step, axe on each screen, signed', () => walkEveryMarket(true), 900_000);
});
