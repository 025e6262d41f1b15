/** The match page's listeners: their progress, and the log of the one chosen (kept in the address). */
import { ErrorBox } from '../common.js';
import { Section } from '../controls.js';
import { LogViewer, ListenerTable, type MatchListener } from '../listener-views.js';
import { setQuery } from '../../router.js';

export interface ListenersSectionProps {
  listeners: MatchListener[];
  error: unknown;
  /** The id of the listener whose log is shown (the address's `log`). */
  logOf: string | null;
}

export function ListenersSection({ listeners, error, logOf }: ListenersSectionProps) {
  const logListener = listeners.find((l) => l.id === logOf);
  return (
    <Section
      id="listeners"
      title={
        <>
          Listeners <small>({listeners.length})</small>
        </>
      }
    >
      <ErrorBox error={error} />
      <ListenerTable listeners={listeners} logOf={logOf} onLog={(l) => setQuery({ log: l ?? undefined })} />
      {logListener ? <LogViewer listener={logListener} onClose={() => setQuery({ log: undefined })} /> : null}
    </Section>
  );
}
