// The status page's task posts (server/stages/caseStatus/caseSubmission.ts): the intent a post asks for, and the
// stale-post rule (a post answers the action the page shows for its task, or the one this session began to send).
import { describe, expect, it } from 'vitest';
import { postTarget, taskPost } from '../../server/stages/caseStatus/caseSubmission.ts';
import type { CaseTaskState } from '../../server/journey.ts';
import type { StatusTask } from '../../shared/contracts/caseStatusContract.ts';

const task = (actions: StatusTask['actions']): StatusTask => ({
  nnxTaskId: 't-1',
  type: 'TAX_LIABILITY',
  customerId: 'c-1',
  taskData: { countryCode: 'US' },
  attachments: [],
  actions,
});
const post = (actionId: string) => ({ taskId: 't-1', actionId });
const kept = (state: Partial<CaseTaskState> & { actionId: string }): CaseTaskState => ({ files: [], ...state });

describe('taskPost: the intent of a post', () => {
  const ids = { taskId: 't-1', actionId: 'a-1' };
  it.each([
    ['upload', { ...ids, intent: 'upload' }, { intent: 'upload' }],
    ['remove with JavaScript', { ...ids, intent: 'remove', attachmentId: 'f-1' }, { intent: 'remove', attachmentId: 'f-1' }],
    [
      'remove without JavaScript (the button names the file, no intent)',
      { ...ids, remove: 'f-2', comment: 'kept' },
      { intent: 'remove', attachmentId: 'f-2', comment: 'kept' },
    ],
    ['send', { ...ids, intent: 'send', comment: 'x' }, { intent: 'send', comment: 'x' }],
    ['no intent (Enter in a field): send', { ...ids }, { intent: 'send' }],
    ['an unknown intent: send', { ...ids, intent: 'delete' }, { intent: 'send' }],
  ])('%s', (_name, body, expected) => {
    expect(taskPost.parse(body)).toMatchObject({ ...ids, ...expected });
  });

  it('refuses a post without its task, or a removal without the file', () => {
    expect(taskPost.safeParse({ actionId: 'a-1' }).success).toBe(false);
    expect(taskPost.safeParse({ ...ids, intent: 'remove' }).success).toBe(false);
    expect(taskPost.safeParse(undefined).success).toBe(false);
  });
});

describe('postTarget: the stale-post rule', () => {
  it('answers the open action the page shows', () => {
    expect(postTarget([task([{ actionId: 'a-1', status: 'OPEN' }])], post('a-1'), undefined)).toMatchObject({ kind: 'open' });
  });

  it('resumes a send this session began, though update-action closed the action', () => {
    const closed = task([{ actionId: 'a-1', status: 'CLOSED' }]);
    expect(postTarget([closed], post('a-1'), kept({ actionId: 'a-1', attempt: 'x', actionUpdated: true }))).toMatchObject({ kind: 'open' });
  });

  it('says sent for an answer this session sent, open or closed', () => {
    for (const status of ['OPEN', 'CLOSED']) {
      expect(postTarget([task([{ actionId: 'a-1', status }])], post('a-1'), kept({ actionId: 'a-1', attempt: 'x', sent: true }))).toEqual({ kind: 'sent' });
    }
  });

  it('an action closed from another browser, with none open after it, is answered', () => {
    expect(postTarget([task([{ actionId: 'a-1', status: 'CLOSED' }])], post('a-1'), undefined)).toMatchObject({ kind: 'answeredElsewhere' });
  });

  it('a post for an action the task has replaced is stale, whatever this session keeps for the new one', () => {
    const replaced = task([
      { actionId: 'a-1', status: 'CLOSED' },
      { actionId: 'a-2', status: 'OPEN' },
    ]);
    expect(postTarget([replaced], post('a-1'), undefined)).toEqual({ kind: 'stale' });
    expect(postTarget([replaced], post('a-1'), kept({ actionId: 'a-2', files: [{ attachmentId: 'f', fileName: 'f.pdf', digest: 'd' }] }))).toEqual({
      kind: 'stale',
    });
    expect(postTarget([replaced], post('a-2'), undefined)).toMatchObject({ kind: 'open' });
  });

  it('a post for a closed action while this session sends another is stale', () => {
    const both = task([
      { actionId: 'a-1', status: 'CLOSED' },
      { actionId: 'a-2', status: 'CLOSED' },
    ]);
    expect(postTarget([both], post('a-1'), kept({ actionId: 'a-2', attempt: 'x' }))).toEqual({ kind: 'stale' });
  });

  it('a second open action the page does not show is stale', () => {
    const two = task([
      { actionId: 'a-1', status: 'OPEN' },
      { actionId: 'a-2', status: 'OPEN' },
    ]);
    expect(postTarget([two], post('a-2'), undefined)).toEqual({ kind: 'stale' });
  });

  it('a task or action not in the person’s list is not theirs', () => {
    const own = task([{ actionId: 'a-1', status: 'OPEN' }]);
    expect(postTarget([own], { taskId: 't-9', actionId: 'a-1' }, undefined)).toEqual({ kind: 'notYours' });
    expect(postTarget([own], post('a-9'), undefined)).toEqual({ kind: 'notYours' });
  });
});
