/**
 * Mail through an HTTP mail API (Resend-compatible): `POST {MAIL_API_URL}/emails` with
 * `{from, to, subject, text, html}` and `Authorization: Bearer {MAIL_API_KEY}`. Called only from the
 * delivery function; a non-2xx answer throws so the queue retries. `Idempotency-Key` lets the API
 * drop a repeat of the same message.
 */
import { mailConfig } from './config/shared.ts';
import type { Env } from './env.ts';
import { escapeHtml } from './html.ts';

export interface Mail {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  from?: string;
}

export class MailError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'MailError';
    this.status = status;
  }
}

export async function sendMail(
  env: Pick<Env, 'MAIL_API_URL' | 'MAIL_API_KEY' | 'MAIL_FROM'>,
  mail: Mail,
  idempotencyKey?: string,
): Promise<{ id: string }> {
  const cfg = mailConfig(env);
  const res = await fetch(`${cfg.MAIL_API_URL}/emails`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${cfg.MAIL_API_KEY}`,
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: JSON.stringify({
      from: mail.from ?? cfg.MAIL_FROM,
      to: Array.isArray(mail.to) ? mail.to : [mail.to],
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? textToHtml(mail.text),
    }),
  });
  const body = await res.text();
  if (!res.ok) throw new MailError(res.status, `mail API answered ${res.status}: ${body.slice(0, 200)}`);
  try {
    return { id: String((JSON.parse(body) as { id?: unknown }).id ?? '') };
  } catch {
    return { id: '' };
  }
}

export function textToHtml(text: string): string {
  return `<p>${escapeHtml(text)
    .replace(/\n{2,}/g, '</p><p>')
    .replace(/\n/g, '<br>')}</p>`;
}
