// The sandbox's KYC read-out (GET /sandbox/kyc?prospectId=, sandbox/kyc.ts): the calls the brokerage
// simulator received for a prospect and the answers it stored, for tests that count them.
import request from 'supertest';

export interface KycReadOut {
  startCalls: number;
  nextCalls: number;
  previousCalls: number;
  riskPolls: number;
  submitted: boolean;
  /** Answer ids per question id. */
  answers: Record<string, number[]>;
}

/** `sandbox`: the sandbox's URL or app. */
export async function kycReadOut(sandbox: Parameters<typeof request>[0], prospectId: string): Promise<KycReadOut> {
  return (await request(sandbox).get('/sandbox/kyc').query({ prospectId }).expect(200)).body as KycReadOut;
}
