// `npm start`: the whole product on one machine. Starts the upstream sandbox, then the web and worker
// roles in this process (in-memory stand-ins unless REDIS_URL is set), pointed at the sandbox.
import { keepDaysOption } from './keptProspects.ts';
import { startSandbox } from './main.ts';
import { runProcess } from '../server/main.ts';
import { devServerLinks } from './devLinks.ts';

const sandboxPort = Number(process.env.SANDBOX_PORT ?? 3001);
const sandbox = await startSandbox({
  port: sandboxPort,
  // The web's signing order lifetime, so the signing page expires its orders as the web expects.
  ...(process.env.SIGNING_ORDER_LIFETIME_MS ? { signingLifetimeMs: Number(process.env.SIGNING_ORDER_LIFETIME_MS) } : {}),
  ...keepDaysOption(process.env),
});
const env = { ...devServerLinks(sandbox.url), ...process.env };
const running = await runProcess('all', env);
console.log(`Onboarding is running at ${running.url}/onboarding`);
console.log(`Test BankID app (stands in for the phone): ${sandbox.url}/sandbox/bankid/app`);
console.log(`Personas: ${sandbox.url}/sandbox/personas`);
process.once('exit', () => void sandbox.close());
