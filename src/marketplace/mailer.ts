/**
 * The marketplace's mail and after-commit work. Mail is only published to the queue here (the
 * delivery function sends it); every mail has a stable key so a repeated publish is sent once.
 * `afterCommit` runs publishes through waitUntil, logging failures without the addresses' secrets.
 * Each mail names the page it is about (`link`): the text part carries its plain URL, the HTML part an
 * `<a href>` to it (mailJob), both from MARKETPLACE_URL.
 */
import type { Context } from 'hono';
import type { AppEnv, Env } from '../platform/env.ts';
import { escapeHtml } from '../platform/html.ts';
import type { MailJob } from '../platform/jobs.ts';
import { queueMail } from '../platform/mail-queue.ts';
import { notifyOutbox } from '../platform/events.ts';
import { pluralWord } from '../platform/plural.ts';
import { marketplaceConfig } from './config.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  key: string;
  /** The page the mail is about: a path under MARKETPLACE_URL (or a whole URL) and the words of its link. */
  link: { href: string; label: string };
}

export function baseUrl(env: Env): string {
  return marketplaceConfig(env).MARKETPLACE_URL;
}

export function ownerEmails(env: Env): string[] {
  return marketplaceConfig(env).OWNER_EMAILS;
}

/** The queued form of a mail: the text with the link's plain URL, and HTML with an `<a href>` to it. */
export function mailJob(env: Env, m: OutgoingMail): MailJob {
  const url = /^https?:\/\//.test(m.link.href) ? m.link.href : `${baseUrl(env)}${m.link.href}`;
  const paragraphs = m.text.split(/\n{2,}/).map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`);
  return {
    to: m.to,
    subject: m.subject,
    key: m.key,
    text: `${m.text.trimEnd()}\n\n${m.link.label}: ${url}\n`,
    html: `${paragraphs.join('')}<p><a href="${escapeHtml(url)}">${escapeHtml(m.link.label)}</a></p>`,
  };
}

export async function queueAll(env: Env, mails: readonly OutgoingMail[]): Promise<void> {
  const results = await Promise.allSettled(mails.map((m) => queueMail(env, mailJob(env, m))));
  for (const r of results)
    if (r.status === 'rejected') console.warn('marketplace: queueing a mail failed:', (r.reason as Error).message);
}

/** After the transaction committed: queue the mails and wake the webhook outbox, off the response path. */
export function afterCommit(c: Context<AppEnv>, mails: readonly OutgoingMail[] = [], events = true): void {
  c.executionCtx.waitUntil(Promise.all([queueAll(c.env, mails), events ? notifyOutbox(c.env) : Promise.resolve()]));
}

export const MAIL = {
  confirm: (to: string, link: string, token: string): OutgoingMail => ({
    to,
    key: `market-signup-${token.slice(0, 24)}`,
    subject: '[BarterOut] Confirm your e-mail address',
    text: 'Welcome to BarterOut!\n\nConfirm your address to create your account (the link expires in 24 hours).',
    link: { href: link, label: 'Confirm my address' },
  }),
  existing: (to: string, key: string): OutgoingMail => ({
    to,
    key,
    subject: '[BarterOut] You already have an account',
    text: 'Someone (perhaps you) tried to sign up to BarterOut with this address, which already has an account. Log in, or reset your password if you forgot it. If it was not you, ignore this message.',
    link: { href: '/login', label: 'Log in to BarterOut' },
  }),
  reset: (to: string, link: string, token: string): OutgoingMail => ({
    to,
    key: `market-reset-${token.slice(0, 24)}`,
    subject: '[BarterOut] Password reset',
    text: 'Someone asked to reset the password of your BarterOut account. If it was you, follow this link within an hour. If not, ignore this message.',
    link: { href: link, label: 'Choose a new password' },
  }),
  match: (to: string, requestName: string, bookName: string, key: string): OutgoingMail => ({
    to,
    key,
    subject: '[BarterOut] Match found for you',
    text: `A book matching your request "${requestName}" was just posted: "${bookName}". Log in to BarterOut to buy it before someone else does.`,
    link: { href: '/requests', label: 'See my matches' },
  }),
  purchase: (to: string, txId: string, total: string, names: string[]): OutgoingMail => ({
    to,
    key: `market-purchase-${txId}`,
    subject: '[BarterOut] Purchase Initiated',
    text: `Thanks for your purchase of ${names.map((n) => `"${n}"`).join(', ')}. You will receive a Venmo request for $${total} once we have checked the condition of the ${pluralWord(names.length, 'book')}.`,
    link: { href: '/purchases', label: 'See my purchases' },
  }),
  sold: (to: string, txId: string, sellerId: string, names: string[]): OutgoingMail => ({
    to,
    key: `market-sold-${txId}-${sellerId}`,
    subject: '[BarterOut] We found a buyer',
    text: `Good news: we found a buyer for ${names.map((n) => `"${n}"`).join(', ')}. Please bring the ${pluralWord(names.length, 'book')} to us so we can check the condition.`,
    link: { href: '/sold', label: 'See my sold books' },
  }),
  status: (to: string, bookId: string, status: number, text: string): OutgoingMail => ({
    to,
    key: `market-status-${bookId}-${status}`,
    subject: '[BarterOut] Book update',
    text,
    link: { href: '/notifications', label: 'See my notifications' },
  }),
  unlisted: (to: string, key: string, names: string[]): OutgoingMail => ({
    to,
    key,
    subject: '[BarterOut] Book Deactivation',
    text: `These books were posted more than two months ago and have been unlisted: ${names.map((n) => `"${n}"`).join(', ')}.\nLog in to relist (reactivate) them or delete them.`,
    link: { href: '/my-books', label: 'See my books' },
  }),
};
