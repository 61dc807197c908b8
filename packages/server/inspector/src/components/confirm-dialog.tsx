import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';

interface Question {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  resolve: (confirmed: boolean) => void;
}

/**
 * Asks before a change: a modal `<dialog>` (focus moves into it, Escape cancels, the page
 * behind is inert). `ask` resolves true only on the confirm button.
 */
export function useConfirm(): [ReactNode, (title: string, body: ReactNode, confirmLabel: string) => Promise<boolean>] {
  const [question, setQuestion] = useState<Question | undefined>(undefined);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (question !== undefined && element !== null && !element.open) element.showModal();
  }, [question]);

  const ask = useCallback(
    (title: string, body: ReactNode, confirmLabel: string) => new Promise<boolean>((resolve) => setQuestion({ title, body, confirmLabel, resolve })),
    [],
  );
  const answer = (confirmed: boolean) => {
    question?.resolve(confirmed);
    dialog.current?.close();
    setQuestion(undefined);
  };

  const element =
    question === undefined ? null : (
      <dialog ref={dialog} className="confirm" aria-labelledby="confirm-title" onCancel={() => answer(false)}>
        <h2 id="confirm-title">{question.title}</h2>
        <div className="confirm-body">{question.body}</div>
        <div className="actions">
          <button type="button" onClick={() => answer(false)} autoFocus>
            Cancel
          </button>
          <button type="button" className="danger" onClick={() => answer(true)}>
            {question.confirmLabel}
          </button>
        </div>
      </dialog>
    );
  return [element, ask];
}
