/**
 * OpenTelemetry traces: a request through its operation's handler, the
 * services it calls and their SQL statements; a feed event through the
 * listener's decisions to issuance and delivery. Exported over OTLP/HTTP when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (`initTracing` at start). When it is not,
 * nothing is loaded or registered and `traced` calls its function directly:
 * no span objects, no context switches.
 */
import { SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

let tracer: Tracer | null = null;
let provider: { shutdown(): Promise<void>; forceFlush(): Promise<void> } | null = null;

export interface TracingOptions {
  /** OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to `<endpoint>/v1/traces`. */
  otlpEndpoint?: string | null;
  serviceName: string;
  /** Tests: export here (synchronously, span by span) instead of over OTLP. */
  exporter?: SpanExporter;
}

/** Starts tracing when an endpoint (or an exporter) is given; returns whether it runs. */
export async function initTracing(options: TracingOptions): Promise<boolean> {
  if (tracer) return true;
  if (!options.exporter && !options.otlpEndpoint) return false;
  const [{ NodeTracerProvider }, { BatchSpanProcessor, SimpleSpanProcessor }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
  ]);
  let processor;
  if (options.exporter) processor = new SimpleSpanProcessor(options.exporter);
  else {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    processor = new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.otlpEndpoint!.replace(/\/+$/, '')}/v1/traces` }));
  }
  const p = new NodeTracerProvider({ resource: resourceFromAttributes({ 'service.name': options.serviceName }), spanProcessors: [processor as never] });
  // The global provider, with AsyncLocalStorage carrying the active span across awaits.
  p.register();
  provider = p;
  tracer = p.getTracer('question-play');
  return true;
}

/** Flushes what is buffered and stops tracing (at shutdown; tests between cases). */
export async function stopTracing(): Promise<void> {
  const p = provider;
  tracer = null;
  provider = null;
  if (!p) return;
  await p.forceFlush().catch(() => {});
  await p.shutdown().catch(() => {});
  trace.disable();
}

export const tracingEnabled = (): boolean => tracer !== null;

const fail = (span: Span, err: unknown) => {
  span.recordException(err as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
};

/**
 * Runs `fn` in a span named `name` (a child of the active one), ending it when
 * `fn` settles and marking it failed when `fn` throws. Without tracing: `fn()`.
 */
export function traced<T>(name: string, attributes: Attributes, fn: (span?: Span) => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  if (!tracer) return fn();
  return tracer.startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      fail(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * The same object with each method run in a span `<name>.<method>` (the
 * services, so a trace shows which service calls a request made); a method
 * that returns a promise is spanned until it settles, and returns a promise
 * still, others return as they did. Returned unchanged when tracing is off.
 */
export function tracedObject<T extends object>(name: string, target: T): T {
  const active = tracer;
  if (!active) return target;
  const wrapped = new Map<string, unknown>();
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      let fn = wrapped.get(prop);
      if (!fn) {
        const method = value as (...args: unknown[]) => unknown;
        fn = (...args: unknown[]) =>
          active.startActiveSpan(`${name}.${prop}`, { attributes: { 'code.function': `${name}.${prop}` } }, (span) => {
            let out: unknown;
            try {
              out = method.apply(obj, args);
            } catch (err) {
              fail(span, err);
              span.end();
              throw err;
            }
            if (out && typeof (out as PromiseLike<unknown>).then === 'function') {
              return Promise.resolve(out as PromiseLike<unknown>).then(
                (v) => {
                  span.end();
                  return v;
                },
                (err: unknown) => {
                  fail(span, err);
                  span.end();
                  throw err;
                },
              );
            }
            span.end();
            return out;
          });
        wrapped.set(prop, fn);
      }
      return fn;
    },
  });
}

export { SpanKind };
