/**
 * The event catalogue: every event this system really emits (through `emitEvent`), grouped in the
 * webhook resource's event categories. `customerData` marks categories whose objects carry
 * customer-related information (people, their e-mail, their orders): a webhook subscribed to any
 * of them must use an HTTPS `webhook_url` (the original's rule). An event supports reflow when it
 * names the typed query of its current objects (queries-reflow.ts); its payload's contract is in
 * schemas-events.ts under the same name.
 */
import { reflowBooks, reflowReports, reflowUsers, type ReflowQuery } from './queries-reflow.ts';
import type { EventName } from './schemas-events.ts';

export interface CatalogEvent {
  event_name: EventName;
  event_description: string;
  supports_reflow: boolean;
  webhook_event_oid: number;
  /** The current objects of this event, as events, for reflow. */
  reflow?: ReflowQuery;
}

export interface CatalogCategory {
  event_category: string;
  customerData: boolean;
  available_expansions: string[];
  events: CatalogEvent[];
}

export const API_VERSION = '2017-03-01';

function event(event_name: EventName, oid: number, event_description: string, reflow?: ReflowQuery): CatalogEvent {
  const supports_reflow = reflow !== undefined;
  return { event_name, event_description, supports_reflow, webhook_event_oid: oid, ...(reflow ? { reflow } : {}) };
}

export const CATALOG: CatalogCategory[] = [
  {
    event_category: 'user',
    customerData: true,
    available_expansions: [],
    events: [event('user_signup', 101, 'A user signed up to the marketplace', reflowUsers)],
  },
  {
    event_category: 'book',
    customerData: false,
    available_expansions: [],
    events: [
      event('book_posted', 201, 'A book was posted for sale', reflowBooks),
      event('book_status_changed', 202, 'A book changed status'),
      event('book_unlisted', 203, 'An old book was unlisted'),
    ],
  },
  {
    event_category: 'request',
    customerData: true,
    available_expansions: [],
    events: [
      event('book_requested', 301, 'A user requested a book'),
      event('book_matched', 302, 'A request was matched with a posted book'),
    ],
  },
  {
    event_category: 'checkout',
    customerData: true,
    available_expansions: [],
    events: [event('cart_checked_out', 401, 'A cart was checked out')],
  },
  {
    event_category: 'pipeline',
    customerData: false,
    available_expansions: [],
    events: [
      event('task_finished', 501, 'A pipeline task finished'),
      event('report_published', 502, 'A report was published', reflowReports),
    ],
  },
];

const BY_EVENT = new Map<string, { category: CatalogCategory; event: CatalogEvent }>();
for (const category of CATALOG)
  for (const event of category.events) BY_EVENT.set(event.event_name, { category, event });

export function findEvent(name: string): { category: CatalogCategory; event: CatalogEvent } | undefined {
  return BY_EVENT.get(name);
}

export function findCategory(name: string): CatalogCategory | undefined {
  return CATALOG.find((c) => c.event_category === name);
}

/** True if any subscribed event belongs to a category with customer data. */
export function carriesCustomerData(events: readonly string[]): boolean {
  return events.some((e) => BY_EVENT.get(e)?.category.customerData === true);
}
