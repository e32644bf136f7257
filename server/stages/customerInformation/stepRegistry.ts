// Which steps this build renders. A step of initialSteps without a module is not left out: the page logs
// it and shows the try-again banner there (customerInformationPage.tsx).
import type { StepId } from '../../../shared/contracts/brokerage.ts';
import type { AnyStep } from './stepModule.ts';
import { milestoneOne, milestoneTwo, milestoneThree } from './steps/milestones.tsx';
import { accountPicker } from './steps/accountPicker.tsx';
import { accountAlias } from './steps/accountAlias.tsx';
import { taxInformation } from './steps/taxInformation.tsx';
import { contactInformation } from './steps/contactInformation.tsx';
import { citizenship } from './steps/citizenship.tsx';
import { residency } from './steps/residency.tsx';
import { kyc } from './steps/kyc.tsx';
import { legacyForm } from './steps/legacyForm.tsx';

const modules: AnyStep[] = [
  milestoneOne,
  accountPicker,
  accountAlias,
  milestoneTwo,
  contactInformation,
  citizenship,
  residency,
  taxInformation,
  kyc,
  milestoneThree,
  legacyForm,
];

export const stepModules: ReadonlyMap<StepId, AnyStep> = new Map(modules.map((m) => [m.id, m]));
