// Brokerage API wire contract of the older submit-citizenship (customer-information §7 "older variant: citizenOutsideOfTld"),
// beside brokerageContract.ts (the v3 call). Used while FLAG_CITIZENSHIP_DEVIATIONS is off: the person only says whether
// they are a citizen of another country, no countries or proof (the brokerage follows a deviation up itself). The path
// and the answer are our reading; each shape is strict, so a body of the other variant is refused.
import { z } from 'zod';

export const olderCitizenshipPath = '/api/2/onboarding/submit-citizenship';

export const olderCitizenshipRequest = z.strictObject({ prospectId: z.string().min(1), citizenOutsideOfTld: z.boolean() });
export type OlderCitizenshipRequest = z.infer<typeof olderCitizenshipRequest>;
/** Accepted: nothing to answer but that it was saved. */
export const olderCitizenshipResponse = z.object({ data: z.object({ saved: z.literal(true) }) });
