"""Drives UltraCart's official Python SDK (ultracart-rest-sdk, WebhookApi) against a base URL, unchanged.

Usage: python ultracart_webhook_api.py <base url> <simple key> <phase> <state.json>
  phase "create": insert_webhook (with placeholders=True), get_webhooks (True and False), update_webhook,
                  get_webhook_log_summaries, resend_event; writes the webhook oid to state.json
  phase "read":   get_webhook_log (of the log the test wrote), delete_webhook, delete_webhook_by_url
Prints one JSON line per operation: {"op", "ok", "detail"}; exits 1 if any operation failed. The SDK
deserialises every answer into its (non-nullable) models, so a wrong type or a null member fails here.
"""
import json
import sys

from ultracart.api.webhook_api import WebhookApi
from ultracart.api_client import ApiClient
from ultracart.configuration import Configuration
from ultracart.exceptions import ApiException
from ultracart.model.webhook import Webhook
from ultracart.model.webhook_event_category import WebhookEventCategory

base, key, phase, state_file = sys.argv[1:5]
config = Configuration(host=f"{base}/rest/v2", api_key={"ultraCartSimpleApiKey": key})
client = ApiClient(configuration=config, header_name="X-UltraCart-Api-Version", header_value="2017-03-01")
api = WebhookApi(client)
failed = False


def op(name, fn):
    global failed
    try:
        detail = fn()
        print(json.dumps({"op": name, "ok": True, "detail": detail}), flush=True)
        return detail
    except ApiException as e:
        failed = True
        print(json.dumps({"op": name, "ok": False, "detail": f"ApiException {e.status}: {str(e.body)[:300]}"}), flush=True)
    except Exception as e:  # the SDK's model validation (type errors, nulls) lands here
        failed = True
        print(json.dumps({"op": name, "ok": False, "detail": f"{type(e).__name__}: {str(e)[:300]}"}), flush=True)


def state():
    with open(state_file) as f:
        return json.load(f)


if phase == "create":
    hook = Webhook(
        webhook_url="https://hooks.example.com/sdk",
        authentication_type="none",
        api_version="2017-03-01",
        maximum_events=10,
        maximum_size=900000,
        compress_events=False,
        event_categories=[WebhookEventCategory(event_category="book", subscribed=True)],
    )
    created = op("insert_webhook", lambda: api.insert_webhook(hook, placeholders=True).webhook.to_dict())
    oid = created["webhook_oid"] if created else 0
    with open(state_file, "w") as f:
        json.dump({"oid": oid}, f)
    op("get_webhooks(placeholders=True)", lambda: [w.webhook_oid for w in api.get_webhooks(placeholders=True).webhooks])
    op("get_webhooks(placeholders=False, limit=5)", lambda: api.get_webhooks(limit=5, offset=0, placeholders=False).metadata.result_set.to_dict())

    def update():
        current = api.get_webhooks(placeholders=False).webhooks
        w = next(x for x in current if x.webhook_oid == oid)
        w.maximum_events = 25
        return api.update_webhook(oid, w, placeholders=False).webhook.maximum_events

    op("update_webhook", update)
    op("get_webhook_log_summaries", lambda: [s.to_dict() for s in api.get_webhook_log_summaries(oid, limit=10, offset=0).webhook_log_summaries])
    op("resend_event", lambda: api.resend_event(oid, "book_posted").reflow.to_dict())
elif phase == "read":
    s = state()
    oid, request_id = s["oid"], s["request_id"]
    op("get_webhook_log", lambda: api.get_webhook_log(oid, request_id).webhook_log.to_dict())
    op("delete_webhook", lambda: api.delete_webhook(oid) or "deleted")
    other = api.insert_webhook(Webhook(webhook_url="https://hooks.example.com/by-url", event_categories=[WebhookEventCategory(event_category="book", subscribed=True)])).webhook
    op("delete_webhook_by_url", lambda: api.delete_webhook_by_url(Webhook(webhook_url=other.webhook_url)).webhook.webhook_url)
sys.exit(1 if failed else 0)
