/**
 * The services' events in the webhook catalogue: imported by the functions that serve the webhook
 * resource or deliver its events (pipeline, delivery), so src/webhooks reads the catalogue without
 * importing a service. Marketplace first, then pipeline: the catalogue's order.
 */
import { registerEventCategories } from '../src/platform/events.ts';
import { MARKETPLACE_EVENT_CATEGORIES } from '../src/marketplace/events.ts';
import { PIPELINE_EVENT_CATEGORIES } from '../src/pipeline/events.ts';

registerEventCategories([...MARKETPLACE_EVENT_CATEGORIES, ...PIPELINE_EVENT_CATEGORIES]);
