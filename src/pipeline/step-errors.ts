/** A failure of a monitor-run step that retrying cannot fix (disabled destination, refused configuration, no source answered). */
export class PermanentStepError extends Error {}
