// Each poll once read and opened the run's sealed credentials from Redis again. The worker now holds a
// run's credentials in memory while the run lives (server/infra/creationCredentials.ts heldWhileRunLives).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createMemoryCreationCredentials,
  heldWhileRunLives,
  type CreationCredentials,
  type CreationCredentialsStore,
} from '../../server/infra/creationCredentials.ts';

function counted(store: CreationCredentialsStore) {
  const calls = { get: 0, put: 0, remove: 0 };
  const wrapped: CreationCredentialsStore = {
    put: (p, r, c) => (calls.put++, store.put(p, r, c)),
    get: (p, r) => (calls.get++, store.get(p, r)),
    remove: (p, r) => (calls.remove++, store.remove(p, r)),
  };
  return { calls, wrapped };
}

function setup(options: { holdMs?: number; maxRuns?: number } = {}) {
  let clock = 1_000_000;
  const store = createMemoryCreationCredentials({ key: randomBytes(32), now: () => clock });
  const { calls, wrapped } = counted(store);
  const held = heldWhileRunLives(wrapped, { ...options, now: () => clock });
  return { store, calls, held, advance: (ms: number) => (clock += ms) };
}

const handedOver: CreationCredentials = { refreshToken: 'rt-1' };

describe('run credentials held while the run lives', () => {
  it('opens them once for the whole run: 45 polls read the store once', async () => {
    const { store, calls, held } = setup();
    await store.put('p1', 'run-1', handedOver);
    for (let poll = 0; poll < 45; poll++) expect(await held.get('p1', 'run-1')).toEqual(handedOver);
    expect(calls.get).toBe(1);
  });

  it('a renewed access token is written to the store and held: the next poll uses it without a read', async () => {
    const { store, calls, held } = setup();
    await store.put('p1', 'run-1', handedOver);
    await held.get('p1', 'run-1');
    await held.put('p1', 'run-1', { ...handedOver, accessToken: 'at-2' });
    expect(await held.get('p1', 'run-1')).toEqual({ refreshToken: 'rt-1', accessToken: 'at-2' });
    expect(await store.get('p1', 'run-1')).toEqual({ refreshToken: 'rt-1', accessToken: 'at-2' });
    expect(calls).toMatchObject({ get: 1, put: 1 });
  });

  it('the run ending lets them go, here and in the store', async () => {
    const { store, calls, held } = setup();
    await store.put('p1', 'run-1', handedOver);
    await held.get('p1', 'run-1');
    await held.remove('p1', 'run-1');
    expect(await held.get('p1', 'run-1')).toBeNull();
    expect(calls).toMatchObject({ remove: 1, get: 2 });
  });

  it('a run nobody touched for holdMs is read from the store again (a run that stopped without ending)', async () => {
    const { store, calls, held, advance } = setup({ holdMs: 60_000 });
    await store.put('p1', 'run-1', handedOver);
    await held.get('p1', 'run-1');
    advance(59_000);
    await held.get('p1', 'run-1');
    expect(calls.get).toBe(1);
    advance(61_000);
    await held.get('p1', 'run-1');
    expect(calls.get).toBe(2);
  });

  it('holds at most maxRuns runs, letting go of the one unused longest', async () => {
    const { store, calls, held } = setup({ maxRuns: 2 });
    for (const run of ['a', 'b', 'c']) await store.put('p1', run, handedOver);
    await held.get('p1', 'a');
    await held.get('p1', 'b');
    await held.get('p1', 'a');
    await held.get('p1', 'c');
    expect(calls.get).toBe(3);
    await held.get('p1', 'a');
    expect(calls.get).toBe(3);
    await held.get('p1', 'b');
    expect(calls.get).toBe(4);
  });

  it('hands out copies: a caller changing its copy changes nothing held', async () => {
    const { store, held } = setup();
    await store.put('p1', 'run-1', handedOver);
    const first = (await held.get('p1', 'run-1'))!;
    first.accessToken = 'changed by the caller';
    expect(await held.get('p1', 'run-1')).toEqual(handedOver);
  });

  it('runs of other prospects and other runs are apart', async () => {
    const { store, held } = setup();
    await store.put('p1', 'run-1', { refreshToken: 'rt-p1' });
    await store.put('p2', 'run-1', { refreshToken: 'rt-p2' });
    expect(await held.get('p1', 'run-1')).toEqual({ refreshToken: 'rt-p1' });
    expect(await held.get('p2', 'run-1')).toEqual({ refreshToken: 'rt-p2' });
    expect(await held.get('p1', 'run-2')).toBeNull();
  });
});
