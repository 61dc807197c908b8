import { useState, type FormEvent } from 'react';
import { BacklinkTemplateError, backlinkKinds, backlinkSettingLabels, checkTemplate, templateLinkOrigin, type BacklinkTemplates } from '../backlinks';
import { TextField } from '../components/field';
import { useInspector } from '../context';

const examples: Record<keyof BacklinkTemplates, string> = {
  issue: 'https://paperclip.example.com/{companyId}/issues/{issueId}',
  comment: 'https://paperclip.example.com/{companyId}/issues/{issueId}#comment-{commentId}',
  document: 'https://paperclip.example.com/{companyId}/issues/{issueId}#document-{documentKey}',
  run: 'https://paperclip.example.com/{companyId}/agents/{agentId}/runs/{runId}',
  activity: 'https://paperclip.example.com/{companyId}/activity/{activityId}',
};

/** The backlink templates of this browser, so a Paperclip issue or run opens in Paperclip. */
export function SettingsPage() {
  const { templates, setTemplates } = useInspector();
  const [draft, setDraft] = useState<BacklinkTemplates>(templates);
  const [saved, setSaved] = useState(false);
  const [refused, setRefused] = useState<string | undefined>(undefined);
  const origin = window.location.origin;
  const problems = backlinkKinds.map((kind) => [kind, checkTemplate(draft[kind].trim(), origin)] as const).filter(([, problem]) => problem !== undefined);
  const hintOf = (kind: keyof BacklinkTemplates) => {
    const template = draft[kind].trim();
    const problem = checkTemplate(template, origin);
    if (problem !== undefined) return problem;
    const linksTo = templateLinkOrigin(template, origin);
    return linksTo === undefined ? `e.g. ${examples[kind]}` : `Links open on ${linksTo}`;
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (problems.length > 0) return;
    try {
      // Checked again as it is kept: a refused template names its setting, and nothing is kept.
      setTemplates(draft);
      setRefused(undefined);
      setSaved(true);
    } catch (error) {
      if (!(error instanceof BacklinkTemplateError)) throw error;
      setRefused(error.message);
    }
  };
  return (
    <form onSubmit={save} aria-label="Backlink templates" className="settings">
      <h2>Backlinks</h2>
      <p>
        Sources link back to where a memory came from. Fields in braces are filled from the source, each value percent-encoded; a link whose fields are not all
        known is not shown. A template that starts with a single / links on this server; one that starts with http:// or https:// links on the host it names,
        which no field may change. Empty templates show sources as text. Kept in this browser.
      </p>
      {backlinkKinds.map((kind) => (
        <TextField
          key={kind}
          label={backlinkSettingLabels[kind]}
          name={`template-${kind}`}
          value={draft[kind]}
          placeholder={examples[kind]}
          hint={hintOf(kind)}
          onChange={(value) => {
            setSaved(false);
            setDraft({ ...draft, [kind]: value });
          }}
        />
      ))}
      <div className="actions">
        <button type="submit" disabled={problems.length > 0}>
          Save templates
        </button>
      </div>
      {refused === undefined ? null : (
        <p role="alert" className="error">
          {refused}
        </p>
      )}
      {saved ? (
        <p role="status" className="notice">
          Saved.
        </p>
      ) : null}
    </form>
  );
}
