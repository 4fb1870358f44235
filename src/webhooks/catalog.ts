/**
 * The event catalogue as the webhook resource shows it: every event the services declared (through
 * src/platform/events.ts; functions/event-catalog.ts registers them), grouped in the resource's event
 * categories. A webhook subscribed to any category with `customerData` must use an HTTPS `webhook_url`
 * (the original's rule). An event supports reflow when its service gave the query of its current
 * objects.
 */
import { registeredEventCategories, type EventCategoryDeclaration, type ReflowQuery } from '../platform/events.ts';

export interface CatalogEvent {
  event_name: string;
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

function categoryOf(d: EventCategoryDeclaration): CatalogCategory {
  return {
    event_category: d.event_category,
    customerData: d.customerData,
    available_expansions: d.available_expansions,
    events: d.events.map((e) => ({
      event_name: e.event_name,
      event_description: e.event_description,
      supports_reflow: e.reflow !== undefined,
      webhook_event_oid: e.webhook_event_oid,
      ...(e.reflow ? { reflow: e.reflow } : {}),
    })),
  };
}

let built: { from: readonly EventCategoryDeclaration[]; catalog: CatalogCategory[] } | undefined;

/** The catalogue of the categories registered so far, in registration order. */
export function catalog(): CatalogCategory[] {
  const from = registeredEventCategories();
  if (!built || built.from.length !== from.length || built.from.some((c, i) => c !== from[i]))
    built = { from, catalog: from.map(categoryOf) };
  return built.catalog;
}

export function findEvent(name: string): { category: CatalogCategory; event: CatalogEvent } | undefined {
  for (const category of catalog()) {
    const event = category.events.find((e) => e.event_name === name);
    if (event) return { category, event };
  }
  return undefined;
}

export function findCategory(name: string): CatalogCategory | undefined {
  return catalog().find((c) => c.event_category === name);
}

/** True if any subscribed event belongs to a category with customer data. */
export function carriesCustomerData(events: readonly string[]): boolean {
  return events.some((e) => findEvent(e)?.category.customerData === true);
}
