// Putting a saved application back (server/stages/customerInformation/savedAnswers.ts) from the brokerage's answers:
// the older citizenship variant's answer is the choice alone, and a step left part-way opens at its sub-step.
import { describe, expect, it } from 'vitest';
import { restoreSavedApplication } from '../../server/stages/customerInformation/savedAnswers.ts';
import type { CustomerInformationProgress } from '../../server/journey.ts';
import type { StepId } from '../../shared/contracts/brokerageContract.ts';
import type { ProspectStep, StepRelatedData } from '../../shared/contracts/savedApplicationContract.ts';

const STEPS: StepId[] = ['CONTACT_INFORMATION_STEP', 'CITIZENSHIP_STEP', 'TAX_INFO_STEP'];
const contact = { email: 'a@example.com', mobilePhoneNumber: '+46701234567', address: null, zipCode: null, city: null };

/** A brokerage answering these steps and each step's related data; counts the related-data reads. */
function brokerage(steps: ProspectStep[], related: Partial<{ [S in StepId]: StepRelatedData<S> }>) {
  const reads: StepId[] = [];
  return {
    reads,
    prospectSteps: () => Promise.resolve({ steps, keptUntil: '2030-01-01T00:00:00.000Z' }),
    stepRelatedData: <S extends StepId>(_id: string, step: S) => {
      reads.push(step);
      return Promise.resolve(related[step] as StepRelatedData<S>);
    },
  };
}
const progress = (): CustomerInformationProgress => ({ steps: [...STEPS], current: 0, accounts: ['DEP_SE'] });
const at = (stepName: StepId, completed: boolean, subStep = 0): ProspectStep => ({ stepName, completed, subStep });

describe('restoreSavedApplication', () => {
  it.each([
    [true, 'otherCitizenships', []],
    [false, 'inOfficeCitizenship', ['SE']],
  ] as const)('the older variant (citizenOutsideOfTld %s) puts back the choice %s, countries %j', async (outside, choice, countries) => {
    const ci = progress();
    const upstream = brokerage([at('CONTACT_INFORMATION_STEP', true), at('CITIZENSHIP_STEP', true), at('TAX_INFO_STEP', false)], {
      CONTACT_INFORMATION_STEP: contact,
      CITIZENSHIP_STEP: { isCitizenInTld: !outside, citizenOutsideOfTld: outside, citizenshipInformationList: [] },
    });
    expect(await restoreSavedApplication(upstream, 'p-1', ci, 'SE')).toEqual({ openedFresh: [] });
    expect(ci.current).toBe(2);
    expect(ci.answers?.citizenship).toEqual({ choice, countries, tasks: {}, attachments: {} });
  });

  it('a step left part-way opens at its sub-step with its files; one it cannot put back opens at its start', async () => {
    const related = {
      CONTACT_INFORMATION_STEP: contact,
      CITIZENSHIP_STEP: {
        isCitizenInTld: true,
        citizenshipInformationList: [
          { countryCode: 'NO', taskId: 't-1', attachments: [{ attachmentId: 'a-1', fileName: 'pass.pdf', contentType: 'application/pdf' as const }] },
        ],
      },
    };
    const ci = progress();
    const upstream = brokerage([at('CONTACT_INFORMATION_STEP', true), at('CITIZENSHIP_STEP', false, 2), at('TAX_INFO_STEP', false)], related);
    await restoreSavedApplication(upstream, 'p-1', ci, 'SE');
    expect([ci.current, ci.screen, ci.visited]).toEqual([1, 'proof', ['choice', 'countries']]);
    expect(ci.answers?.citizenship?.attachments).toEqual({ NO: [{ attachmentId: 'a-1', name: 'pass.pdf' }] });

    // Nothing of the countries saved after all: the step's start, nothing put back.
    const fresh = progress();
    const empty = brokerage([at('CONTACT_INFORMATION_STEP', true), at('CITIZENSHIP_STEP', false, 2)], {
      ...related,
      CITIZENSHIP_STEP: { isCitizenInTld: null, citizenshipInformationList: [] },
    });
    await restoreSavedApplication(empty, 'p-1', fresh, 'SE');
    expect([fresh.current, fresh.screen, fresh.visited]).toEqual([1, undefined, []]);
    expect(fresh.answers?.citizenship).toBeUndefined();
  });
});
