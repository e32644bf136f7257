// The sandbox's know-your-customer upstream (sandbox/kyc.ts) as its tests drive it (tests/http/kycSandbox*.test.ts,
// kycClientPersonas.test.ts): a fresh prospect, the questionnaire, careful answers, and the read-out
// (GET /sandbox/kyc?prospectId=): the calls the brokerage simulator received for a prospect, the answers it
// stored and its answer sessions, for tests that count them.
import request from 'supertest';
import { brokeragePaths, createProspectResponse, refreshTokenResponse, type CountryCode } from '../../shared/contracts/brokerageContract.ts';
import {
  kycPaths,
  PEP_NO,
  PEP_QUESTION,
  questionnaireResponse,
  type AnswerSessionAnswers,
  type AnswerSessionPage,
  type Questionnaire,
} from '../../shared/contracts/kycContract.ts';
import { bearer, personaFor, type Target } from './sandboxApi.ts';

export interface KycReadOut {
  startCalls: number;
  nextCalls: number;
  previousCalls: number;
  riskPolls: number;
  submitted: boolean;
  /** Answer ids per question id. */
  answers: Record<string, number[]>;
  /** The prospect's answer sessions in the order started, each with the index of the page it is at. */
  answerSessions: Array<{ id: string; pageIndex: number }>;
}

/** `sandbox`: the sandbox's URL or app. */
export async function kycReadOut(sandbox: Parameters<typeof request>[0], prospectId: string): Promise<KycReadOut> {
  return (await request(sandbox).get('/sandbox/kyc').query({ prospectId }).expect(200)).body as KycReadOut;
}

/** A brokerage session (sandbox shortcut) and a fresh v3 prospect of the scenario's persona. */
export async function prospectOf(app: Target, scenario: string, country: CountryCode = 'SE'): Promise<{ jwt: string; prospectId: string }> {
  const persona = await personaFor(app, scenario, country);
  const session = await request(app).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
  const refreshed = await request(app).post(brokeragePaths.refreshToken).send({ refreshToken: session.body.refreshToken }).expect(200);
  const { jwt } = refreshTokenResponse.parse(refreshed.body);
  await request(app).put(brokeragePaths.becomeCustomerIntent).set(bearer(jwt)).send({ customerType: 'PRIVATE', country }).expect(204);
  await request(app).post(brokeragePaths.validationStepV3).set(bearer(jwt)).send({ country }).expect(200);
  const created = await request(app).post(brokeragePaths.prospectsV3).set(bearer(jwt)).send({ country, customerType: 'PRIVATE' }).expect(200);
  return { jwt, prospectId: createProspectResponse.parse(created.body).prospect_id };
}

export async function getQuestionnaire(app: Target, jwt: string, id: number, acceptLanguage?: string): Promise<Questionnaire> {
  const req = request(app).get(kycPaths.questionnaire(id)).set(bearer(jwt));
  if (acceptLanguage) void req.set('Accept-Language', acceptLanguage);
  return questionnaireResponse.parse((await req.expect(200)).body).data;
}

/** Answers a page as a careful prospect would: the first option of every known question, no to PEP. */
export function answersFor(page: AnswerSessionPage): AnswerSessionAnswers {
  return page.questions
    .filter((q) => q.type === 'SINGLE_CHOICE' || q.type === 'MULTIPLE_CHOICE')
    .map((q) => ({ questionId: q.id, answerIds: [q.id === PEP_QUESTION ? PEP_NO : q.options[0]!.id] }));
}
