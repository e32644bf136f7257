// 'Sign agreements' on the legacy form's check-your-answers page (customer-information §4.9: "the data is sent and the
// button shows loading"): a plain form post that saves and redirects to signing. The script only adds the loading
// state while the three calls run and stops a second click from saving twice.
export { enhanceSubmitOnce as default } from '../components/submitOnce.ts';
