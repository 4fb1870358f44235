/** Predicate types of the attestations verified here (the SLSA ones are in ingest/attestations.ts). */
export const PUBLISH_V01 = 'https://github.com/npm/attestation/tree/main/specs/publish/v0.1';
