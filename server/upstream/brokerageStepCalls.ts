// The brokerage's calls of the customer-information steps (customer-information §4, §7): account picker, alias, agreement
// bundles, citizenship and uploads, milestones, tax, residency and contact. Part of the brokerage client (brokerageClient.ts):
// one typed function per call, each answer parsed by the contract schema shared with sandbox/.
import type { z } from 'zod';
import {
  brokeragePaths as paths,
  okResponse,
  taxValidationRulesResponse,
  taxInfoStepRequest,
  taxInfoErrorBody,
  createCaseRequest,
  createCaseResponse,
  submitTaxResidenceRequest,
  residencyStepRequest,
  submitCitizenshipResponse,
  initFileUploadResponse,
  type SubmitCitizenshipRequest,
  type InitFileUploadRequest,
  type AccountTypeWithCountry,
  type CountryCode,
  type Milestone,
  agreementBundlesResponse,
  type AccountTypeAlias,
  contactInfoStepRequest,
  contactInfoErrorBody,
  contactRelatedDataResponse,
  type ContactInfoStepRequest,
} from '../../shared/contracts/brokerageContract.ts';
import { olderCitizenshipPath, olderCitizenshipResponse, type OlderCitizenshipRequest } from '../../shared/contracts/citizenshipContract.ts';
import { UpstreamError, type HttpClient } from './http.ts';

export function brokerageStepCalls(http: HttpClient) {
  return {
    async submitAccountPicker(jwt: string, prospectId: string, accountTypesWithCountry: AccountTypeWithCountry[]) {
      await http.json({ method: 'POST', path: paths.accountPickerStep(prospectId), bearer: jwt, body: { accountTypesWithCountry }, schema: okResponse });
    },
    async submitAccountAlias(jwt: string, prospectId: string, accountTypeAliases: AccountTypeAlias[]) {
      await http.json({ method: 'POST', path: paths.accountAliasStep(prospectId), bearer: jwt, body: { accountTypeAliases }, schema: okResponse });
    },
    /** customer-information §7 precontractual documents of one account (pdf_id is its §9 ATYID id). */
    async agreementBundles(jwt: string, query: { pdf_id: string; country: CountryCode; lang: string }) {
      return (await http.json({ method: 'GET', path: paths.agreementBundles, bearer: jwt, query, schema: agreementBundlesResponse })).data.data.documents;
    },
    /** POST submit-citizenship v3 (customer-information §7): answers data.tasks, a taskId per country. */
    async submitCitizenship(jwt: string, body: SubmitCitizenshipRequest) {
      return (await http.json({ method: 'POST', path: paths.submitCitizenshipV3, bearer: jwt, body, schema: submitCitizenshipResponse })).data.data.tasks;
    },
    /** The older submit-citizenship (customer-information §7 citizenOutsideOfTld), while FLAG_CITIZENSHIP_DEVIATIONS is off. */
    async submitOlderCitizenship(jwt: string, body: OlderCitizenshipRequest) {
      await http.json({ method: 'POST', path: olderCitizenshipPath, bearer: jwt, body, schema: olderCitizenshipResponse });
    },
    /** POST init-file-upload (customer-information §7): where to PUT the bytes, and the attachment's id. */
    async initFileUpload(jwt: string, body: InitFileUploadRequest) {
      return (await http.json({ method: 'POST', path: paths.initFileUpload, bearer: jwt, body, schema: initFileUploadResponse })).data.data;
    },
    async submitMilestone(jwt: string, prospectId: string, milestone: Milestone) {
      await http.json({ method: 'POST', path: paths.milestoneStep(prospectId, milestone), bearer: jwt, body: {}, schema: okResponse });
    },
    /** GET tax auto-validation rules (customer-information §7): per country the regex list and the placeholder. */
    async taxValidationRules(jwt: string) {
      return (await http.json({ method: 'GET', path: paths.taxValidationRules, bearer: jwt, schema: taxValidationRulesResponse })).data.data.rules;
    },
    /**
     * POST submit tax info step (v3). A refusal answers the server's invalid field names (data.invalidFields)
     * instead of throwing; other failures throw UpstreamError for the page's call wrapper.
     */
    async submitTaxInfo(
      jwt: string,
      prospectId: string,
      body: z.input<typeof taxInfoStepRequest>,
    ): Promise<{ ok: true } | { ok: false; invalidFields: string[] }> {
      try {
        await http.json({ method: 'POST', path: paths.taxInfoStepV3(prospectId), bearer: jwt, body: taxInfoStepRequest.parse(body), schema: okResponse });
        return { ok: true };
      } catch (err) {
        const refused = err instanceof UpstreamError && err.status === 400 ? taxInfoErrorBody.safeParse(err.body) : null;
        if (refused?.success) return { ok: false, invalidFields: refused.data.data.invalidFields };
        throw err;
      }
    },
    /** POST create case (customer-information §7), e.g. type RESIDENCY; answers the case's taskId. */
    async createCase(jwt: string, body: z.input<typeof createCaseRequest>) {
      return (await http.json({ method: 'POST', path: paths.createCase, bearer: jwt, body: createCaseRequest.parse(body), schema: createCaseResponse })).data
        .data.taskId;
    },
    /** POST submit tax residence (customer-information §7): the proof of tax residence uploaded to the TAX_RESIDENCE case nnxTaskId. */
    async submitTaxResidence(jwt: string, body: z.input<typeof submitTaxResidenceRequest>) {
      await http.json({ method: 'POST', path: paths.taxResidence, bearer: jwt, body: submitTaxResidenceRequest.parse(body), schema: okResponse });
    },
    /** POST submit residency step (customer-information §7). */
    async submitResidency(jwt: string, prospectId: string, body: z.input<typeof residencyStepRequest>) {
      await http.json({ method: 'POST', path: paths.residencyStep(prospectId), bearer: jwt, body: residencyStepRequest.parse(body), schema: okResponse });
    },
    /**
     * POST submit-contact-info-step (customer-information §7). A 400 naming fields (email, mobilePhoneNumber) answers them
     * instead of throwing, so the step can mark them; other failures throw for the page's call wrapper.
     */
    async submitContactInfo(jwt: string, prospectId: string, body: ContactInfoStepRequest): Promise<{ ok: true } | { ok: false; fields: string[] }> {
      try {
        await http.json({ method: 'POST', path: paths.contactInfoStep(prospectId), bearer: jwt, body: contactInfoStepRequest.parse(body), schema: okResponse });
        return { ok: true };
      } catch (err) {
        const refused = err instanceof UpstreamError && err.status === 400 ? contactInfoErrorBody.safeParse(err.body) : null;
        if (refused?.success && refused.data.data.fields.length > 0) return { ok: false, fields: refused.data.data.fields };
        throw err;
      }
    },
    /** GET related data of the contact step (customer-information §7 "related data by step name"): registered address, known contact data. */
    async contactRelatedData(jwt: string, prospectId: string) {
      const path = paths.stepRelatedData(prospectId, 'CONTACT_INFORMATION_STEP');
      return (await http.json({ method: 'GET', path, bearer: jwt, schema: contactRelatedDataResponse })).data.data.stepRelatedData;
    },
  };
}
