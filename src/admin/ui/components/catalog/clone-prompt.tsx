/** The clone prompt of a catalog item. */
import { useState } from 'preact/hooks';
import { Field, TextInput } from '../common.js';

/** An inline "name of the copy" prompt for cloning; a blank name takes the API's default. */
export function ClonePrompt({
  original,
  onClone,
  onCancel,
  busy,
}: {
  original: string;
  onClone: (name: string | undefined) => void;
  onCancel: () => void;
  busy: boolean;
}) {
  const [name, setName] = useState('');
  return (
    <form
      class="card clone-prompt"
      aria-label={`Clone ${original}`}
      onSubmit={(e) => {
        e.preventDefault();
        onClone(name.trim() ? name : undefined);
      }}
    >
      <Field label={`Name of the copy of "${original}"`} hint="Leave blank for the default name: the original name followed by (copy).">
        <TextInput value={name} onValue={setName} placeholder={`${original} (copy)`} maxLength={200} />
      </Field>
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Cloning...' : 'Clone'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
