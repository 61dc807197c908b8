/**
 * What the host tells its operator and carries on after: a token file it could not import (left
 * where it is, untouched, so nothing is lost) or could not rename aside once imported (it is
 * imported again, harmlessly, at the next open).
 */
export interface MemplaneHostWarning {
  /** `TOKEN_FILE_DAMAGED`: not imported and not renamed. `TOKEN_FILE_NOT_RENAMED`: imported, still in place. */
  code: 'TOKEN_FILE_DAMAGED' | 'TOKEN_FILE_NOT_RENAMED';
  /** The token file. */
  path: string;
  /** One line for the operator, naming the file and the problem; never a token. */
  message: string;
  /** The error behind it. */
  cause?: unknown;
}

/** Where a host's warnings go: `memplane serve` and `memplane-mcp` write them to standard error. */
export type MemplaneHostLog = (warning: MemplaneHostWarning) => void;
