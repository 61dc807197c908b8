// The taxonomy lives in @memplane/core/rules, shared with @memplane/engine.
export {
  approvalConfidence,
  initialStatus,
  isMemoryKind,
  kindConfidenceThresholds,
  meetsKindThreshold,
  memoryItemStatuses,
  memoryKinds,
  type MemoryItemStatus,
  type MemoryKind,
  type PiiRisk,
} from '@memplane/core/rules';
