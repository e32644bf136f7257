// Which step and screen of customer information the page would show now (customer-information.md §2.3): the answer of
// GET …/shown (server/stages/customerInformation/customerInformationPage.tsx), which a waiting screen's island asks
// until the wait is over (views/components/KycLoader.tsx). One schema for both sides.
// zod/mini, not zod: it tree-shakes, so the island bundle carries only the few checks used here.
import * as z from 'zod/mini';

export const shownScreenSchema = z.object({
  /** Null: no step left to show (the person has moved on from customer information). */
  step: z.nullable(z.string()),
  screen: z.nullable(z.string()),
});

export type ShownScreen = z.output<typeof shownScreenSchema>;
