// Which steps this build renders. A step of initialSteps without a module is left out of the journey
// (routing filters with implementedSteps), except that a prospect with no renderable step at all is
// offered the external form.
import type { StepId } from '../../../shared/contracts/brokerage.ts';
import type { StepModule } from './stepModule.ts';
import { milestoneOne, milestoneTwo, milestoneThree } from './steps/milestones.tsx';
import { accountPicker } from './steps/accountPicker.tsx';
import { accountAlias } from './steps/accountAlias.tsx';
import { taxInformation } from './steps/taxInformation.tsx';
import { contactInformation } from './steps/contactInformation.tsx';
import { citizenship } from './steps/citizenship.tsx';
import { residency } from './steps/residency.tsx';

const modules: StepModule[] = [
  milestoneOne,
  accountPicker,
  accountAlias,
  milestoneTwo,
  contactInformation,
  citizenship,
  residency,
  taxInformation,
  milestoneThree,
];

export const stepModules: ReadonlyMap<StepId, StepModule> = new Map(modules.map((m) => [m.id, m]));

export const implementedSteps: ReadonlySet<StepId> = new Set(stepModules.keys());
