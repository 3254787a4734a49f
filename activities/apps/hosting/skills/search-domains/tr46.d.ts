/**
 * Minimal types for `tr46` v5 (UTS-46 IDNA), which ships no declarations. Only the options this
 * skill uses are typed. Replace with `@types/tr46` if the project adds it.
 */
declare module 'tr46' {
  export interface Tr46Options {
    checkHyphens?: boolean;
    checkBidi?: boolean;
    checkJoiners?: boolean;
    useSTD3ASCIIRules?: boolean;
    transitionalProcessing?: boolean;
    ignoreInvalidPunycode?: boolean;
  }
  /** Returns the ASCII (punycode) form, or null when the name is invalid. */
  export function toASCII(
    domainName: string,
    options?: Tr46Options & { verifyDNSLength?: boolean },
  ): string | null;
  export function toUnicode(domainName: string, options?: Tr46Options): { domain: string; error: boolean };
}
