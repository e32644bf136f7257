// Continue on the DK/NO/FI identification pages: a plain form post to our server, which redirects to the
// identification broker. The script only adds the spinner while the browser loads the broker
// (identification-routing-creation §2 "spinner while loading") and stops a second click from starting a second attempt.
export { enhanceSubmitOnce as default } from '../components/submitOnce.ts';
