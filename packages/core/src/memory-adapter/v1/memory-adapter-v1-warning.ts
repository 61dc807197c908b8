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
      /** Anything else worth telling the caller. */
      type: 'other';
      /** The message. */
      message: string;
    };
