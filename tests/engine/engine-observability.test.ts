/**
 * The engine seen from operations: a feed event is a span whose descendants
 * are the issuance's delivery, and denials are counted by gate in the
 * metrics. A real listener run (feed on loopback, in-process worker).
 */
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../src/observability/metrics.js';
import { initTracing, stopTracing } from '../../src/observability/tracing.js';
import { cleanup, define, ev, runFeed, startHarness, type Harness } from './engine-scenario.js';

const exporter = new InMemorySpanExporter();
let h: Harness;
beforeAll(async () => {
  await initTracing({ exporter, serviceName: 'question-play-test' });
  h = await startHarness();
});
afterAll(async () => {
  await cleanup(h);
  await h?.app.close();
  await stopTracing();
});

const denialsOf = async (gate: string) => (await registry.getSingleMetric('qp_denials_total')!.get()).values.find((v) => v.labels.gate === gate)?.value ?? 0;

describe('the engine in traces and metrics', () => {
  it('traces a feed event through its decisions to the delivery of the question it issued', async () => {
    await define(h);
    exporter.reset();
    const out = await runFeed(h, [ev(1, 'match_status', { data: { status: 'live' } }), ev(2, 'shot')]);
    expect(out.issuances).toHaveLength(1);
    const spans = exporter.getFinishedSpans();
    const shot = spans.find((s) => s.name === 'engine.event' && s.attributes['qp.event.id'] === 'e2');
    expect(shot, spans.map((s) => s.name).join(', ')).toBeDefined();
    expect(shot!.attributes).toMatchObject({ 'qp.match_id': out.match.id, 'qp.listener_id': out.listener.id, 'qp.event.type': 'shot' });
    const inTrace = spans.filter((s) => s.spanContext().traceId === shot!.spanContext().traceId);
    const isUnder = (s: ReadableSpan, ancestor: ReadableSpan): boolean => {
      const parent = inTrace.find((p) => p.spanContext().spanId === s.parentSpanContext?.spanId);
      return parent ? parent === ancestor || isUnder(parent, ancestor) : false;
    };
    const delivery = inTrace.find((s) => s.name === 'engine.deliver' && s.attributes['qp.issuance_id'] === out.issuances[0]!.id);
    expect(delivery && isUnder(delivery, shot!)).toBe(true);
    // The commit's statements are in the event's trace too.
    expect(inTrace.some((s) => s.name === 'db.query' && isUnder(s, shot!))).toBe(true);
  });

  it('counts denials by gate', async () => {
    await define(h, { probability: 0 });
    const before = await denialsOf('probability');
    const out = await runFeed(h, [ev(1, 'match_status', { data: { status: 'live' } }), ev(2, 'shot'), ev(3, 'shot')]);
    expect(out.denials.map((d) => d.failedStep)).toEqual(['probability', 'probability']);
    expect(await denialsOf('probability')).toBe(before + 2);
  });
});
