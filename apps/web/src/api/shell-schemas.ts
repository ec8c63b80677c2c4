import { LangEntrySchema } from '@ipp/contracts';

// The contract schemas of the calls the sign-in page and the shell make, in a chunk of their own with zod (loaded by
// parse-shell-data.ts while the first of these calls is in flight), so the shell's bundle carries neither.
export { LoginResultSchema, RoleTableSchema, SettingsInitSchema, UserInfoSchema } from '@ipp/contracts';
export const LangEntryListSchema = LangEntrySchema.array();
