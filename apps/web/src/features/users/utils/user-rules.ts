import { UserSaveBodySchema } from '@ipp/contracts';

// The field checks are the contract's own schemas, so the form and the server cannot disagree.
const shape = UserSaveBodySchema.shape;

export const ACCOUNT_MAX = 64;
export const NAME_MAX = 64;
export const PHONE_MAX = 32;
export const EMAIL_MAX = 128;

export const isValidAccount = (value: string) => shape.account.safeParse(value).success;
export const isValidPhone = (value: string) => shape.phone.safeParse(value).success;
export const isValidEmail = (value: string) => shape.email.safeParse(value.trim()).success;
