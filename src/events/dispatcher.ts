/**
 * The dispatcher: runs each event's reactions as the catalogue says
 * (src/events/catalogue.ts), from the one table of src/events/reactions.ts.
 * It knows no transport: `listen` takes anything a `BusSubscriber` can
 * subscribe to (today PostgreSQL LISTEN/NOTIFY, src/live/bus.ts).
 */
import type { BusSubscriber } from '../live/bus.js';
import type { Logger } from '../logger.js';
import { WHERE, type BusEvents, type BusEventType, type DomainEvent, type Events, type EventOf, type LocalEventType } from './catalogue.js';

export type Reaction<K extends LocalEventType> = (event: EventOf<K>) => unknown;
export type BusReaction<K extends BusEventType> = (event: BusEvents[K]) => void;

/** At least one reaction: an event nobody reacts to has no place in the catalogue. */
type SomeOf<T> = readonly [T, ...T[]];

/**
 * Every reaction, by event. Mapped over the catalogue, so a new event (or one
 * left out) fails the type check. Bus kinds may list none when the live
 * stream is their only consumer (it subscribes to the bus itself: src/live/hub.ts).
 */
export interface Reactions {
  local: { [K in LocalEventType]: SomeOf<Reaction<K>> };
  bus: { [K in BusEventType]: readonly BusReaction<K>[] };
}

export interface Dispatcher extends Events {
  /** Installs the reactions (when every service is built). */
  use(reactions: Reactions): void;
  /** The reactions installed (tests mute the bus's with it). */
  readonly reactions: Reactions;
  /** Hears the bus: its events and resyncs go to the `bus` reactions. Returns the unsubscribe function. */
  listen(bus: { subscribe(subscriber: BusSubscriber): () => void }): () => void;
}

export function createDispatcher({ logger }: { logger: Logger }): Dispatcher {
  let table: Reactions | undefined;
  const reactions = () => {
    if (!table) throw new Error('events: an event was emitted before the reactions were installed');
    return table;
  };

  const hear = <K extends BusEventType>(kind: K, event: BusEvents[K]) => {
    for (const react of reactions().bus[kind]) {
      try {
        react(event);
      } catch (err) {
        logger.error({ err, event: kind }, 'a reaction to a bus event failed');
      }
    }
  };

  return {
    use(r) {
      table = r;
    },

    get reactions() {
      return reactions();
    },

    async emit(event: DomainEvent) {
      const list = reactions().local[event.type] as readonly Reaction<LocalEventType>[];
      if (WHERE[event.type] === 'transaction') {
        // Inside the transaction: a failure rolls the change back.
        for (const react of list) await react(event as never);
        return;
      }
      for (const react of list) {
        try {
          await react(event as never);
        } catch (err) {
          logger.error({ err, event: event.type }, 'a reaction failed (the change it reacted to is committed)');
        }
      }
    },

    listen(bus) {
      return bus.subscribe({
        onEvent: (e) => hear(e.k, e as never),
        onResync: () => hear('resync', {}),
      });
    },
  };
}
