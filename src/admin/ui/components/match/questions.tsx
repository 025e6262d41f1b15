/** The in-game and Match questions issued on a match, one table per kind. */
import type { ComponentChildren } from 'preact';
import type { components } from '../../../../../generated/api-types.js';
import { Badge, ErrorBox, Table } from '../common.js';
import { Section, fmtClock, fmtWhen } from '../controls.js';
import { BrandChip, type QuestionKind } from './shared.js';

export type Issuance = components['schemas']['QuestionIssuance'];

export interface IssuanceTableProps {
  kind: QuestionKind;
  issuances: Issuance[];
}

/** Issuances of one kind: in-game questions (numbered, with the match clock) or Match questions (issued before kick-off, locking at it). */
export function IssuanceTable({ kind, issuances }: IssuanceTableProps) {
  const tone = (s: Issuance['status']) => (s === 'open' ? 'live' : s === 'resolved' ? 'good' : s === 'revoked' ? 'bad' : s === 'locked' ? 'neutral' : 'warn');
  return (
    <Table<Issuance>
      rows={issuances}
      rowKey={(i) => i.id}
      empty={kind === 'in_game' ? 'No in-game questions issued on this match.' : 'No Match questions issued on this match.'}
      columns={[
        { label: '#', class: 'num', cell: (i) => (i.is_pivotal_moment ? <Badge tone="live">pivotal</Badge> : (i.question_number ?? '-')) },
        { label: 'Status', cell: (i) => <Badge tone={tone(i.status)}>{i.status}</Badge> },
        {
          label: 'Question',
          class: 'wide-cell',
          cell: (i) => (
            <div>
              <div class="question-text">{i.question_text}</div>
              <small class="muted">
                {i.definition_name} · {i.choices.map((c) => `${c.identifier}: ${c.label}`).join(' / ')}
              </small>
            </div>
          ),
        },
        {
          label: 'Correct answer',
          cell: (i) => {
            if (!i.correct_answer_identifier) return <span class="muted">-</span>;
            const label = i.choices.find((c) => c.identifier === i.correct_answer_identifier)?.label;
            return (
              <span>
                <code>{i.correct_answer_identifier}</code>
                {label ? ` (${label})` : ''}
              </span>
            );
          },
        },
        { label: 'Points', class: 'num', cell: (i) => i.points },
        { label: 'Answers', class: 'num', cell: (i) => i.answer_count },
        {
          label: 'Sponsor',
          cell: (i) => (
            <span>
              <BrandChip brand={i.sponsor_brand} />
              {i.match_sponsor_brand ? (
                <div class="text-small">
                  <BrandChip brand={i.match_sponsor_brand} prefix="match:" />
                </div>
              ) : null}
            </span>
          ),
        },
        {
          label: 'Issued / ended',
          cell: (i) => (
            <span class="text-small">
              {i.period !== null ? `P${i.period} ${fmtClock(i.clock_seconds)} · ` : ''}
              {fmtWhen(i.issued_at)}
              <div class="muted">{i.resolved_at ? `ended ${fmtWhen(i.resolved_at)}` : `${kind === 'match' ? 'locks' : 'closes'} ${fmtWhen(i.closes_at)}`}</div>
            </span>
          ),
        },
      ]}
    />
  );
}

export interface QuestionsSectionProps {
  /** The section's anchor. */
  id: string;
  title: ComponentChildren;
  kind: QuestionKind;
  issuances: Issuance[];
  error: unknown;
}

/** A section of the match page with the questions of one kind. */
export function QuestionsSection({ id, title, kind, issuances, error }: QuestionsSectionProps) {
  return (
    <Section id={id} title={title}>
      <ErrorBox error={error} />
      <IssuanceTable kind={kind} issuances={issuances} />
    </Section>
  );
}
