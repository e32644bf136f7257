// Know-your-customer simulator of the brokerage API (customer-information §3, §4.6, §7, §9): the questionnaires of a
// private person (8) and a company (9), the private person's answer sessions, the risk calculation and the KYC step
// submit, plus the read-out GET /sandbox/kyc. Mounted from the brokerage router (sandbox/brokerage.ts), which lends it
// its bearer authentication, prospect check and contract-checked answers; state in state.kyc and state.kycAnswerSessions.
// The questions, answer ids and money bands: docs/sandbox.md "KYC questionnaires".
import { randomUUID } from 'node:crypto';
import express, { type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import type { CountryCode } from '../shared/contracts/brokerageContract.ts';
import {
  answerSessionNextRequest,
  answerSessionResponse,
  answerSessionStartRequest,
  kycPaths,
  PEP_NO,
  PEP_QUESTION,
  PEP_YES,
  privateQuestionOrder,
  QUESTIONNAIRE_COMPANY,
  QUESTIONNAIRE_PERSON,
  questionnaireResponse,
  riskCalculationResponse,
  X_LOCALE_HEADER,
  type AnswerSessionPage,
  type Questionnaire,
} from '../shared/contracts/kycContract.ts';
import { isLocale, localeFromLang, supportedLocales, type Locale } from '../shared/i18n.ts';
import { formatAmount, formatRange } from '../shared/localeFormats.ts';
import type { KycAnswerSession, KycRecord, Prospect, SandboxContext, Session } from './state.ts';

// --- bands ------------------------------------------------------------------------------------------

export const MARKET_CURRENCY = { SE: 'SEK', NO: 'NOK', DK: 'DKK', FI: 'EUR' } as const satisfies Record<CountryCode, string>;

/**
 * The upper limits of the money bands per market; n limits make n + 1 bands: 0–l1, l1–l2, …, more than ln
 * (customer-information §9 shares the limits between neighbouring bands, and so do we).
 * - SE: customer-information §9, in SEK.
 * - NO, DK, FI: the spec is silent; these are round numbers in the market's own currency worth about the same,
 *   at 1 EUR ≈ 11 SEK ≈ 11.5 NOK ≈ 7.45 DKK: NOK takes SEK's numbers (1 NOK ≈ 0.96 SEK), DKK about 0.7 × SEK
 *   (1 DKK ≈ 1.47 SEK), EUR a tenth of SEK.
 */
export const MONEY_BANDS = {
  /** Monthly income before tax (question 87). */
  monthlyIncome: {
    SE: [20_000, 50_000, 100_000],
    NO: [20_000, 50_000, 100_000],
    DK: [15_000, 35_000, 70_000],
    FI: [2_000, 5_000, 10_000],
  },
  /** First transfer when opening the accounts (question 88; the company's opening transfer, 106). */
  initialTransfer: {
    SE: [10_000, 100_000, 1_000_000, 5_000_000, 8_000_000],
    NO: [10_000, 100_000, 1_000_000, 5_000_000, 8_000_000],
    DK: [7_000, 70_000, 700_000, 3_500_000, 5_500_000],
    FI: [1_000, 10_000, 100_000, 500_000, 800_000],
  },
  /** Deposits in total per year (question 90; the company's 108). */
  yearlyDepositValue: {
    SE: [50_000, 100_000, 1_000_000, 5_000_000],
    NO: [50_000, 100_000, 1_000_000, 5_000_000],
    DK: [35_000, 70_000, 700_000, 3_500_000],
    FI: [5_000, 10_000, 100_000, 500_000],
  },
  /** A company's yearly turnover (question 105). */
  companyTurnover: {
    SE: [200_000, 2_000_000, 20_000_000, 100_000_000, 500_000_000],
    NO: [200_000, 2_000_000, 20_000_000, 100_000_000, 500_000_000],
    DK: [150_000, 1_500_000, 15_000_000, 70_000_000, 350_000_000],
    FI: [20_000, 200_000, 2_000_000, 10_000_000, 50_000_000],
  },
} as const satisfies Record<string, Record<CountryCode, readonly number[]>>;

/** Upper limits of the count bands (the same everywhere): 0–10, 11–50, 51–100, more than 100 per year. */
export const COUNT_BANDS = {
  deposits: [10, 50, 100],
  withdrawals: [10, 50],
} as const;

type BandSource = { money: keyof typeof MONEY_BANDS } | { count: keyof typeof COUNT_BANDS };
type AnswerType = 'SINGLE_CHOICE' | 'MULTIPLE_CHOICE';

interface QuestionSpec {
  id: number;
  tag: string;
  type: AnswerType | 'FREE_TEXT';
  /** Fixed answers: tag → answer id, in the order shown. */
  choices?: Readonly<Record<string, number>>;
  /** Banded answers: one id per band, lowest band first. */
  band?: BandSource & { ids: readonly number[] };
}

interface BandAnswer {
  from: number;
  /** null: the top band, "more than from". */
  to: number | null;
  unit: 'money' | 'count';
}

interface AnswerSpec {
  id: number;
  tag: string;
  band?: BandAnswer;
}

const range = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);

function bandLimits(band: BandSource, market: CountryCode): readonly number[] {
  return 'money' in band ? MONEY_BANDS[band.money][market] : COUNT_BANDS[band.count];
}

function answersOf(q: QuestionSpec, market: CountryCode): AnswerSpec[] {
  if (q.choices) return Object.entries(q.choices).map(([tag, id]) => ({ id, tag }));
  if (!q.band) return [];
  const { band } = q;
  const limits = bandLimits(band, market);
  const unit = 'money' in band ? 'money' : 'count';
  const suffix = unit === 'money' ? `_${MARKET_CURRENCY[market].toLowerCase()}` : '';
  return band.ids.map((id, i) => {
    // Money bands share their limits (0–20 000, 20 000–50 000); counts are whole numbers (0–10, 11–50).
    const from = i === 0 ? 0 : limits[i - 1]! + (unit === 'count' ? 1 : 0);
    const to = limits[i] ?? null;
    const tag = to === null ? `${q.tag}_over_${limits[i - 1]}${suffix}` : `${q.tag}_${from}_${to}${suffix}`;
    return { id, tag, band: { from: to === null ? limits[i - 1]! : from, to, unit } };
  });
}

// --- questionnaire 8: the private person ------------------------------------------------------------

const PRIVATE_CHOICES = {
  occupation: { id: 83, answers: { employed: 200, self_employed: 201, student: 202, retired: 203, not_working: 204 } },
  politically_exposed_person: { id: PEP_QUESTION, answers: { pep_no: PEP_NO, pep_yes: PEP_YES } },
  purpose_of_saving: { id: 85, answers: { long_term_saving: 205, retirement: 206, saving_for_relatives: 207, short_term_trading: 208 } },
  origin_of_funds: {
    id: 86,
    multiple: true,
    answers: { salary_or_pension: 209, business_income: 210, savings_and_investments: 211, inheritance_or_gift: 212, property_sale: 213 },
  },
  ownership_of_money: { id: 91, answers: { own_money: 218, someone_elses_money: 219 } },
} as const;

const PRIVATE_BANDS = {
  monthly_income: { id: 87, money: 'monthlyIncome', ids: range(214, 4) },
  initial_transfer: { id: 88, money: 'initialTransfer', ids: range(229, 6) },
  deposit_count: { id: 89, count: 'deposits', ids: range(225, 4) },
  yearly_deposit_value: { id: 90, money: 'yearlyDepositValue', ids: range(235, 5) },
  withdrawal_count: { id: 92, count: 'withdrawals', ids: range(220, 3) },
} as const satisfies Record<string, { id: number; ids: readonly number[] } & BandSource>;

/** The question of an answer type the web app does not know (persona kycUnknownType). */
export const UNKNOWN_TYPE_QUESTION: QuestionSpec = { id: 93, tag: 'occupation_description', type: 'FREE_TEXT' };

type ChoiceTag = keyof typeof PRIVATE_CHOICES;
type BandTag = keyof typeof PRIVATE_BANDS;

const privateSpecs: QuestionSpec[] = [
  ...Object.entries(PRIVATE_CHOICES).map(([tag, q]): QuestionSpec => ({
    id: q.id,
    tag,
    type: 'multiple' in q ? 'MULTIPLE_CHOICE' : 'SINGLE_CHOICE',
    choices: q.answers,
  })),
  ...Object.entries(PRIVATE_BANDS).map(([tag, { id, ...band }]): QuestionSpec => ({ id, tag, type: 'SINGLE_CHOICE', band })),
];

/** Questionnaire 8's questions in the order asked (customer-information §9). */
export const PRIVATE_QUESTIONS: readonly QuestionSpec[] = privateQuestionOrder.map((id) => {
  const spec = privateSpecs.find((q) => q.id === id);
  if (!spec) throw new Error(`questionnaire 8: no question ${id}`);
  return spec;
});

// --- questionnaire 9: the company ---------------------------------------------------------------------

export const COMPANY_QUESTIONS: readonly QuestionSpec[] = [
  {
    id: 100,
    tag: 'industry',
    type: 'MULTIPLE_CHOICE',
    choices: {
      finance_and_insurance: 300,
      real_estate: 301,
      construction: 302,
      retail_and_wholesale: 303,
      restaurants_and_hospitality: 304,
      information_technology: 305,
      manufacturing: 306,
      professional_services: 307,
      health_and_care: 308,
      gambling: 309,
      other_industry: 310,
    },
  },
  {
    id: 101,
    tag: 'corporate_form',
    type: 'SINGLE_CHOICE',
    choices: {
      limited_company: 311,
      partnership: 312,
      economic_association: 313,
      foundation: 314,
      non_profit_association: 315,
      other_corporate_form: 316,
    },
  },
  { id: 102, tag: 'virtual_currency_use', type: 'SINGLE_CHOICE', choices: { no_virtual_currency: 317, uses_virtual_currency: 318 } },
  { id: 103, tag: 'purpose', type: 'SINGLE_CHOICE', choices: { long_term_investment: 319, surplus_liquidity: 320, active_trading: 321, other_purpose: 322 } },
  {
    id: 104,
    tag: 'origin_of_funds',
    type: 'MULTIPLE_CHOICE',
    choices: { business_profits: 323, owner_capital: 324, sale_of_assets: 325, loans: 326, other_origin: 327 },
  },
  { id: 105, tag: 'yearly_turnover', type: 'SINGLE_CHOICE', band: { money: 'companyTurnover', ids: range(328, 6) } },
  { id: 106, tag: 'opening_transfer', type: 'SINGLE_CHOICE', band: { money: 'initialTransfer', ids: range(334, 6) } },
  { id: 107, tag: 'deposit_count', type: 'SINGLE_CHOICE', band: { count: 'deposits', ids: range(340, 4) } },
  { id: 108, tag: 'yearly_deposit_value', type: 'SINGLE_CHOICE', band: { money: 'yearlyDepositValue', ids: range(344, 5) } },
  { id: 109, tag: 'ownership_of_money', type: 'SINGLE_CHOICE', choices: { company_own_money: 349, someone_elses_money: 350 } },
  { id: 110, tag: 'withdrawal_count', type: 'SINGLE_CHOICE', band: { count: 'withdrawals', ids: range(351, 3) } },
];

// Every band question has one answer id per band in every market.
for (const q of [...PRIVATE_QUESTIONS, ...COMPANY_QUESTIONS]) {
  for (const market of Object.keys(MARKET_CURRENCY) as CountryCode[]) {
    if (q.band && q.band.ids.length !== bandLimits(q.band, market).length + 1) throw new Error(`question ${q.id}: band ids do not match ${market}'s bands`);
  }
}

/** The questionnaire as GET answers it: tags only, the bands of the market. */
export function questionnaireOf(questionnaireId: number, market: CountryCode): Questionnaire {
  const questions = questionnaireId === QUESTIONNAIRE_COMPANY ? COMPANY_QUESTIONS : PRIVATE_QUESTIONS;
  return {
    questionnaire_id: questionnaireId,
    questions: questions.map((q) => ({
      question_id: q.id,
      question_tag: q.tag,
      answer_type: q.type,
      answers: answersOf(q, market).map((a) => ({ answer_id: a.id, answer_tag: a.tag })),
    })),
  };
}

/** Accept-Language → market: the first tag's region when it is one, else its language; sv (SE) by default. */
export function marketOfAcceptLanguage(header: string | undefined): CountryCode {
  const first = (header ?? '').split(',')[0]?.split(';')[0]?.trim() ?? '';
  const [language = 'sv', region = ''] = first.toLowerCase().split(/[-_]/);
  const byRegion: Record<string, CountryCode> = { se: 'SE', no: 'NO', dk: 'DK', fi: 'FI' };
  const byLanguage: Record<string, CountryCode> = { sv: 'SE', nb: 'NO', nn: 'NO', no: 'NO', da: 'DK', fi: 'FI' };
  return byRegion[region] ?? byLanguage[language] ?? 'SE';
}

// --- texts of the answer sessions -----------------------------------------------------------------------

type Lang = 'en' | 'sv' | 'nb' | 'da' | 'fi';
/** sv-FI shares sv-SE's texts (its amounts are in euro, formatted the Finland-Swedish way). */
const LANG_OF: Record<Locale, Lang> = { en: 'en', 'sv-SE': 'sv', 'sv-FI': 'sv', 'nb-NO': 'nb', 'da-DK': 'da', 'fi-FI': 'fi' };

interface QuestionTexts {
  text: string;
  help: string;
}

interface LangTexts {
  title: string;
  /** The top money band: "More than 100 000 kr". */
  moreThan: (amount: string) => string;
  /** The top count band: "More than 100" (of something countable). */
  moreThanCount: (count: string) => string;
  questions: { [K in ChoiceTag]: QuestionTexts & { options: Record<keyof (typeof PRIVATE_CHOICES)[K]['answers'], string> } } & Record<
    BandTag | 'occupation_description',
    QuestionTexts
  >;
}

export const KYC_TEXTS: Record<Lang, LangTexts> = {
  en: {
    title: 'About you and your savings',
    moreThan: (amount) => `More than ${amount}`,
    moreThanCount: (count) => `More than ${count}`,
    questions: {
      occupation: {
        text: 'What is your main occupation?',
        help: 'We ask about your occupation to understand where your money comes from, as the anti-money laundering rules require.',
        options: {
          employed: 'Employed',
          self_employed: 'Self-employed or business owner',
          student: 'Student',
          retired: 'Retired',
          not_working: 'Not working at the moment',
        },
      },
      monthly_income: {
        text: 'What is your monthly income before tax?',
        help: 'Include salary, pension and other regular income before tax.',
      },
      yearly_deposit_value: {
        text: 'How much do you expect to deposit in total per year?',
        help: 'Add up all the deposits you expect to make in a year.',
      },
      deposit_count: {
        text: 'How many deposits do you expect to make per year?',
        help: 'Count every transfer into your accounts, including monthly savings.',
      },
      initial_transfer: {
        text: 'How much do you plan to transfer when you open your accounts?',
        help: 'An estimate of your first deposit is enough.',
      },
      withdrawal_count: {
        text: 'How many withdrawals do you expect to make per year?',
        help: 'Count every transfer from your accounts to a bank account.',
      },
      purpose_of_saving: {
        text: 'What is the main purpose of your saving?',
        help: 'Knowing what you are saving for helps us understand how you will use your accounts.',
        options: {
          long_term_saving: 'Long-term saving',
          retirement: 'Saving for retirement',
          saving_for_relatives: 'Saving for children or other relatives',
          short_term_trading: 'Short-term trading',
        },
      },
      origin_of_funds: {
        text: 'Where does the money you will deposit come from?',
        help: 'We are required to know where the money you invest comes from. Choose every source that applies.',
        options: {
          salary_or_pension: 'Salary or pension',
          business_income: 'Income from my own business',
          savings_and_investments: 'Earlier savings and investments',
          inheritance_or_gift: 'Inheritance or gift',
          property_sale: 'Sale of a home or other property',
        },
      },
      politically_exposed_person: {
        text: 'Are you, or have you been in the last 18 months, a politically exposed person, or a family member or close associate of one?',
        help:
          'A politically exposed person (PEP) holds or has held an important public function, for example as head of state or government, ' +
          'minister, member of parliament, supreme court judge, ambassador, high-ranking officer in the armed forces or member of the ' +
          'management of a state-owned company. Their family members and known close associates are covered too.',
        options: { pep_no: 'No', pep_yes: 'Yes' },
      },
      ownership_of_money: {
        text: 'Whose money will you invest?',
        help: "Money that belongs to someone else, for example money you invest on another person's behalf, must be declared.",
        options: { own_money: 'My own money', someone_elses_money: "Someone else's money" },
      },
      occupation_description: {
        text: 'Describe your occupation in your own words.',
        help: 'For example your job title and the industry you work in.',
      },
    },
  },
  sv: {
    title: 'Om dig och ditt sparande',
    moreThan: (amount) => `Mer än ${amount}`,
    moreThanCount: (count) => `Fler än ${count}`,
    questions: {
      occupation: {
        text: 'Vad är din huvudsakliga sysselsättning?',
        help: 'Vi frågar om din sysselsättning för att förstå var dina pengar kommer ifrån, vilket reglerna mot penningtvätt kräver.',
        options: {
          employed: 'Anställd',
          self_employed: 'Egenföretagare eller företagsägare',
          student: 'Student',
          retired: 'Pensionär',
          not_working: 'Arbetar inte just nu',
        },
      },
      monthly_income: {
        text: 'Vad är din månadsinkomst före skatt?',
        help: 'Räkna med lön, pension och andra regelbundna inkomster före skatt.',
      },
      yearly_deposit_value: {
        text: 'Hur mycket räknar du med att sätta in totalt per år?',
        help: 'Lägg ihop alla insättningar du räknar med att göra under ett år.',
      },
      deposit_count: {
        text: 'Hur många insättningar räknar du med att göra per år?',
        help: 'Räkna med varje överföring till dina konton, även månadssparande.',
      },
      initial_transfer: {
        text: 'Hur mycket planerar du att föra över när du öppnar dina konton?',
        help: 'Det räcker med en uppskattning av din första insättning.',
      },
      withdrawal_count: {
        text: 'Hur många uttag räknar du med att göra per år?',
        help: 'Räkna med varje överföring från dina konton till ett bankkonto.',
      },
      purpose_of_saving: {
        text: 'Vad är det huvudsakliga syftet med ditt sparande?',
        help: 'När vi vet vad du sparar till förstår vi bättre hur du kommer att använda dina konton.',
        options: {
          long_term_saving: 'Långsiktigt sparande',
          retirement: 'Sparande till pensionen',
          saving_for_relatives: 'Sparande till barn eller andra närstående',
          short_term_trading: 'Kortsiktig handel',
        },
      },
      origin_of_funds: {
        text: 'Var kommer pengarna du ska sätta in ifrån?',
        help: 'Vi är skyldiga att känna till var pengarna du investerar kommer ifrån. Välj alla källor som stämmer.',
        options: {
          salary_or_pension: 'Lön eller pension',
          business_income: 'Inkomst från eget företag',
          savings_and_investments: 'Tidigare sparande och investeringar',
          inheritance_or_gift: 'Arv eller gåva',
          property_sale: 'Försäljning av bostad eller annan egendom',
        },
      },
      politically_exposed_person: {
        text: 'Är du, eller har du under de senaste 18 månaderna varit, en person i politiskt utsatt ställning, eller familjemedlem eller känd medarbetare till en sådan person?',
        help:
          'En person i politiskt utsatt ställning (PEP) har eller har haft en viktig offentlig funktion, till exempel som stats- eller ' +
          'regeringschef, minister, riksdagsledamot, domare i högsta domstolen, ambassadör, hög officer i försvarsmakten eller ledamot ' +
          'i ledningen för ett statligt ägt företag. Även familjemedlemmar och kända medarbetare till en sådan person omfattas.',
        options: { pep_no: 'Nej', pep_yes: 'Ja' },
      },
      ownership_of_money: {
        text: 'Vems pengar kommer du att investera?',
        help: 'Pengar som tillhör någon annan, till exempel pengar som du investerar för någon annans räkning, måste anges.',
        options: { own_money: 'Mina egna pengar', someone_elses_money: 'Någon annans pengar' },
      },
      occupation_description: {
        text: 'Beskriv din sysselsättning med egna ord.',
        help: 'Till exempel din yrkestitel och vilken bransch du arbetar i.',
      },
    },
  },
  nb: {
    title: 'Om deg og sparingen din',
    moreThan: (amount) => `Mer enn ${amount}`,
    moreThanCount: (count) => `Flere enn ${count}`,
    questions: {
      occupation: {
        text: 'Hva er hovedbeskjeftigelsen din?',
        help: 'Vi spør om beskjeftigelsen din for å forstå hvor pengene dine kommer fra, slik reglene mot hvitvasking krever.',
        options: {
          employed: 'Ansatt',
          self_employed: 'Selvstendig næringsdrivende eller bedriftseier',
          student: 'Student',
          retired: 'Pensjonist',
          not_working: 'Ikke i arbeid for øyeblikket',
        },
      },
      monthly_income: {
        text: 'Hva er månedsinntekten din før skatt?',
        help: 'Ta med lønn, pensjon og andre faste inntekter før skatt.',
      },
      yearly_deposit_value: {
        text: 'Hvor mye regner du med å sette inn totalt per år?',
        help: 'Legg sammen alle innskuddene du regner med å gjøre i løpet av et år.',
      },
      deposit_count: {
        text: 'Hvor mange innskudd regner du med å gjøre per år?',
        help: 'Tell med hver overføring til kontoene dine, også månedlig sparing.',
      },
      initial_transfer: {
        text: 'Hvor mye planlegger du å overføre når du åpner kontoene dine?',
        help: 'Et anslag på det første innskuddet ditt er nok.',
      },
      withdrawal_count: {
        text: 'Hvor mange uttak regner du med å gjøre per år?',
        help: 'Tell med hver overføring fra kontoene dine til en bankkonto.',
      },
      purpose_of_saving: {
        text: 'Hva er hovedformålet med sparingen din?',
        help: 'Når vi vet hva du sparer til, forstår vi bedre hvordan du kommer til å bruke kontoene dine.',
        options: {
          long_term_saving: 'Langsiktig sparing',
          retirement: 'Sparing til pensjon',
          saving_for_relatives: 'Sparing til barn eller andre nærstående',
          short_term_trading: 'Kortsiktig handel',
        },
      },
      origin_of_funds: {
        text: 'Hvor kommer pengene du skal sette inn fra?',
        help: 'Vi er pålagt å vite hvor pengene du investerer, kommer fra. Velg alle kildene som passer.',
        options: {
          salary_or_pension: 'Lønn eller pensjon',
          business_income: 'Inntekt fra egen virksomhet',
          savings_and_investments: 'Tidligere sparing og investeringer',
          inheritance_or_gift: 'Arv eller gave',
          property_sale: 'Salg av bolig eller annen eiendom',
        },
      },
      politically_exposed_person: {
        text: 'Er du, eller har du i løpet av de siste 18 månedene vært, en politisk eksponert person, eller et familiemedlem eller en kjent medarbeider av en slik person?',
        help:
          'En politisk eksponert person (PEP) har eller har hatt et viktig offentlig verv, for eksempel som stats- eller regjeringssjef, ' +
          'statsråd, stortingsrepresentant, høyesterettsdommer, ambassadør, høytstående offiser i Forsvaret eller medlem av ledelsen ' +
          'i et statlig eid selskap. Familiemedlemmer og kjente medarbeidere av en slik person omfattes også.',
        options: { pep_no: 'Nei', pep_yes: 'Ja' },
      },
      ownership_of_money: {
        text: 'Hvem sine penger skal du investere?',
        help: 'Penger som tilhører noen andre, for eksempel penger du investerer på vegne av en annen person, må oppgis.',
        options: { own_money: 'Mine egne penger', someone_elses_money: 'Noen andres penger' },
      },
      occupation_description: {
        text: 'Beskriv beskjeftigelsen din med egne ord.',
        help: 'For eksempel stillingstittelen din og hvilken bransje du jobber i.',
      },
    },
  },
  da: {
    title: 'Om dig og din opsparing',
    moreThan: (amount) => `Mere end ${amount}`,
    moreThanCount: (count) => `Flere end ${count}`,
    questions: {
      occupation: {
        text: 'Hvad er din primære beskæftigelse?',
        help: 'Vi spørger til din beskæftigelse for at forstå, hvor dine penge kommer fra, sådan som reglerne mod hvidvask kræver.',
        options: {
          employed: 'Lønmodtager',
          self_employed: 'Selvstændig erhvervsdrivende eller virksomhedsejer',
          student: 'Studerende',
          retired: 'Pensionist',
          not_working: 'Ikke i arbejde i øjeblikket',
        },
      },
      monthly_income: {
        text: 'Hvad er din månedlige indkomst før skat?',
        help: 'Medregn løn, pension og andre faste indtægter før skat.',
      },
      yearly_deposit_value: {
        text: 'Hvor meget forventer du at indbetale i alt om året?',
        help: 'Læg alle de indbetalinger sammen, som du forventer at foretage på et år.',
      },
      deposit_count: {
        text: 'Hvor mange indbetalinger forventer du at foretage om året?',
        help: 'Medregn alle overførsler til dine konti, også månedlig opsparing.',
      },
      initial_transfer: {
        text: 'Hvor meget regner du med at overføre, når du åbner dine konti?',
        help: 'Et skøn over din første indbetaling er nok.',
      },
      withdrawal_count: {
        text: 'Hvor mange hævninger forventer du at foretage om året?',
        help: 'Medregn alle overførsler fra dine konti til en bankkonto.',
      },
      purpose_of_saving: {
        text: 'Hvad er hovedformålet med din opsparing?',
        help: 'Når vi ved, hvad du sparer op til, forstår vi bedre, hvordan du vil bruge dine konti.',
        options: {
          long_term_saving: 'Langsigtet opsparing',
          retirement: 'Opsparing til pension',
          saving_for_relatives: 'Opsparing til børn eller andre nærtstående',
          short_term_trading: 'Kortsigtet handel',
        },
      },
      origin_of_funds: {
        text: 'Hvor kommer de penge, du vil indbetale, fra?',
        help: 'Vi er forpligtet til at kende oprindelsen af de penge, du investerer. Vælg alle de kilder, der passer.',
        options: {
          salary_or_pension: 'Løn eller pension',
          business_income: 'Indtægt fra egen virksomhed',
          savings_and_investments: 'Tidligere opsparing og investeringer',
          inheritance_or_gift: 'Arv eller gave',
          property_sale: 'Salg af bolig eller anden ejendom',
        },
      },
      politically_exposed_person: {
        text: 'Er du, eller har du inden for de seneste 18 måneder været, en politisk eksponeret person, eller et familiemedlem eller en nær samarbejdspartner til en sådan person?',
        help:
          'En politisk eksponeret person (PEP) har eller har haft et vigtigt offentligt hverv, for eksempel som stats- eller regeringschef, ' +
          'minister, folketingsmedlem, højesteretsdommer, ambassadør, højtstående officer i forsvaret eller medlem af ledelsen i en ' +
          'statsejet virksomhed. Familiemedlemmer og nære samarbejdspartnere til en sådan person er også omfattet.',
        options: { pep_no: 'Nej', pep_yes: 'Ja' },
      },
      ownership_of_money: {
        text: 'Hvis penge vil du investere?',
        help: 'Penge, der tilhører en anden, for eksempel penge, du investerer på vegne af en anden person, skal oplyses.',
        options: { own_money: 'Mine egne penge', someone_elses_money: 'En andens penge' },
      },
      occupation_description: {
        text: 'Beskriv din beskæftigelse med dine egne ord.',
        help: 'For eksempel din stillingsbetegnelse og den branche, du arbejder i.',
      },
    },
  },
  fi: {
    title: 'Tietoja sinusta ja säästämisestäsi',
    moreThan: (amount) => `Yli ${amount}`,
    moreThanCount: (count) => `Yli ${count}`,
    questions: {
      occupation: {
        text: 'Mikä on pääasiallinen ammattiasemasi?',
        help: 'Kysymme ammattiasemaasi, jotta ymmärrämme, mistä varasi ovat peräisin, kuten rahanpesun estämistä koskevat säännöt edellyttävät.',
        options: {
          employed: 'Palkansaaja',
          self_employed: 'Yrittäjä tai yrityksen omistaja',
          student: 'Opiskelija',
          retired: 'Eläkeläinen',
          not_working: 'En ole tällä hetkellä työelämässä',
        },
      },
      monthly_income: {
        text: 'Paljonko ovat kuukausitulosi ennen veroja?',
        help: 'Laske mukaan palkka, eläke ja muut säännölliset tulot ennen veroja.',
      },
      yearly_deposit_value: {
        text: 'Kuinka paljon arvioit tallettavasi yhteensä vuodessa?',
        help: 'Laske yhteen kaikki talletukset, jotka arvioit tekeväsi vuoden aikana.',
      },
      deposit_count: {
        text: 'Kuinka monta talletusta arvioit tekeväsi vuodessa?',
        help: 'Laske mukaan kaikki tileillesi tehtävät siirrot, myös kuukausisäästöt.',
      },
      initial_transfer: {
        text: 'Kuinka paljon aiot siirtää, kun avaat tilisi?',
        help: 'Arvio ensimmäisestä talletuksestasi riittää.',
      },
      withdrawal_count: {
        text: 'Kuinka monta nostoa arvioit tekeväsi vuodessa?',
        help: 'Laske mukaan kaikki tileiltäsi pankkitilille tehtävät siirrot.',
      },
      purpose_of_saving: {
        text: 'Mikä on säästämisesi pääasiallinen tarkoitus?',
        help: 'Kun tiedämme, mihin säästät, ymmärrämme paremmin, miten aiot käyttää tilejäsi.',
        options: {
          long_term_saving: 'Pitkäaikainen säästäminen',
          retirement: 'Eläkesäästäminen',
          saving_for_relatives: 'Säästäminen lapsille tai muille läheisille',
          short_term_trading: 'Lyhytaikainen kaupankäynti',
        },
      },
      origin_of_funds: {
        text: 'Mistä tallettamasi varat ovat peräisin?',
        help: 'Meidän on tiedettävä, mistä sijoittamasi varat ovat peräisin. Valitse kaikki lähteet, jotka pitävät paikkansa.',
        options: {
          salary_or_pension: 'Palkka tai eläke',
          business_income: 'Tulot omasta yrityksestä',
          savings_and_investments: 'Aiemmat säästöt ja sijoitukset',
          inheritance_or_gift: 'Perintö tai lahja',
          property_sale: 'Asunnon tai muun omaisuuden myynti',
        },
      },
      politically_exposed_person: {
        text: 'Oletko nyt tai oletko ollut viimeisten 18 kuukauden aikana poliittisesti vaikutusvaltainen henkilö tai tällaisen henkilön perheenjäsen tai läheinen yhtiökumppani?',
        help:
          'Poliittisesti vaikutusvaltainen henkilö (PEP) hoitaa tai on hoitanut merkittävää julkista tehtävää, esimerkiksi valtion- tai ' +
          'hallituksen päämiehenä, ministerinä, kansanedustajana, korkeimman oikeuden tuomarina, suurlähettiläänä, korkea-arvoisena ' +
          'upseerina puolustusvoimissa tai valtion omistaman yrityksen johdossa. Myös tällaisen henkilön perheenjäsenet ja tunnetut ' +
          'läheiset yhtiökumppanit kuuluvat määritelmän piiriin.',
        options: { pep_no: 'Ei', pep_yes: 'Kyllä' },
      },
      ownership_of_money: {
        text: 'Kenen varoja aiot sijoittaa?',
        help: 'Jonkun toisen varat, esimerkiksi varat, joita sijoitat toisen henkilön puolesta, on ilmoitettava.',
        options: { own_money: 'Omia varojani', someone_elses_money: 'Jonkun toisen varoja' },
      },
      occupation_description: {
        text: 'Kuvaile ammattiasi omin sanoin.',
        help: 'Esimerkiksi ammattinimikkeesi ja toimiala, jolla työskentelet.',
      },
    },
  },
};

/** x-locale → a supported locale: exactly (any case), by its language (sv follows the country), else English. */
export function sessionLocale(header: string | undefined, country: CountryCode): Locale {
  const value = (header ?? '').trim();
  if (isLocale(value)) return value;
  const exact = supportedLocales.find((l) => l.toLowerCase() === value.toLowerCase());
  if (exact) return exact;
  const language = value.split(/[-_]/)[0] ?? '';
  return (language && localeFromLang(language, country)) || 'en';
}

function bandText(texts: LangTexts, band: BandAnswer, locale: Locale, market: CountryCode): string {
  const currency = band.unit === 'count' ? null : MARKET_CURRENCY[market];
  if (band.to !== null) return formatRange(locale, band.from, band.to, currency);
  return currency === null ? texts.moreThanCount(formatAmount(locale, band.from)) : texts.moreThan(formatAmount(locale, band.from, currency));
}

function answerText(texts: LangTexts, q: QuestionSpec, a: AnswerSpec, locale: Locale, market: CountryCode): string {
  if (a.band) return bandText(texts, a.band, locale, market);
  const options = (texts.questions[q.tag as ChoiceTag] as { options?: Record<string, string> }).options;
  const text = options?.[a.tag];
  if (!text) throw new Error(`No ${locale} text for answer ${a.tag} of question ${q.tag}`);
  return text;
}

/** The page as the answer session shows it: the questions' texts in the locale, the bands of the market. */
export function pageOf(questionIds: readonly number[], hasNextPage: boolean, locale: Locale, market: CountryCode): AnswerSessionPage {
  const texts = KYC_TEXTS[LANG_OF[locale]];
  return {
    title: texts.title,
    hasNextPage,
    questions: questionIds.map((id) => {
      const q = questionSpec(id);
      const qTexts = texts.questions[q.tag as keyof LangTexts['questions']];
      return {
        id: q.id,
        text: qTexts.text,
        type: q.type,
        options: answersOf(q, market).map((a) => ({ id: a.id, text: answerText(texts, q, a, locale, market) })),
        helpText: qTexts.help,
      };
    }),
  };
}

/** A question's text and its chosen answers' texts, as its page shows them; undefined for a question we do not know. */
export function answerTextsOf(
  questionId: number,
  answerIds: readonly number[],
  locale: Locale,
  market: CountryCode,
): { question: string; answers: string[] } | undefined {
  if (!PRIVATE_QUESTIONS.some((q) => q.id === questionId)) return undefined;
  const [question] = pageOf([questionId], false, locale, market).questions;
  if (!question) return undefined;
  return { question: question.text, answers: answerIds.flatMap((id) => question.options.filter((o) => o.id === id).map((o) => o.text)) };
}

function questionSpec(id: number): QuestionSpec {
  const spec = id === UNKNOWN_TYPE_QUESTION.id ? UNKNOWN_TYPE_QUESTION : PRIVATE_QUESTIONS.find((q) => q.id === id);
  if (!spec) throw new Error(`No question ${id}`);
  return spec;
}

const isKnownType = (type: string) => type === 'SINGLE_CHOICE' || type === 'MULTIPLE_CHOICE';

/** The data.fields of a page's answers that do not fit it; empty when they do. */
export function answerProblems(questionIds: readonly number[], answers: z.infer<typeof answerSessionNextRequest>['answers']): string[] {
  const problems: string[] = [];
  const seen = new Set<number>();
  answers.forEach((answer, i) => {
    if (!questionIds.includes(answer.questionId) || seen.has(answer.questionId)) return void problems.push(`answers.${i}.questionId`);
    seen.add(answer.questionId);
    const q = questionSpec(answer.questionId);
    const ids = new Set(answersOf(q, 'SE').map((a) => a.id));
    const fits =
      new Set(answer.answerIds).size === answer.answerIds.length &&
      answer.answerIds.every((id) => ids.has(id)) &&
      (q.type !== 'SINGLE_CHOICE' || answer.answerIds.length === 1);
    if (!fits) problems.push(`answers.${i}.answerIds`);
  });
  // Every question the web app can answer must be; one of an unknown type cannot be.
  const missing = questionIds.some((id) => !seen.has(id) && isKnownType(questionSpec(id).type));
  if (missing) problems.push('answers');
  return problems;
}

// --- routes -------------------------------------------------------------------------------------------

/** What the brokerage router lends: its bearer check, prospect ownership check and contract-checked answers. */
export interface KycRouteHelpers {
  requireSession: RequestHandler;
  /** The prospect, or undefined after answering 404 (unknown) or 403 (someone else's). */
  ownedProspect(prospectId: string | undefined, res: Response): Prospect | undefined;
  parseOr400<S extends z.ZodType>(schema: S, input: unknown, res: Response): z.output<S> | undefined;
  send<S extends z.ZodType>(res: Response, schema: S, body: z.input<S>, status?: number): void;
  sendError(res: Response, status: number, message: string, fields?: string[]): void;
}

const prospectIdQuery = (query: unknown) => {
  const id = (query as { prospectId?: unknown }).prospectId;
  return typeof id === 'string' && id.length > 0 && id.length <= 100 ? id : undefined;
};

export function kycRouter(ctx: SandboxContext, helpers: KycRouteHelpers): express.Router {
  const router = express.Router();
  const { state } = ctx;
  const { requireSession, ownedProspect, parseOr400, send, sendError } = helpers;

  const recordOf = (prospect: Prospect): KycRecord => {
    let record = state.kyc.get(prospect.id);
    if (!record) {
      record = {
        startCalls: 0,
        nextCalls: 0,
        previousCalls: 0,
        riskPolls: 0,
        riskPollsSinceAnswered: 0,
        answered: false,
        submitted: false,
        answers: new Map(),
      };
      state.kyc.set(prospect.id, record);
    }
    return record;
  };
  /** The questionnaire counts as answered: all pages of a session, or the persona says it was before. */
  const answered = (prospect: Prospect, record: KycRecord) => record.answered || prospect.owner.behaviour.kycAlreadyAnswered === true;

  /** The answer session in :answerSessionId and its prospect, or undefined after a 404 (unknown, or someone else's). */
  const ownedSession = (id: unknown, res: Response): { session: KycAnswerSession; prospect: Prospect } | undefined => {
    const session = typeof id === 'string' ? state.kycAnswerSessions.get(id) : undefined;
    const prospect = session ? state.prospects.get(session.prospectId) : undefined;
    if (!session || !prospect || session.ownerNationalId !== (res.locals.session as Session).persona.nationalId) {
      sendError(res, 404, 'No such answer session');
      return undefined;
    }
    return { session, prospect };
  };

  const answerPage = (res: Response, session: KycAnswerSession, prospect: Prospect) => {
    const questions = session.pages[session.pageIndex];
    send(res, answerSessionResponse, {
      answerSessionId: session.id,
      answerSessionPage: questions ? pageOf(questions, session.pageIndex < session.pages.length - 1, session.locale as Locale, prospect.country) : null,
    });
  };

  // --- questionnaires ---

  for (const questionnaireId of [QUESTIONNAIRE_PERSON, QUESTIONNAIRE_COMPANY]) {
    router.get(kycPaths.questionnaire(questionnaireId), requireSession, (req, res) => {
      send(res, questionnaireResponse, { data: questionnaireOf(questionnaireId, marketOfAcceptLanguage(req.get('accept-language'))) });
    });
  }

  // --- answer sessions (a private person's questionnaire, one question per page) ---

  router.post(kycPaths.answerSessions, requireSession, (req, res) => {
    const body = parseOr400(answerSessionStartRequest, req.body, res);
    if (!body) return;
    const prospect = ownedProspect(body.targetCustomerId, res);
    if (!prospect) return;
    const record = recordOf(prospect);
    record.startCalls += 1;
    const behaviour = prospect.owner.behaviour;
    if (answered(prospect, record)) return sendError(res, 403, 'The questionnaire is already answered');
    const busy = behaviour.kycBusyStarts;
    if (busy === 'forever' || (busy !== undefined && record.startCalls <= busy)) return sendError(res, 409, 'The answer session is not ready yet');
    const pages = PRIVATE_QUESTIONS.map((q) => [q.id]);
    if (behaviour.kycUnknownAnswerType) pages[0]!.push(UNKNOWN_TYPE_QUESTION.id);
    const session: KycAnswerSession = {
      id: randomUUID(),
      prospectId: prospect.id,
      ownerNationalId: prospect.owner.nationalId,
      locale: sessionLocale(req.get(X_LOCALE_HEADER), prospect.country),
      pages,
      pageIndex: 0,
    };
    state.kycAnswerSessions.set(session.id, session);
    answerPage(res, session, prospect);
  });

  const SESSION_PLACEHOLDER = '__answerSessionId__';
  const sessionPattern = (build: (id: string) => string) => build(SESSION_PLACEHOLDER).replace(SESSION_PLACEHOLDER, ':answerSessionId');

  // Takes the answers of the page shown and answers the next page, or null after the last one.
  router.post(sessionPattern(kycPaths.answerSessionNext), requireSession, (req, res) => {
    const owned = ownedSession(req.params.answerSessionId, res);
    if (!owned) return;
    const { session, prospect } = owned;
    const record = recordOf(prospect);
    record.nextCalls += 1;
    const failures = prospect.owner.behaviour.kycNextFailures ?? 0;
    if (record.nextCalls <= failures) return sendError(res, 500, 'Internal error');
    const body = parseOr400(answerSessionNextRequest, req.body, res);
    if (!body) return;
    const questions = session.pages[session.pageIndex];
    if (!questions) return sendError(res, 400, 'Every page is answered already', ['answerSessionId']);
    const problems = answerProblems(questions, body.answers);
    if (problems.length) return sendError(res, 400, 'The answers do not fit the page', problems);
    for (const answer of body.answers) record.answers.set(answer.questionId, [...answer.answerIds]);
    session.pageIndex += 1;
    if (session.pageIndex === session.pages.length) {
      record.answered = true;
      record.riskPollsSinceAnswered = 0;
    }
    answerPage(res, session, prospect);
  });

  // Answers the page before the one shown (the last page after a finished session, which reopens it).
  router.post(sessionPattern(kycPaths.answerSessionPrevious), requireSession, (req, res) => {
    const owned = ownedSession(req.params.answerSessionId, res);
    if (!owned) return;
    const { session, prospect } = owned;
    const record = recordOf(prospect);
    record.previousCalls += 1;
    if (session.pageIndex === 0) return sendError(res, 400, 'The first page has no previous page', ['answerSessionId']);
    if (session.pageIndex === session.pages.length) record.answered = false;
    session.pageIndex -= 1;
    answerPage(res, session, prospect);
  });

  // --- risk calculation and the step ---

  const PROSPECT_PLACEHOLDER = '__prospectId__';
  const prospectPattern = (build: (id: string) => string) => build(PROSPECT_PLACEHOLDER).replace(PROSPECT_PLACEHOLDER, ':prospectId');

  // Done from the 2nd poll after the questionnaire was answered (never for kycRiskNeverDone).
  router.get(prospectPattern(kycPaths.riskCalculation), requireSession, (req, res) => {
    const prospect = ownedProspect(typeof req.params.prospectId === 'string' ? req.params.prospectId : undefined, res);
    if (!prospect) return;
    const record = recordOf(prospect);
    record.riskPolls += 1;
    const isAnswered = answered(prospect, record);
    if (isAnswered) record.riskPollsSinceAnswered += 1;
    const done = isAnswered && !prospect.owner.behaviour.kycRiskNeverDone && record.riskPollsSinceAnswered >= 2;
    send(res, riskCalculationResponse, { riskCalculation: { done } });
  });

  // 204 once the questionnaire is answered, 400 before; 403 (more information required) for kycMoreInformation.
  router.post(prospectPattern(kycPaths.kycStep), requireSession, (req, res) => {
    const prospect = ownedProspect(typeof req.params.prospectId === 'string' ? req.params.prospectId : undefined, res);
    if (!prospect) return;
    const record = recordOf(prospect);
    if (!answered(prospect, record)) return sendError(res, 400, 'The questionnaire is not answered');
    if (prospect.owner.behaviour.kycMoreInformationRequired) return sendError(res, 403, 'More information is required');
    record.submitted = true;
    res.status(204).end();
  });

  // Test-only read-out: the calls received for the prospect, its stored answers, and its answer sessions in the order
  // started with the page each is at (a test answers one behind the web's back, as a next whose answer was lost).
  router.get('/sandbox/kyc', (req, res) => {
    const prospectId = prospectIdQuery(req.query);
    if (!prospectId) return void res.status(400).json({ error: 'prospectId is required' });
    const prospect = state.prospects.get(prospectId);
    if (!prospect) return void res.status(404).json({ error: 'No such prospect' });
    const record = recordOf(prospect);
    res.json({
      startCalls: record.startCalls,
      nextCalls: record.nextCalls,
      previousCalls: record.previousCalls,
      riskPolls: record.riskPolls,
      submitted: record.submitted,
      answers: Object.fromEntries(record.answers),
      answerSessions: [...state.kycAnswerSessions.values()].filter((s) => s.prospectId === prospect.id).map((s) => ({ id: s.id, pageIndex: s.pageIndex })),
    });
  });

  return router;
}
