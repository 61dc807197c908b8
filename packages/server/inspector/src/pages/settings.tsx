import { useState, type FormEvent } from 'react';
import { backlinkKinds, checkTemplate, type BacklinkTemplates } from '../backlinks';
import { TextField } from '../components/field';
import { useInspector } from '../context';

const labels: Record<keyof BacklinkTemplates, string> = {
  issue: 'Issue link template',
  comment: 'Comment link template',
  document: 'Document link template',
  run: 'Run link template',
  activity: 'Activity link template',
};
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
  const problems = backlinkKinds.map((kind) => [kind, checkTemplate(draft[kind].trim())] as const).filter(([, problem]) => problem !== undefined);
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (problems.length > 0) return;
    setTemplates(Object.fromEntries(backlinkKinds.map((kind) => [kind, draft[kind].trim()])) as unknown as BacklinkTemplates);
    setSaved(true);
  };
  return (
    <form onSubmit={save} aria-label="Backlink templates" className="settings">
      <h2>Backlinks</h2>
      <p>
        Sources link back to where a memory came from. Fields in braces are filled from the source, each value percent-encoded; a link whose fields are not all
        known is not shown. Empty templates show sources as text. Kept in this browser.
      </p>
      {backlinkKinds.map((kind) => (
        <TextField
          key={kind}
          label={labels[kind]}
          name={`template-${kind}`}
          value={draft[kind]}
          placeholder={examples[kind]}
          hint={checkTemplate(draft[kind].trim()) ?? `e.g. ${examples[kind]}`}
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
      {saved ? (
        <p role="status" className="notice">
          Saved.
        </p>
      ) : null}
    </form>
  );
}
