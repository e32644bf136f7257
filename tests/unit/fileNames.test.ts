// The file-name rule (docs/fileNames.md): a source file's name ends in its role, the role
// word is used only where that role lives, and no two source files share a stem (ignoring case), so that a
// name found in a stack trace or a comment points at one file and says what it is.
import { describe, expect, it } from 'vitest';
import { repoFilesUnder } from '../support/repoFiles.ts';

const sourceFolders = ['server', 'views', 'client', 'shared', 'workers'];

interface SourceFile {
  path: string;
  folder: string;
  stem: string;
}

/** Every .ts/.tsx file under `folders` (declaration files aside), with its folder and stem. */
function filesIn(folders: readonly string[]): SourceFile[] {
  return repoFilesUnder(folders, /\.tsx?$/)
    .filter((path) => !path.endsWith('.d.ts'))
    .map((path) => ({ path, folder: path.slice(0, path.lastIndexOf('/')), stem: path.slice(path.lastIndexOf('/') + 1).replace(/\.tsx?$/, '') }));
}

const sourceFiles = () => filesIn(sourceFolders);

/** A role word at the end of a stem, with something before it (`Island.tsx` itself is the component). */
const endsIn = (stem: string, ...words: string[]) => words.some((w) => stem.length > w.length && stem.endsWith(w));

/** Each role word and where it may be used: a file elsewhere with that ending claims a role it does not have. */
const roleHomes: Array<{ words: string[]; home: RegExp; role: string }> = [
  { words: ['Island'], home: /^client\/islands$/, role: 'island' },
  { words: ['Step', 'Steps'], home: /^server\/stages\/customerInformation\/steps$/, role: 'step' },
  { words: ['PageView', 'PageViews', 'StepView', 'StepViews'], home: /^views\/pages$/, role: 'view' },
  { words: ['Page', 'Pages'], home: /^server\/(stages\/|pageKit$)/, role: 'page' },
  { words: ['Client'], home: /^server\/upstream$/, role: 'upstream client' },
  { words: ['Contract'], home: /^shared(\/contracts)?$/, role: 'contract' },
  { words: ['Job'], home: /^workers$/, role: 'job' },
];

/** The rule's breaches among `files`, one line each (empty when the names keep the rule). */
export function fileNameBreaches(files: readonly SourceFile[]): string[] {
  const breaches: string[] = [];
  const byStem = new Map<string, string[]>();
  for (const f of files) byStem.set(f.stem.toLowerCase(), [...(byStem.get(f.stem.toLowerCase()) ?? []), f.path]);
  for (const paths of byStem.values()) if (paths.length > 1) breaches.push(`same stem: ${paths.join(', ')}`);
  for (const f of files) {
    for (const { words, home, role } of roleHomes) {
      if (endsIn(f.stem, ...words) && !home.test(f.folder)) breaches.push(`${f.path}: its name says “${role}”, whose files live in ${home.source}`);
    }
    if (f.folder === 'client/islands' && !endsIn(f.stem, 'Island')) breaches.push(`${f.path}: an island's name ends in Island`);
    if (f.folder === 'views/pages' && !endsIn(f.stem, 'PageView', 'PageViews', 'StepView', 'StepViews'))
      breaches.push(`${f.path}: a view's name ends in PageView or StepView`);
    if (f.folder === 'shared/contracts' && !endsIn(f.stem, 'Contract')) breaches.push(`${f.path}: a contract's name ends in Contract`);
  }
  // A step's parts are named after their step (legacyFormPresenter.ts beside legacyFormStep.tsx).
  const steps = files.filter((f) => f.folder === 'server/stages/customerInformation/steps');
  const stepNames = steps.filter((f) => endsIn(f.stem, 'Step', 'Steps')).map((f) => f.stem.replace(/Steps?$/, ''));
  for (const f of steps) {
    if (!endsIn(f.stem, 'Step', 'Steps') && !stepNames.some((name) => f.stem.startsWith(name)))
      breaches.push(`${f.path}: a step's part starts with its step's name`);
  }
  return breaches;
}

/** One name per feature: a retired name for a feature, and the name it goes by everywhere now. */
const retiredNames: Array<{ retired: RegExp; name: string }> = [
  { retired: /^statusPage|(?<![Cc]ase)StatusPage/, name: 'caseStatus (the application status page)' },
  { retired: /caseFiles/i, name: 'caseStatusFiles (the status page’s files)' },
  { retired: /afterPolling/i, name: 'afterCreation (what runs when creation polling stops)' },
  { retired: /^creationRecords$/i, name: 'afterCreationRecords' },
  { retired: /leanRoute|creationStream(Route)?$|creationEventStream$/i, name: 'creationEvents… (the creation event stream) or pageKit/streams' },
];

/** Files anywhere in the repository's code folders whose name uses a retired name (`stems` with their paths). */
export function retiredNameBreaches(files: ReadonlyArray<{ path: string; stem: string }>): string[] {
  return files.flatMap((f) => retiredNames.filter(({ retired }) => retired.test(f.stem)).map(({ name }) => `${f.path}: call it ${name}`));
}

describe('file names say their role', () => {
  it('every source file keeps the rule', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(fileNameBreaches(files)).toEqual([]);
  });

  it('no file in any code folder (tests and the sandbox too) goes by a retired name of its feature', () => {
    const everywhere = filesIn([...sourceFolders, 'sandbox', 'tests', 'bench']);
    expect(retiredNameBreaches(everywhere)).toEqual([]);
    expect(retiredNameBreaches([{ path: 'sandbox/statusPage.ts', stem: 'statusPage' }])).toEqual([
      'sandbox/statusPage.ts: call it caseStatus (the application status page)',
    ]);
    expect(retiredNameBreaches([{ path: 'tests/unit/creationAfterPolling.test.ts', stem: 'creationAfterPolling.test' }])).toHaveLength(1);
  });

  it.each([
    ['two files of one stem', ['shared/kyc.ts', 'server/stages/customerInformation/steps/kyc.tsx'], /same stem/],
    ['the same stem in another case', ['views/components/AnswersSummary.tsx', 'shared/answersSummary.ts'], /same stem/],
    ['an island without its word', ['client/islands/bankidQr.tsx'], /an island's name ends in Island/],
    ['a step word outside the steps', ['shared/kycStep.ts'], /says “step”/],
    ['a view without its word', ['views/pages/KycStep.tsx'], /a view's name ends in PageView or StepView/],
    ['a client outside server/upstream', ['server/infra/redisClient.ts'], /says “upstream client”/],
    ['a contract without its word', ['shared/contracts/brokerage.ts'], /a contract's name ends in Contract/],
    ['a job outside workers', ['server/infra/kycJob.ts'], /says “job”/],
    [
      'a step part not named after a step',
      ['server/stages/customerInformation/steps/kycStep.tsx', 'server/stages/customerInformation/steps/presenter.ts'],
      /starts with its step's name/,
    ],
  ])('refuses %s', (_name, paths, breach) => {
    const files = paths.map((path) => ({
      path,
      folder: path.slice(0, path.lastIndexOf('/')),
      stem: path.slice(path.lastIndexOf('/') + 1).replace(/\.tsx?$/, ''),
    }));
    expect(fileNameBreaches(files).join('\n')).toMatch(breach);
  });
});
