/** Registration command builder: read a token, validate options, build the command. Pure TypeScript. */
export * from './types';
export { ROLE_ORDER } from '../engine';
export type {
  MessageArgs, Role, Role as NodeRole
} from '../engine';
export {
  quotePosix, quotePowerShell, hasControlCharacter
} from '../engine/shell-quote';
export {
  readRegistrationToken, isTokenError, normaliseServerUrl, splitCommandWords,
  TOKEN_ERROR_KEY_PREFIX, TOKEN_ERROR_CODES, TOKEN_PLACEHOLDER, DEFAULT_TOKEN_NAME
} from './token';
export type { ReadTokenOptions, TokenErrorCode } from './token';
export {
  validateRegistrationOptions, hasErrors, effectiveNodeName, VALIDATION_KEY_PREFIX, VALIDATION_CODES
} from './validate';
export type { ValidationCode } from './validate';
export {
  buildRegistrationCommand, maskUrlPassword, TOKEN_MASK, LINUX_INSTALL_PATH, WINDOWS_INSTALL_PATH
} from './build';
export { prefillFromMachine } from './prefill';
export type { PrefillInput } from './prefill';
