import { randomBytes } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

// argon2id with the library's defaults (19 MiB, t=2), the current OWASP recommendation.
// (Algorithm is an ambient const enum: Argon2id = 2.)
const OPTIONS = { algorithm: 2 as Algorithm.Argon2id };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the username does not exist, so both paths take the same time. */
let dummyHash: Promise<string> | null = null;
export function timingDummyHash(): Promise<string> {
  dummyHash ??= hashPassword('timing-equaliser-not-a-password');
  return dummyHash;
}

/** A password made up for an account (the start-up administrator, the command line): 16 URL-safe characters, 96 bits. */
export function generatePassword(): string {
  return randomBytes(12).toString('base64url');
}
