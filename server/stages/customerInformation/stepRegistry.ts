// Which steps this build renders. A step of initialSteps without a module is left out of the journey
// (routing filters with implementedSteps), except that a prospect with no renderable step at all is
// offered the external form.
import type { StepId } from '../../../shared/contracts/brokerage.ts';
import type { StepModule } from './stepModule.ts';
import { milestoneOne, milestoneThree } from './steps/milestones.tsx';
import { accountPicker } from './steps/accountPicker.tsx';

// milestoneTwo (steps/milestones.tsx) joins with the steps around it (alias, contact, …).
const modules: StepModule[] = [milestoneOne, accountPicker, milestoneThree];

export const stepModules: ReadonlyMap<StepId, StepModule> = new Map(modules.map((m) => [m.id, m]));

export const implementedSteps: ReadonlySet<StepId> = new Set(stepModules.keys());
