-- Signing-secret rotation (src/webhooks/routes-secret.ts): the secret being replaced stays valid,
-- and is sent as a second `v1,` signature, until previous_secret_until; after that it is ignored
-- (and cleared by the next rotation or drop).
ALTER TABLE webhooks.webhooks ADD COLUMN previous_signing_secret_enc text;
ALTER TABLE webhooks.webhooks ADD COLUMN previous_secret_until timestamptz;
