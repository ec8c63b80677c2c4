import type * as Contracts from '@ipp/contracts';

type ShellConstants = Pick<
  typeof Contracts,
  | 'LANGS'
  | 'DEFAULT_LANG'
  | 'HEADER_TOKEN'
  | 'HEADER_LANG'
  | 'ResultCode'
  | 'TOKEN_MESSAGES'
  | 'PASSWORD_MIN'
  | 'DEFAULT_SETTINGS'
>;

/** Put in by vite.config.ts (`define`) from @ipp/contracts at build time. */
declare const __CONTRACT_CONSTANTS__: ShellConstants;

/**
 * The plain constants of @ipp/contracts that the sign-in page and the shell use. Importing them from the contract
 * package itself would bring the zod schemas of the modules that define them, and zod, into the shell's bundle; the
 * values are still the contract's, copied at build time.
 */
export const { LANGS, DEFAULT_LANG, HEADER_TOKEN, HEADER_LANG, ResultCode, TOKEN_MESSAGES, PASSWORD_MIN, DEFAULT_SETTINGS } =
  __CONTRACT_CONSTANTS__;
