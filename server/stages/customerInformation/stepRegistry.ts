// Which steps this build renders. A step of initialSteps without a module is not left out: the page logs
// it and shows the try-again banner there (customerInformationPage.tsx).
import type { StepId } from '../../../shared/contracts/brokerageContract.ts';
import type { AnyStep } from './stepModule.ts';
import { milestoneOne, milestoneTwo, milestoneThree } from './steps/milestoneSteps.tsx';
import { accountPicker } from './steps/accountPickerStep.tsx';
import { accountAlias } from './steps/accountAliasStep.tsx';
import { taxInformation } from './steps/taxInformationStep.tsx';
import { contactInformation } from './steps/contactInformationStep.tsx';
import { citizenship } from './steps/citizenshipStep.tsx';
import { residency } from './steps/residencyStep.tsx';
import { kyc } from './steps/kycStep.tsx';
import { legacyForm } from './steps/legacyFormStep.tsx';

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
