import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../enums';
import { loginLinkMessages } from '../login-link';
import { messages } from '../messages';

export const loginRequestSchema = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(200),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const sessionUserSchema = z.object({
  id: z.number(),
  email: z.string(),
  name: z.string().nullable(),
  roleId: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  defaultTenantId: z.number().nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export interface LoginResponse {
  token: string;
  user: SessionUser;
}

/** Body of the 409 forced-reset answer. */
export interface ForcedResetData {
  resetUrl: string;
}

export const passwordResetRequestSchema = z.object({
  email: z.string().trim().min(1).max(254),
});

/** `POST api/user/request-login-link {Email}`: always answered the same (contract/login-link.ts). */
export const loginLinkRequestSchema = passwordResetRequestSchema;

/** `POST api/user/login-link {token}`: the token of the e-mailed link. */
export const loginLinkSchema = z.object({
  token: z.string().trim().min(1, loginLinkMessages.invalid).max(200, loginLinkMessages.invalid),
});

export const resetPasswordSchema = z.object({
  token: z.string().min(1).max(200),
  newPassword: z.string().min(MIN_PASSWORD_LENGTH, messages.password.tooShort).max(200),
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordSchema>;

/** The new-password form of /reset-password (spec §5). */
export const newPasswordFormSchema = z
  .object({
    newPassword: z.string().min(MIN_PASSWORD_LENGTH, messages.password.tooShort),
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: messages.password.mismatch,
    path: ['confirmPassword'],
  });
