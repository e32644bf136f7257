// personnummer 3 ships CommonJS (`module.exports = Personnummer`) with types written as an ES module
// (`export default`), so under NodeNext TypeScript would type the default import as the module object.
// This declares what Node actually hands an ES module importing it: the class itself. Only what we use.
declare module 'personnummer' {
  interface PersonnummerOptions {
    allowCoordinationNumber?: boolean;
    allowInterimNumber?: boolean;
  }
  class Personnummer {
    static valid(pin: string, options?: PersonnummerOptions): boolean;
  }
  export = Personnummer;
}
