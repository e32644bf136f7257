// The page machine's moves between steps (shared/pageMachine.ts), table-driven: each row is the progress
// before, the move, and the progress after. The HTTP walk of every screen is tests/http/pageMachine.test.ts.
import { describe, expect, it } from 'vitest';
import { advance, changeStep, goBack, moveTo, restoreAnswers, selectLegacyForm, type PageProgress, type ScreenMap } from '../../shared/pageMachine.ts';
import type { StepId } from '../../shared/contracts/brokerageContract.ts';

interface Answers {
  contactInformation?: { email: string };
  citizenship?: { choice: string };
}
type Progress = PageProgress<Answers>;

const steps: StepId[] = ['MILESTONE_ONE_STEP', 'CONTACT_INFORMATION_STEP', 'CITIZENSHIP_STEP', 'TAX_INFO_STEP', 'KYC_STEP', 'MILESTONE_THREE_STEP'];
const at = (current: number, rest: Partial<Progress> = {}): Progress => ({ steps: [...steps], current, visited: [], ...rest });
const answersOf = (step: StepId): keyof Answers | undefined =>
  step === 'CONTACT_INFORMATION_STEP' ? 'contactInformation' : step === 'CITIZENSHIP_STEP' ? 'citizenship' : undefined;

/** Applies `move` to a copy of `before` (the given progress is never shared between rows). */
function after(before: Progress, move: (p: Progress) => unknown): { progress: Progress; result: unknown } {
  const progress = structuredClone(before);
  const result = move(progress);
  return { progress, result };
}

describe('advance', () => {
  it.each<[string, Progress, Progress]>([
    ['the next step, its first screen', at(1, { screen: 'contact', visited: ['x'] }), at(2)],
    ['never past the last step', at(5, { screen: 'milestone' }), at(5)],
    [
      'a changed step finished: back to the summary, the kept answers dropped',
      at(1, { returnTo: 5, returnAnswers: { contactInformation: { email: 'a@b.se' } } }),
      at(5),
    ],
  ])('%s', (_name, before, expected) => {
    expect(after(before, advance).progress).toEqual(expected);
  });
});

describe('changeStep (milestone three’s Change)', () => {
  const answers: Answers = { contactInformation: { email: 'old@b.se' }, citizenship: { choice: 'home' } };
  it.each<[string, string, Progress, boolean, Progress]>([
    [
      'an earlier step: re-entered, its answers kept to put back',
      'CONTACT_INFORMATION_STEP',
      at(5, { screen: 'milestone', answers }),
      true,
      at(1, { answers, returnTo: 5, returnAnswers: { contactInformation: { email: 'old@b.se' } } }),
    ],
    ['the KYC step: refused, nothing changed', 'KYC_STEP', at(5, { answers }), false, at(5, { answers })],
    ['a milestone: refused', 'MILESTONE_ONE_STEP', at(5), false, at(5)],
    ['a later step: refused', 'MILESTONE_THREE_STEP', at(3), false, at(3)],
    ['an unknown name: refused', 'nope', at(5), false, at(5)],
    ['a step that keeps no answers of its own: re-entered, nothing kept', 'TAX_INFO_STEP', at(5), true, at(3, { returnTo: 5, returnAnswers: {} })],
  ])('%s', (_name, target, before, changed, expected) => {
    const { progress, result } = after(before, (p) => changeStep(p, target, answersOf));
    expect(result).toBe(changed);
    expect(progress).toEqual(expected);
  });

  it('keeps a copy: what the step changes later does not change what is put back', () => {
    const progress = at(5, { answers: structuredClone(answers) });
    changeStep(progress, 'CONTACT_INFORMATION_STEP', answersOf);
    progress.answers!.contactInformation!.email = 'new@b.se';
    expect(progress.returnAnswers).toEqual({ contactInformation: { email: 'old@b.se' } });
  });
});

describe('goBack', () => {
  it.each<[string, Progress, boolean, Progress]>([
    [
      'a visited screen of the step: that screen, the step unchanged',
      at(3, { screen: 'numbers', visited: ['liability', 'countries'] }),
      false,
      at(3, { screen: 'countries', visited: ['liability'] }),
    ],
    ['the first screen: the previous step', at(3, { screen: 'liability' }), true, at(2)],
    ['the first step: nowhere', at(0), false, at(0)],
    ['right after a milestone: nowhere (customer-information §2.2)', at(1), false, at(1)],
    ['right after the KYC step: nowhere', at(5), false, at(5)],
    [
      'out of a change: the summary, and the step’s answers as they were',
      at(1, { returnTo: 5, returnAnswers: { contactInformation: { email: 'old@b.se' } }, answers: { contactInformation: { email: 'half@b.se' } } }),
      true,
      at(5, { answers: { contactInformation: { email: 'old@b.se' } } }),
    ],
  ])('%s', (_name, before, changed, expected) => {
    const { progress, result } = after(before, goBack);
    expect(result).toBe(changed);
    expect(progress).toEqual(expected);
  });
});

describe('restoreAnswers', () => {
  it.each<[string, Answers | undefined, Partial<Answers>, Answers]>([
    [
      'puts a kept answer back',
      { contactInformation: { email: 'new@b.se' } },
      { contactInformation: { email: 'old@b.se' } },
      { contactInformation: { email: 'old@b.se' } },
    ],
    ['removes an answer that was absent', { contactInformation: { email: 'new@b.se' } }, { contactInformation: undefined }, {}],
    [
      'leaves the other steps’ answers',
      { citizenship: { choice: 'home' } },
      { contactInformation: { email: 'old@b.se' } },
      { citizenship: { choice: 'home' }, contactInformation: { email: 'old@b.se' } },
    ],
    ['no answers yet', undefined, { contactInformation: { email: 'old@b.se' } }, { contactInformation: { email: 'old@b.se' } }],
  ])('%s', (_name, answers, kept, expected) => {
    const progress = at(1, answers ? { answers } : {});
    restoreAnswers(progress, kept);
    expect(progress.answers).toEqual(expected);
  });
});

describe('moveTo', () => {
  const tax: ScreenMap & { id: string } = {
    id: 'TAX_INFO_STEP',
    first: 'liability',
    screens: { liability: {}, countries: {}, numbers: {}, fatca: { dialogOver: ['liability', 'countries'] } },
  };
  it.each<[string, Progress, string, string, Progress]>([
    [
      'forward: the screen left is remembered',
      at(3, { screen: 'liability' }),
      'liability',
      'countries',
      at(3, { screen: 'countries', visited: ['liability'] }),
    ],
    [
      'into a dialog',
      at(3, { screen: 'countries', visited: ['liability'] }),
      'countries',
      'fatca',
      at(3, { screen: 'fatca', visited: ['liability', 'countries'] }),
    ],
    [
      'back to a screen seen before',
      at(3, { screen: 'numbers', visited: ['liability', 'countries'] }),
      'numbers',
      'liability',
      at(3, { screen: 'liability', visited: [] }),
    ],
  ])('%s', (_name, before, from, target, expected) => {
    expect(after(before, (p) => moveTo(tax, p, from, target)).progress).toEqual(expected);
  });

  it.each(['nope', '__proto__', 'constructor'])('refuses a name the step lacks (%s): a defect of the step', (target) => {
    const progress = at(3, { screen: 'liability' });
    expect(() => moveTo(tax, progress, 'liability', target)).toThrow(`TAX_INFO_STEP has no screen ${target}`);
    expect(progress).toEqual(at(3, { screen: 'liability' }));
  });
});

describe('selectLegacyForm (customer-information §2.1 ?shouldUseLegacyFlow=true)', () => {
  it.each<[string, unknown, Progress, Progress]>([
    [
      'the query: the legacy form becomes the current step, in place of the rest',
      { shouldUseLegacyFlow: 'true' },
      at(2, { screen: 'countries', visited: ['choice'] }),
      { ...at(2), steps: ['MILESTONE_ONE_STEP', 'CONTACT_INFORMATION_STEP', 'EXISTING_STEP'] },
    ],
    ['no query: nothing changed', {}, at(2, { screen: 'countries' }), at(2, { screen: 'countries' })],
    ['another value: nothing changed', { shouldUseLegacyFlow: 'false' }, at(2, { screen: 'countries' }), at(2, { screen: 'countries' })],
    [
      'already on the legacy form: its screen kept',
      { shouldUseLegacyFlow: 'true' },
      { steps: ['EXISTING_STEP'], current: 0, screen: 'review', visited: ['form'] },
      { steps: ['EXISTING_STEP'], current: 0, screen: 'review', visited: ['form'] },
    ],
  ])('%s', (_name, query, before, expected) => {
    expect(after(before, (p) => selectLegacyForm(p, query)).progress).toEqual(expected);
  });
});
