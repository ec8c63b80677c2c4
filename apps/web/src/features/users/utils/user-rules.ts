import { USER_LIMITS, UserSaveBodySchema } from '@ipp/contracts';

// The field checks are the contract's own schemas, so the form and the server cannot disagree.
const shape = UserSaveBodySchema.shape;

export const { account: ACCOUNT_MAX, name: NAME_MAX, phone: PHONE_MAX, email: EMAIL_MAX } = USER_LIMITS;

export const isValidAccount = (value: string) => shape.account.safeParse(value).success;
export const isValidPhone = (value: string) => shape.phone.safeParse(value).success;
export const isValidEmail = (value: string) => shape.email.safeParse(value.trim()).success;
