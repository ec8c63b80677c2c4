/**
 * The plain constants of @ipp/contracts that the sign-in page and the shell use, from the contract's zod-free entry
 * (packages/contracts/src/constants.ts): importing them from the package's main entry would bring the zod schemas of
 * the modules that define them, and zod, into the shell's bundle.
 */
export {
  DEFAULT_LANG,
  DEFAULT_SETTINGS,
  HEADER_LANG,
  HEADER_TOKEN,
  LANGS,
  PASSWORD_MIN,
  ResultCode,
  TOKEN_MESSAGES,
} from '@ipp/contracts/constants';
