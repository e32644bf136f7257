// HTTP tests of the upstream sandbox: the personas, one per scenario and market.
// Helpers: tests/support/sandboxApi.ts.
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { LEGACY_OUTCOME_SCENARIOS } from '../../sandbox/personas.ts';
import { CASE_SCENARIOS } from '../../sandbox/caseStatusTasks.ts';
import { isValidNationalId } from '../../shared/nationalIds.ts';
import { brokeragePaths, routingStatusResponse } from '../../shared/contracts/brokerageContract.ts';
import { newApp, listPersonas, bearer, loginWithBankid } from '../support/sandboxApi.ts';

describe('personas', () => {
  const requiredScenarios = [
    'onboarding',
    'onboardingIntent',
    'login',
    'nightlyDowntimeRouting',
    'minor',
    'manualSupport',
    'openCase',
    'legacyFlow',
    'blocked',
    'customerExists',
    'accountLimit',
    'creationPaused',
    'creationNightlyDowntime',
    'creationFailed',
    'creationStuck',
    'creationSlow',
    'creationPostFails',
    'bankidExpires',
    // Straight to the contact step: with a registered address, and without one and its e-mail refused.
    'contactInformation',
    'contactEmailRejected',
    // Straight to the tax information step.
    'taxInformation',
    // Straight to the account picker and alias steps.
    'accounts',
    // Straight to the citizenship step.
    'citizenship',
    // Lives abroad: straight to the residency step; and one whose residency submit is refused.
    'residency',
    'residencyRefused',
    // Lives abroad, every step (also in NO, DK and FI).
    'livesAbroad',
    // Straight to the KYC questionnaire: answered normally, and its failure modes (tests/http/kycClientPersonas.test.ts).
    'kyc',
    'kycAlreadyAnswered',
    'kycBusy',
    'kycBusyForever',
    'kycNextFailsOnce',
    'kycRiskNeverDone',
    'kycMoreInformation',
    'kycUnknownType',
    // The legacy single form's outcomes (tests/http/legacyClientPersonas.test.ts), and the step flow signed in another tab.
    ...LEGACY_OUTCOME_SCENARIOS,
    'signInOtherTab',
    'signatureHighRisk',
    // The application status page's tasks and failures (tests/http/sandboxCaseStatus.test.ts).
    ...CASE_SCENARIOS,
    // Created, then the login session or the affiliate conversion fails (tests/http/sandboxAfterCreation.test.ts).
    'loginSessionFails',
    'affiliateConversionFails',
    'halfFinished',
  ];

  it('have national ids valid for their country, unique, with full names', async () => {
    const all = await listPersonas(newApp());
    for (const p of all) {
      expect(Object.keys(p).sort()).toEqual(['country', 'name', 'nationalId', 'scenario']);
      expect(isValidNationalId(p.country, p.nationalId), `${p.name} ${p.nationalId}`).toBe(true);
      // legacyDoubleName's surname has two words (customer-information §5 double name).
      expect(p.name).toMatch(p.scenario === 'legacyDoubleName' ? /^\S+ \S+ \S+$/ : /^\S+ \S+$/);
    }
    expect(new Set(all.map((p) => p.nationalId)).size).toBe(all.length);
  });

  it('cover every required scenario with exactly one Swedish persona, plus the broker scenarios in NO, DK and FI', async () => {
    const all = await listPersonas(newApp());
    const swedish = all.filter((p) => p.country === 'SE').map((p) => p.scenario);
    expect(swedish.sort()).toEqual([...requiredScenarios].sort());
    const others = all.filter((p) => p.country !== 'SE').map((p) => `${p.country}:${p.scenario}`);
    // 'accounts' goes straight to the account picker and alias steps (tests/e2e/customerInformationAccounts.test.ts).
    // 'livesAbroad' walks every step (tests/support/marketWalk.ts).
    // The legacy single form and signInOtherTab are in every market (tests/http/legacySandboxCalls.test.ts, legacyClientPersonas.test.ts).
    const legacyScenarios = ['legacyFlow', ...LEGACY_OUTCOME_SCENARIOS, 'signInOtherTab'];
    // The status page's personas (openCase and the case scenarios) are in every market (tests/http/sandboxCaseStatus.test.ts).
    const brokerScenarios = ['accounts', 'livesAbroad', 'login', 'minor', 'onboarding', ...legacyScenarios, 'openCase', ...CASE_SCENARIOS];
    // National ids a checksum stricter than the issuing authority's once refused (tests/reliability/nationalIdsRefused.test.ts).
    const unusualIds = ['DK:cprWithoutModulus11', 'NO:controlDigits2032', 'NO:hNumber', 'NO:syntheticTestNumber'];
    expect(others.sort()).toEqual([...['DK', 'FI', 'NO'].flatMap((c) => brokerScenarios.map((s) => `${c}:${s}`)), ...unusualIds].sort());
    // The OIDC provider's login page lists them; each id is valid for its country.
    for (const p of all.filter((x) => x.country !== 'SE')) expect(isValidNationalId(p.country as 'NO' | 'DK' | 'FI', p.nationalId)).toBe(true);
  });

  it('have the expected routing status', async () => {
    const app = newApp();
    const expected: Array<[string, string, string[] | null]> = [
      ['onboarding', 'ONBOARDING', null],
      ['onboardingIntent', 'ONBOARDING_INTENT', null],
      ['login', 'LOGIN', null],
      ['nightlyDowntimeRouting', 'ONBOARDING_NIGHTLY_DOWNTIME', null],
      ['minor', 'MINOR', null],
      ['manualSupport', 'MANUAL_SUPPORT', null],
      ['openCase', 'ONBOARDING_OPEN_CASE', null],
      ['legacyFlow', 'ONBOARDING', ['SHOULD_NOT_UPDATE_STATUS']],
      ['blocked', 'ONBOARDING', null],
    ];
    for (const [scenario, status, info] of expected) {
      const { jwt } = await loginWithBankid(app, scenario);
      const res = await request(app).get(brokeragePaths.routingStatus).set(bearer(jwt)).expect(200);
      const routing = routingStatusResponse.parse(res.body);
      expect([scenario, routing.customerRoutingStatus, routing.routingInformation]).toEqual([scenario, status, info]);
      if (scenario === 'login') expect(routing.customerId).toEqual(expect.any(String));
    }
  });
});
