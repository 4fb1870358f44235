/**
 * The event catalogue: every event this system really emits (through `emitEvent`), grouped in the
 * webhook resource's event categories. `customerData` marks categories whose objects carry
 * customer-related information (people, their e-mail, their orders): a webhook subscribed to any
 * of them must use an HTTPS `webhook_url` (the original's rule). `reflow` names the table whose
 * current rows a reflow re-sends (read only if it exists, see queries-reflow.ts).
 */
export interface CatalogEvent {
  event_name: string;
  event_description: string;
  supports_reflow: boolean;
  webhook_event_oid: number;
}

export interface CatalogCategory {
  event_category: string;
  customerData: boolean;
  available_expansions: string[];
  events: CatalogEvent[];
  /** Source of current objects for reflow: a table and its id column. */
  reflow?: { table: string; idColumn: string };
}

export const API_VERSION = '2017-03-01';

export const CATALOG: CatalogCategory[] = [
  {
    event_category: 'user',
    customerData: true,
    available_expansions: [],
    reflow: { table: 'market.users', idColumn: 'id' },
    events: [{ event_name: 'user_signup', event_description: 'A user signed up to the marketplace', supports_reflow: true, webhook_event_oid: 101 }],
  },
  {
    event_category: 'book',
    customerData: false,
    available_expansions: [],
    reflow: { table: 'market.books', idColumn: 'id' },
    events: [
      { event_name: 'book_posted', event_description: 'A book was posted for sale', supports_reflow: true, webhook_event_oid: 201 },
      { event_name: 'book_status_changed', event_description: 'A book changed status', supports_reflow: false, webhook_event_oid: 202 },
      { event_name: 'book_unlisted', event_description: 'An old book was unlisted', supports_reflow: false, webhook_event_oid: 203 },
    ],
  },
  {
    event_category: 'request',
    customerData: true,
    available_expansions: [],
    events: [
      { event_name: 'book_requested', event_description: 'A user requested a book', supports_reflow: false, webhook_event_oid: 301 },
      { event_name: 'book_matched', event_description: 'A request was matched with a posted book', supports_reflow: false, webhook_event_oid: 302 },
    ],
  },
  {
    event_category: 'checkout',
    customerData: true,
    available_expansions: [],
    events: [{ event_name: 'cart_checked_out', event_description: 'A cart was checked out', supports_reflow: false, webhook_event_oid: 401 }],
  },
  {
    event_category: 'pipeline',
    customerData: false,
    available_expansions: [],
    reflow: { table: 'pipeline.reports', idColumn: 'id' },
    events: [
      { event_name: 'task_finished', event_description: 'A pipeline task finished', supports_reflow: false, webhook_event_oid: 501 },
      { event_name: 'report_published', event_description: 'A report was published', supports_reflow: true, webhook_event_oid: 502 },
    ],
  },
];

const BY_EVENT = new Map<string, { category: CatalogCategory; event: CatalogEvent }>();
for (const category of CATALOG) for (const event of category.events) BY_EVENT.set(event.event_name, { category, event });

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
