// The page an upstream failure gets from the app's error handler (server/errors.ts): an ended brokerage session asks
// to identify again, anything else says to try again. Both at 360×740 and 1280×800, with axe, HTML_CodeSniffer and
// the Nu checker, and nothing wider than the viewport.
import { describe, expect, it } from 'vitest';
import { UpstreamFailurePage } from '../../views/pages/FeedbackPageViews.tsx';
import { expectAccessible } from '../support/journey.ts';
import { expectPhoneLayout, PHONE } from '../support/e2e.ts';
import { codeSnifferErrors, nuCheck } from '../support/htmlCheckers.ts';
import { BASE, customerInformationPage, openRendered, renderedPagesStage, t } from '../support/renderedPages.tsx';

const stage = renderedPagesStage();
const DESKTOP = { width: 1280, height: 800 };

describe.each([
  { variant: 'session ended', sessionEnded: true, shows: t('customerInformation.error.SESSION_EXPIRED_ERROR.identifyAgain') },
  { variant: 'try again', sessionEnded: false, shows: t('error.tryAgain') },
])('the upstream failure page: $variant', ({ sessionEnded, shows, variant }) => {
  it.each([PHONE, DESKTOP])('at $width×$height: one heading, its way on, no checker finds anything', async (viewport) => {
    const html = customerInformationPage(stage.manifest, <UpstreamFailurePage t={t} sessionEnded={sessionEnded} retryHref={BASE} />);
    const { page, errors } = await openRendered(stage.browser, html, new URL(BASE).pathname, { viewport });
    try {
      expect(await page.locator('h1').count()).toBe(1);
      await expect.poll(() => page.getByRole(sessionEnded ? 'button' : 'link', { name: shows }).isVisible()).toBe(true);
      await expectAccessible(page, `upstream failure ${variant} ${viewport.width}`);
      if (viewport.width === PHONE.width) await expectPhoneLayout(page, `upstream failure ${variant}`);
      expect(await codeSnifferErrors(page)).toEqual([]);
      expect(await nuCheck([{ screen: `upstream failure ${variant}`, html }])).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
