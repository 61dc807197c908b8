import { useState, type FormEvent } from 'react';
import { endpoints } from '../api/endpoints';
import { useConfirm } from '../components/confirm-dialog';
import { ErrorBanner } from '../components/error-banner';
import { SelectField, TextField } from '../components/field';
import { useInspector } from '../context';

const kinds = ['subscription', 'storage', 'platform_fee', 'invoice', 'credit', 'other'];

/** Books a flat cost (a subscription, an invoice, a credit) as a finance event, after a confirmation. */
export function FinanceEventForm({ bindingKeys, onBooked }: { bindingKeys: string[]; onBooked: () => void }) {
  const { api, companyId } = useInspector();
  const [kind, setKind] = useState('subscription');
  const [biller, setBiller] = useState('');
  const [amount, setAmount] = useState('');
  const [direction, setDirection] = useState<'debit' | 'credit'>('debit');
  const [bindingKey, setBindingKey] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [dialog, confirm] = useConfirm();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setNotice(undefined);
    // Dollars and cents as typed; the service keeps whole cents.
    const cents = Math.round(Number(amount) * 100);
    if (!Number.isFinite(cents) || cents <= 0) {
      setError(new TypeError('Amount: a positive number of dollars, such as 19.00'));
      return;
    }
    const text = `${direction === 'credit' ? 'A credit' : 'A cost'} of $${(cents / 100).toFixed(2)} from ${biller} is booked in ${companyId}.`;
    if (!(await confirm('Book this finance event?', text, 'Book'))) return;
    try {
      await endpoints(api, companyId).recordFinanceEvent({
        kind,
        biller,
        amountCents: cents,
        direction,
        ...(bindingKey === '' ? {} : { bindingKey }),
        ...(description.trim() === '' ? {} : { description: description.trim() }),
      });
      setNotice('Booked.');
      setAmount('');
      setDescription('');
      onBooked();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <details className="panel">
      <summary>Book a flat cost</summary>
      {dialog}
      <form className="form-grid" onSubmit={submit} aria-label="Book a flat cost">
        <SelectField label="Kind" name="kind" value={kind} onChange={setKind} options={kinds} />
        <TextField label="Biller" name="biller" value={biller} onChange={setBiller} required />
        <TextField label="Amount (US dollars)" name="amount" type="number" value={amount} onChange={setAmount} required />
        <SelectField label="Direction" name="direction" value={direction} onChange={(value) => setDirection(value === 'credit' ? 'credit' : 'debit')} options={['debit', 'credit']} />
        <SelectField label="Binding" name="bindingKey" value={bindingKey} onChange={setBindingKey} options={bindingKeys} empty="none" />
        <TextField label="Description" name="description" value={description} onChange={setDescription} />
        <div className="actions">
          <button type="submit">Book</button>
        </div>
      </form>
      {notice === undefined ? null : (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <ErrorBanner error={error} />
    </details>
  );
}
