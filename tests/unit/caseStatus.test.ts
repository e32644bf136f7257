// Rules of the application status page (identification-routing-creation §2 "Application status page", §4 "Status page", §5).
import { describe, expect, it } from 'vitest';
import {
  checkProofOfAddress,
  checkResidencyForm,
  checkUploadForm,
  formFor,
  proofOfAddressMessage,
  residencyFormFromTask,
  stepTwoStatus,
  tasksNeedingInput,
  updateActionBody,
  updateCaseBody,
  type ProofFile,
  type ResidencyFormInput,
} from '../../shared/caseStatus.ts';
import { tasksOf, updateCaseRequest, type StatusTask, type TaskType } from '../../shared/contracts/caseStatusContract.ts';

const residency: StatusTask = {
  nnxTaskId: 't-res',
  type: 'RESIDENCY',
  customerId: 'c-1',
  taskData: {
    address: 'Calle Mayor 5',
    zipCode: '28013',
    city: 'Madrid',
    countryCode: 'ES',
    questionsAndAnswers: [{ question: 'reasonForLivingAbroad', answer: 'Work' }],
    type: null,
  },
  attachments: [],
  actions: [{ actionId: 'a-res', status: 'OPEN' }],
};
const taxLiability: StatusTask = {
  nnxTaskId: 't-tax',
  type: 'TAX_LIABILITY',
  customerId: 'c-1',
  taskData: { countryCode: 'US' },
  attachments: [],
  actions: [{ actionId: 'a-tax', status: 'OPEN' }],
};
const closed = (task: StatusTask): StatusTask => ({ ...task, actions: task.actions.map((a) => ({ ...a, status: 'CLOSED' })) });

describe('stepTwoStatus: "Pending" while any task has an OPEN action, else "In progress"', () => {
  it.each<[string, StatusTask[], ReturnType<typeof stepTwoStatus>]>([
    ['no tasks (204)', [], 'inProgress'],
    ['one open action', [residency], 'pending'],
    ['every action closed', [closed(residency), closed(taxLiability)], 'inProgress'],
    ['one closed, one open', [closed(residency), taxLiability], 'pending'],
    ['an action of another status than OPEN or CLOSED', [{ ...residency, actions: [{ actionId: 'x', status: 'IN_REVIEW' }] }], 'inProgress'],
    ['a task without actions', [{ ...residency, actions: [] }], 'inProgress'],
    ['a closed and an open action on one task', [{ ...residency, actions: [{ actionId: 'x', status: 'CLOSED' }, ...residency.actions] }], 'pending'],
  ])('%s', (_name, tasks, expected) => {
    expect(stepTwoStatus(tasks)).toBe(expected);
  });
});

describe('tasksNeedingInput: one form per task with an open action, answering that action', () => {
  it('keeps the order of the list and names the open action', () => {
    const twoActions: StatusTask = {
      ...taxLiability,
      actions: [
        { actionId: 'old', status: 'CLOSED' },
        { actionId: 'new', status: 'OPEN' },
      ],
    };
    expect(tasksNeedingInput([closed(residency), twoActions, residency]).map((n) => [n.task.nnxTaskId, n.actionId])).toEqual([
      ['t-tax', 'new'],
      ['t-res', 'a-res'],
    ]);
  });
  it('is empty when nothing is open', () => {
    expect(tasksNeedingInput([closed(residency)])).toEqual([]);
  });
  it('leaves out an action this session has answered, though the brokerage lists it OPEN still', () => {
    const answered = (taskId: string, actionId: string) => taskId === 't-res' && actionId === 'a-res';
    expect(tasksNeedingInput([residency, taxLiability], answered).map((n) => n.actionId)).toEqual(['a-tax']);
    expect(stepTwoStatus([residency], [], answered)).toBe('inProgress');
  });
});

describe('tasks the page only names (a type or data the contract does not describe)', () => {
  it('one with an open action keeps step two Pending; one without does not', () => {
    expect(stepTwoStatus([], [{ nnxTaskId: 'x', type: 'SOURCE_OF_FUNDS', actions: [{ status: 'OPEN' }] }])).toBe('pending');
    expect(stepTwoStatus([], [{ type: 'SOURCE_OF_FUNDS', actions: [{ status: 'DONE' }] }])).toBe('inProgress');
  });
  it('are read from the list task by task: a task of an unknown type or with unreadable data never fails the others', () => {
    const list = tasksOf([
      { ...taxLiability, priority: { level: 'HIGH' }, attachments: [{ documentId: 'D' }] },
      { nnxTaskId: 'u', type: 'SOURCE_OF_FUNDS', customerId: 'c', actions: [{ actionId: 'z', status: 'OPEN' }] },
      { ...residency, taskData: { address: 'x' } },
      'not a task',
      { ...residency, taskData: { ...residency.taskData, questionsAndAnswers: { reason: 'Work' }, type: 7 } },
    ]);
    expect(list.tasks.map((t) => [t.nnxTaskId, t.attachments])).toEqual([
      ['t-tax', []],
      ['t-res', []],
    ]);
    expect(list.tasks[1]!.type === 'RESIDENCY' && list.tasks[1]!.taskData).toEqual({ ...residency.taskData, questionsAndAnswers: undefined, type: undefined });
    expect(list.others).toEqual([
      { nnxTaskId: 'u', type: 'SOURCE_OF_FUNDS', actions: [{ actionId: 'z', status: 'OPEN' }] },
      { nnxTaskId: 't-res', type: 'RESIDENCY', actions: [{ actionId: 'a-res', status: 'OPEN' }] },
      { actions: [] },
    ]);
  });
});

describe('formFor: the residency form for residency, the upload form for the tax tasks', () => {
  it.each<[TaskType, ReturnType<typeof formFor>]>([
    ['RESIDENCY', 'residency'],
    ['TAX_LIABILITY', 'upload'],
    ['TAX_RESIDENCE', 'upload'],
  ])('%s', (type, form) => {
    expect(formFor(type)).toBe(form);
  });
});

const form: ResidencyFormInput = { address: 'Calle Mayor 5', zipCode: '28013', city: 'Madrid' };

describe('checkResidencyForm (identification-routing-creation §5: address, zip code, city required)', () => {
  it.each<[string, Partial<ResidencyFormInput>, ReturnType<typeof checkResidencyForm>]>([
    ['all three', {}, {}],
    ['spaces around are fine', { city: '  Madrid ' }, {}],
    ['no address', { address: '' }, { address: 'required' }],
    ['only spaces in the zip code', { zipCode: '   ' }, { zipCode: 'required' }],
    ['no city', { city: '\n' }, { city: 'required' }],
    ['a 200-character address', { address: 'a'.repeat(200) }, {}],
    ['a 201-character address', { address: 'a'.repeat(201) }, { address: 'tooLong' }],
    ['a 21-character zip code', { zipCode: '1'.repeat(21) }, { zipCode: 'tooLong' }],
    ['a 101-character city', { city: 'c'.repeat(101) }, { city: 'tooLong' }],
    ['everything empty', { address: '', zipCode: '', city: '' }, { address: 'required', zipCode: 'required', city: 'required' }],
  ])('%s', (_name, change, expected) => {
    expect(checkResidencyForm({ ...form, ...change })).toEqual(expected);
  });

  it('starts from the task, the country read-only from it; missing values start empty', () => {
    expect(residencyFormFromTask(residency as Extract<StatusTask, { type: 'RESIDENCY' }>)).toEqual({ ...form, countryCode: 'ES' });
    const bare = { ...residency, taskData: { countryCode: 'DE' } } as Extract<StatusTask, { type: 'RESIDENCY' }>;
    expect(residencyFormFromTask(bare)).toEqual({ address: '', zipCode: '', city: '', countryCode: 'DE' });
  });
});

describe('checkProofOfAddress: at least one of housing contract, bank statement, official tax document, chosen per file', () => {
  it.each<[string, ProofFile[], ReturnType<typeof checkProofOfAddress>]>([
    ['no file', [], { files: 'required', kindMissing: [] }],
    ['one housing contract', [{ fileName: 'a.pdf', kind: 'housingContract' }], null],
    [
      'each kind once',
      [
        { fileName: 'a.pdf', kind: 'housingContract' },
        { fileName: 'b.png', kind: 'bankStatement' },
        { fileName: 'c.jpg', kind: 'officialTaxDocument' },
      ],
      null,
    ],
    [
      'the same kind twice',
      [
        { fileName: 'a.pdf', kind: 'bankStatement' },
        { fileName: 'b.pdf', kind: 'bankStatement' },
      ],
      null,
    ],
    ['a file without a kind', [{ fileName: 'a.pdf', kind: 'bankStatement' }, { fileName: 'b.pdf' }], { kindMissing: [1] }],
    ['a kind that is no proof', [{ fileName: 'a.pdf', kind: 'passport' }], { kindMissing: [0] }],
    ['an empty choice', [{ fileName: 'a.pdf', kind: '' }], { kindMissing: [0] }],
  ])('%s', (_name, files, expected) => {
    expect(checkProofOfAddress(files)).toEqual(expected);
  });
});

describe('checkUploadForm (identification-routing-creation §5: at least one attachment; comment optional)', () => {
  it.each<[string, { attachments: number; comment: string }, ReturnType<typeof checkUploadForm>]>([
    ['one file, no comment', { attachments: 1, comment: '' }, {}],
    ['several files and a comment', { attachments: 3, comment: 'My tax return' }, {}],
    ['no file', { attachments: 0, comment: 'Here it is' }, { attachments: 'required' }],
    ['a 2000-character comment', { attachments: 1, comment: 'x'.repeat(2000) }, {}],
    ['a 2001-character comment', { attachments: 1, comment: 'x'.repeat(2001) }, { comment: 'tooLong' }],
    ['nothing at all', { attachments: 0, comment: 'x'.repeat(2001) }, { attachments: 'required', comment: 'tooLong' }],
  ])('%s', (_name, input, expected) => {
    expect(checkUploadForm(input)).toEqual(expected);
  });
});

describe('the bodies sent', () => {
  it('update-action: the action and the trimmed message', () => {
    expect(updateActionBody('a-tax', '  My tax return \n')).toEqual({ actionId: 'a-tax', message: 'My tax return' });
    expect(updateActionBody('a-tax', '')).toEqual({ actionId: 'a-tax', message: '' });
  });

  it('update-case of a residency task: the confirmed address in the task data, the country and answers kept', () => {
    const body = updateCaseBody(residency, 'a-res', 'housingContract: lease.pdf', { address: ' Gran Vía 1 ', zipCode: '28001', city: 'Madrid' });
    expect(body).toEqual({
      actionUpdate: { actionId: 'a-res', message: 'housingContract: lease.pdf' },
      taskUpdate: {
        customerId: 'c-1',
        type: 'RESIDENCY',
        taskData: {
          address: 'Gran Vía 1',
          zipCode: '28001',
          city: 'Madrid',
          countryCode: 'ES',
          questionsAndAnswers: [{ question: 'reasonForLivingAbroad', answer: 'Work' }],
          type: null,
        },
      },
    });
    expect(updateCaseRequest.safeParse(body).success).toBe(true);
  });

  it('update-case of a residency task needs the residency form', () => {
    expect(() => updateCaseBody(residency, 'a-res', '')).toThrow(/residency form/);
  });

  it.each<[string, StatusTask, unknown]>([
    ['tax liability', taxLiability, { countryCode: 'US' }],
    ['tax residence without task data', { ...taxLiability, type: 'TAX_RESIDENCE', taskData: undefined }, null],
  ])('update-case of a %s task: its task data unchanged', (_name, task, taskData) => {
    const body = updateCaseBody(task, 'a-tax', ' Here ');
    expect(body).toEqual({ actionUpdate: { actionId: 'a-tax', message: 'Here' }, taskUpdate: { customerId: 'c-1', type: task.type, taskData } });
    expect(updateCaseRequest.safeParse(body).success).toBe(true);
  });

  it('the proof message names each file with its kind, within the contract limit', () => {
    expect(
      proofOfAddressMessage([
        { fileName: 'lease.pdf', kind: 'housingContract' },
        { fileName: 'bank.png', kind: 'bankStatement' },
      ]),
    ).toBe('housingContract: lease.pdf\nbankStatement: bank.png');
    expect(proofOfAddressMessage(Array.from({ length: 20 }, () => ({ fileName: 'f'.repeat(200), kind: 'bankStatement' as const }))).length).toBe(2000);
  });
});
