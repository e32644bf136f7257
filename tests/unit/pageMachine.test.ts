// The page machine's rules (shared/pageMachine.ts), table-driven: the stale-post rule, what Back returns
// to, and what a move between screens remembers.
import { describe, expect, it } from 'vitest';
import { acceptsPost, backWithinStep, visitedAfterMove, type ScreenMap } from '../../shared/pageMachine.ts';

// The tax information step's shape: four screens and two dialogs.
const tax: ScreenMap = {
  first: 'liability',
  screens: {
    liability: {},
    countries: {},
    numbers: {},
    residenceProof: {},
    fatca: { dialogOver: ['liability', 'countries'] },
    failure: { dialogOver: ['numbers', 'residenceProof'] },
  },
};

describe('acceptsPost (the stale-post rule)', () => {
  it.each([
    ['the screen shown', 'liability', 'liability', true],
    ['another screen of the step (a stale tab)', 'countries', 'liability', false],
    ['a later screen (skipping ahead)', 'liability', 'numbers', false],
    ['a dialog over the screen shown (the JavaScript modal)', 'countries', 'fatca', true],
    ['a dialog that does not open over the screen shown', 'numbers', 'fatca', false],
    ['the dialog shown as its own screen', 'failure', 'failure', true],
    ['a screen while its dialog is shown', 'failure', 'numbers', false],
    ['an unknown screen', 'liability', 'nope', false],
    ['an inherited property name', 'liability', 'constructor', false],
    ['__proto__', 'liability', '__proto__', false],
  ])('%s', (_name, shown, posted, accepted) => {
    expect(acceptsPost(tax, shown, posted)).toBe(accepted);
  });
});

describe('visitedAfterMove', () => {
  it.each([
    ['forward remembers the screen left', [], 'liability', 'countries', ['liability']],
    ['forward again', ['liability'], 'countries', 'numbers', ['liability', 'countries']],
    ['into a dialog remembers the screen under it', ['liability'], 'countries', 'fatca', ['liability', 'countries']],
    ['out of a dialog forward does not remember the dialog', ['liability', 'numbers'], 'failure', 'residenceProof', ['liability', 'numbers']],
    ['out of a dialog back to its screen forgets from there', ['liability', 'countries'], 'fatca', 'countries', ['liability']],
    ['to a screen seen before forgets everything after it', ['liability', 'countries', 'numbers'], 'residenceProof', 'countries', ['liability']],
    ['the same screen again changes nothing', ['liability'], 'countries', 'countries', ['liability']],
  ])('%s', (_name, visited, from, target, expected) => {
    expect(visitedAfterMove(tax, visited, from, target)).toEqual(expected);
  });

  it('never changes the list it was given', () => {
    const visited = Object.freeze(['liability']);
    visitedAfterMove(tax, visited, 'countries', 'numbers');
    expect(visited).toEqual(['liability']);
  });
});

describe('backWithinStep', () => {
  it.each([
    ['nothing visited: Back leaves the step', [], null],
    ['one visited', ['liability'], { screen: 'liability', visited: [] }],
    ['several visited: the last one', ['liability', 'countries'], { screen: 'countries', visited: ['liability'] }],
  ])('%s', (_name, visited, expected) => {
    expect(backWithinStep(visited)).toEqual(expected);
  });
});
