/**
 * A warning attached to a result. Unsupported options and lossy mappings produce
 * warnings instead of errors; unsupported operations throw `UnsupportedCapabilityError`.
 */
export type MemoryWarning =
  | {
      /** An option of the request that this adapter ignores. */
      type: 'unsupported';
      /** The option, such as `metadataFilter` or `topK`. */
      feature: string;
      /** What happened instead. */
      details?: string;
    }
  | {
      /** The adapter honoured the option, but only approximately (a lossy mapping). */
      type: 'compatibility';
      /** The option or field that was mapped lossily. */
      feature: string;
      /** What was lost. */
      details?: string;
    }
  | {
      /** A record outside the requested scope came back from the provider and was dropped. */
      type: 'scope_violation';
      /** The provider record id of the dropped record. */
      providerRecordId: string;
      /** Why it was dropped. */
      details?: string;
    }
  | {
      /**
       * A handle the request named resolves to no record the caller may see: it never existed,
       * it was already forgotten, or it is not visible in the caller's company. The warning
       * never says which, so a record of another company reads exactly as a missing one.
       */
      type: 'not_found';
      /** The provider record id of the handle. */
      providerRecordId: string;
      /** What was done instead, such as "nothing was forgotten". */
      details?: string;
    }
  | {
      /** Anything else worth telling the caller. */
      type: 'other';
      /** The message. */
      message: string;
    };
