/** The inline editor of a list page (brands, question groups) and its rows' Edit button. */
import { useState } from 'preact/hooks';

/**
 * The inline editor of a list page (brands, question groups): which row is
 * open (`'new'` for a create form), the "Saved." flash kept when a create
 * form turns into the created row's editor, and the page's notice.
 */
export function useInlineEditor() {
  const [editing, setEditing] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const close = () => {
    setCreated(null);
    setEditing(null);
  };
  return {
    editing,
    notice,
    setNotice,
    /** The open editor belongs to the row just created: it opens with "Saved.". */
    flash: created === editing,
    /** The open row of `rows`: null for a create form, undefined when none is open (or it is not listed). */
    openOf: <T extends { id: string }>(rows: T[] | undefined): T | null | undefined => (editing === 'new' ? null : (rows ?? []).find((r) => r.id === editing)),
    openNew: () => {
      setNotice(null);
      setEditing('new');
    },
    /** Opens the row's editor, or closes it when it is the open one. */
    toggle: (id: string) => {
      setNotice(null);
      setCreated(null);
      setEditing(editing === id ? null : id);
    },
    /** After a save: a created row stays open, as itself. */
    saved: (id: string) => {
      if (editing === 'new') {
        setCreated(id);
        setEditing(id);
      }
    },
    close,
    /** Closes the editor if it shows this row (a deleted one). */
    closeIf: (id: string) => {
      if (editing === id) close();
    },
  };
}

/** A row's Edit button of an inline editor; "Close" while that row is open. */
export function EditToggle({ editor, id }: { editor: ReturnType<typeof useInlineEditor>; id: string }) {
  return (
    <button type="button" class="small" onClick={() => editor.toggle(id)}>
      {editor.editing === id ? 'Close' : 'Edit'}
    </button>
  );
}
