// Screen names are checked by the compiler (server/stages/customerInformation/stepModule.ts stepOf): each
// `@ts-expect-error` below is a misspelt screen that `tsc --noEmit` (npm run typecheck) must refuse; were one
// accepted, the unused directive would fail the typecheck. The runtime checks what the step holds.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { finish, stepOf, type StepContext } from '../../server/stages/customerInformation/stepModule.ts';

type Names = 'question' | 'pep';
const { defineStep, screen, goTo, again } = stepOf<Names>();
const view = (ctx: StepContext<Names>) => <p>{ctx.fields('question').screen}</p>;

const step = defineStep({
  id: 'KYC_STEP',
  first: 'question',
  screens: {
    question: screen({
      input: z.object({}),
      view,
      submit: (ctx) => (ctx.screen === 'question' ? goTo('pep') : finish),
    }),
    pep: screen({
      dialogOver: ['question'],
      input: z.object({}),
      view,
      submit: () => goTo('question'),
    }),
  },
});

describe('typed screens', () => {
  it('a step holds exactly its named screens', () => {
    expect(Object.keys(step.screens)).toEqual(['question', 'pep']);
    expect(step.screens.pep.dialogOver).toEqual(['question']);
  });

  it('refuses a misspelt screen wherever one is written (checked by tsc)', () => {
    // @ts-expect-error a move to a screen the step lacks
    expect(goTo('qestion')).toEqual({ kind: 'screen', screen: 'qestion' });
    // @ts-expect-error again's screen
    expect(again(<p />, 400, { screen: 'pepp' }).kind).toBe('again');
    const typo = (ctx: StepContext<Names>) =>
      // @ts-expect-error a form's hidden fields
      ctx.fields('qustion');
    expect(typo).toBeTypeOf('function');
    // @ts-expect-error a dialog over a screen the step lacks
    expect(screen({ dialogOver: ['questoin'], input: z.object({}), view, submit: () => finish }).dialogOver).toEqual(['questoin']);
    const misnamed = {
      id: 'KYC_STEP',
      // @ts-expect-error the first screen (where Back from the next step lands)
      first: 'questoin',
      screens: step.screens,
    } satisfies Parameters<typeof defineStep>[0];
    expect(misnamed.first).toBe('questoin');
  });
});
