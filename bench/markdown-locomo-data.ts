import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One dialog turn, as the benchmark writes it. */
export interface LocomoTurn {
  diaId: string;
  text: string;
  speaker: string;
  sessionDate: string;
}

/** One question with its normalised evidence. */
export interface LocomoQuestion {
  question: string;
  category: number;
  evidence: string[];
}

/** One conversation: one scope. */
export interface LocomoConversation {
  sampleId: string;
  turns: LocomoTurn[];
  questions: LocomoQuestion[];
}

/** The data, plus what normalisation changed. */
export interface LocomoData {
  path: string;
  conversations: LocomoConversation[];
  normalisations: string[];
}

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The LoCoMo path: `MEMPLANE_LOCOMO_PATH`, or the dev half beside the repository. The data (CC BY-NC) is never copied into the repo. */
export function locomoPath(): string {
  return process.env.MEMPLANE_LOCOMO_PATH ?? resolve(repositoryRoot, '../shared/bench/locomo/locomo10-dev.json');
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

/**
 * Loads LoCoMo. Turn text is `speaker + ": " + text` plus ` [image: caption]`, as the dataset README
 * says. Evidence is normalised: packed ids are split (`D8:6; D9:17`), zero-padded turns are unpadded
 * (`D30:05`), and ids that name no turn are dropped; questions left with no evidence are skipped.
 * Every change is listed in `normalisations`.
 */
export function loadLocomo(path = locomoPath()): LocomoData | undefined {
  if (!existsSync(path)) return undefined;
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Array<{ sample_id: string; conversation: Record<string, unknown>; qa: Array<{ question: string; category: number; evidence: string[] }> }>;
  const normalisations: string[] = [];
  const conversations = raw.map((entry) => {
    const turns: LocomoTurn[] = [];
    for (let session = 1; Array.isArray(entry.conversation[`session_${session}`]); session += 1) {
      const sessionDate = String(entry.conversation[`session_${session}_date_time`] ?? '');
      for (const turn of entry.conversation[`session_${session}`] as RawTurn[]) {
        const text = `${turn.speaker}: ${turn.text}${turn.blip_caption === undefined ? '' : ` [image: ${turn.blip_caption}]`}`;
        turns.push({ diaId: turn.dia_id, text, speaker: turn.speaker, sessionDate });
      }
    }
    const known = new Set(turns.map((turn) => turn.diaId));
    const questions: LocomoQuestion[] = [];
    for (const qa of entry.qa) {
      const evidence: string[] = [];
      for (const original of qa.evidence) {
        const parts = original.split(/[;,\s]+/).filter((part) => part !== '');
        for (const part of parts) {
          const unpadded = part.replace(/:0+(\d)/, ':$1');
          if (parts.length > 1 || unpadded !== original) normalisations.push(`${entry.sample_id}: evidence ${JSON.stringify(original)} -> ${JSON.stringify(unpadded)}`);
          if (known.has(unpadded)) evidence.push(unpadded);
          else normalisations.push(`${entry.sample_id}: evidence ${JSON.stringify(part)} names no turn; dropped`);
        }
      }
      if (evidence.length === 0) {
        normalisations.push(`${entry.sample_id}: question skipped, no valid evidence: ${JSON.stringify(qa.question)}`);
        continue;
      }
      questions.push({ question: qa.question, category: qa.category, evidence: [...new Set(evidence)] });
    }
    return { sampleId: entry.sample_id, turns, questions };
  });
  return { path, conversations, normalisations };
}
