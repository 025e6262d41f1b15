/** The match page's event timeline. */
import { ErrorBox, Loading, type AsyncState } from '../common.js';
import { Section } from '../controls.js';
import { EventTimelineChart } from '../timeline.js';
import type { EventTimeline } from '../timeline/scales.js';

export interface TimelineSectionProps {
  timeline: AsyncState<EventTimeline>;
  /** The match is live or a listener runs: the chart follows the latest events. */
  live: boolean;
}

export function TimelineSection({ timeline, live }: TimelineSectionProps) {
  return (
    <Section id="timeline" title="Event timeline">
      <ErrorBox error={timeline.error} />
      <Loading when={timeline.loading && !timeline.data} />
      {timeline.data ? <EventTimelineChart timeline={timeline.data} live={live} /> : null}
    </Section>
  );
}
